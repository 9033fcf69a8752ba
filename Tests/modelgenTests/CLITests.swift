import Foundation
import Testing

/// End-to-end tests of the `modelgen` command line through the real binary.
@Suite struct CLITests {
    private func folder(_ files: [String: String]) throws -> URL {
        try TemporaryFolder.make(files, prefix: "modelgen-cli")
    }

    @Test func lintSampleIsSilentAndSucceeds() throws {
        let output = try ToolRunner.run(["lint", "Samples/Trips.model"])
        #expect(output.status == 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.isEmpty)
    }

    @Test func lintFolderFindsModelsRecursively() throws {
        let root = try folder(["Travel/Trips.model": "entity A { a: Int }\n", "Other/B.model": "entity B {\n    b Int\n}\n", "notes.txt": "x"])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["lint", root.path])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("\(root.path)/Other/B.model:2:7: error: expected ':' and a type after property name 'b' but found identifier 'Int' [syntax]\n    b Int\n      ^~~\n"))
        #expect(output.stderr.hasSuffix("\n1 error\n"))
    }

    @Test func syntaxErrorsExitOneWithTextOnStandardError() throws {
        let root = try folder(["bad.model": "entity A {\n    a Int\n    b: = 1\n}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["lint", "bad.model"], in: root)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "bad.model:2:7: error: expected ':' and a type after property name 'a' but found identifier 'Int' [syntax]")
        #expect(lines.contains("bad.model:3:8: error: expected a type but found '=' [syntax]"))
        #expect(lines.last == "2 errors")
    }

    @Test func jsonOutputParses() throws {
        let root = try folder(["bad.model": "entity A {\n    a Int\n}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["lint", "--diagnostics-format", "json", "bad.model"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr.isEmpty)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        let first = try #require(array.first)
        #expect(first["file"] as? String == "bad.model")
        #expect(first["line"] as? Int == 2)
        #expect(first["column"] as? Int == 7)
        #expect(first["endLine"] as? Int == 2)
        #expect(first["endColumn"] as? Int == 10)
        #expect(first["severity"] as? String == "error")
        #expect(first["rule"] as? String == "syntax")
        #expect((first["notes"] as? [Any])?.isEmpty == true)

        let clean = try ToolRunner.run(["lint", "--diagnostics-format=json", "Samples/Trips.model"])
        #expect(clean.status == 0)
        #expect(clean.stdout == "[]\n")
    }

    @Test func usageErrorsExitTwo() throws {
        let unknown = try ToolRunner.run(["lint", "--x", "Samples/Trips.model"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "modelgen: unknown option '--x' for 'lint'; see 'modelgen help lint'\n")

        let missingValue = try ToolRunner.run(["lint", "Samples/Trips.model", "--diagnostics-format"])
        #expect(missingValue.status == 2)
        #expect(missingValue.stderr.contains("missing value for option '--diagnostics-format'"))

        let badValue = try ToolRunner.run(["lint", "--diagnostics-format", "xml", "Samples/Trips.model"])
        #expect(badValue.status == 2)

        let noInput = try ToolRunner.run(["lint"])
        #expect(noInput.status == 2)

        let missingFile = try ToolRunner.run(["lint", "Samples/Nope.model"])
        #expect(missingFile.status == 2)
        #expect(missingFile.stderr.contains("Samples/Nope.model"))

        let unknownCommand = try ToolRunner.run(["frobnicate"])
        #expect(unknownCommand.status == 2)

        let nothing = try ToolRunner.run([])
        #expect(nothing.status == 2)
    }

    @Test func folderWithoutModelsIsAUsageError() throws {
        let root = try folder(["readme.txt": "no models here"])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["lint", root.path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("no .model file found"))
    }

    @Test func unreadableInputIsAUsageError() throws {
        let root = try folder(["locked.model": "entity A { a: Int }\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("locked.model")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path) }
        guard FileManager.default.contents(atPath: file.path) == nil else { return }  // running as root: readable anyway
        let output = try ToolRunner.run(["lint", file.path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot read"))
    }

    @Test func versionAndHelp() throws {
        let version = try ToolRunner.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "modelgen 0.1.0\n")

        let help = try ToolRunner.run(["--help"])
        #expect(help.status == 0)
        for command in ["generate", "lint", "format", "diagram"] {
            #expect(help.stdout.contains("  modelgen \(command) "), "usage line of \(command)")
        }
        #expect(try ToolRunner.run(["help"]).stdout == help.stdout)
        for command in ["generate", "lint", "format", "diagram", "help"] {
            let output = try ToolRunner.run(["help", command])
            #expect(output.status == 0)
            #expect(output.stdout.contains("USAGE: modelgen \(command)"))
        }
        let lintHelp = try ToolRunner.run(["lint", "--help"])
        #expect(lintHelp.status == 0)
        #expect(lintHelp.stdout.contains("--warnings-as-errors"))
        #expect(try ToolRunner.run(["help", "nope"]).status == 2)
    }

    @Test func warningsPassUnlessWarningsAsErrors() throws {
        let root = try folder(["w.model": "entity A { a: Int }\nentity B: A { b: Int }\ncontainer S { A, B }\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let plain = try ToolRunner.run(["lint", "w.model"], in: root)
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("w.model:3:18: warning: "))
        #expect(plain.stderr.contains("[redundant-registration]"))
        #expect(plain.stderr.hasSuffix("\n1 warning\n"))
        let strict = try ToolRunner.run(["lint", "--warnings-as-errors", "w.model"], in: root)
        #expect(strict.status == 1)
    }

    @Test func filesFormOneSchemaAndDiagnosticsFollowInputOrder() throws {
        let root = try folder([
            "b.model": "entity B {\n    a: A?\n    x: Nope\n}\n",
            "a.model": "entity A {\n    y: Missing\n    @Relationship(inverse: \\B.a) bs: [B] = []\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["lint", "b.model", "a.model"], in: root)
        #expect(output.status == 1)
        let headers = output.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map { String($0.prefix { $0 != " " }) }
        #expect(headers == ["b.model:3:8:", "a.model:2:8:"])
        #expect(output.stderr.contains("[unknown-type]"))
    }

    @Test func syntaxErrorsInSeveralFilesAreAllReported() throws {
        let root = try folder(["one.model": "entity A {\n    a Int\n}\n", "two.model": "entity B {\n    b: \n}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["lint", "--diagnostics-format", "json", "one.model", "two.model"], in: root)
        #expect(output.status == 1)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["file"] as? String } == ["one.model", "two.model"])
    }
}
