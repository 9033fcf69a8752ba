import Foundation
import Testing

/// docs/CommandLine.md: the diagnostic format and the command line, sentence by sentence, through the built binary.
/// Each test names the sentence it checks.
@Suite struct SpecConformanceTests {
    private func folder(_ files: [String: String]) throws -> URL {
        try TemporaryFolder.make(files, prefix: "modelgen-spec")
    }

    private func listing(_ root: URL) -> [String] {
        TemporaryFolder.listing(root)
    }

    private let valid = "entity Thing {\n    name: String\n}\n"
    private let broken = "entity Thing {\n    name String\n}\n"
    private let warningOnly = "entity Trip {\n    name: String\n}\nentity BusinessTrip: Trip {\n    company: String\n}\ncontainer C { BusinessTrip }\n"

    /// "The first line of each diagnostic is exactly `PATH:LINE:COLUMN: SEVERITY: MESSAGE [RULE-ID]`"; "LINE and
    /// COLUMN count from 1 (COLUMN in UTF-8 bytes, as swiftc does)"; "Then the source line and a caret marker
    /// under the span, then any `PATH:LINE:COLUMN: note: …` lines"; "The text goes to standard error."
    @Test func diagnosticTextFormat() throws {
        let root = try folder(["Sub/Café.model": "entity Café { é: Dat }\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ToolRunner.run(["lint", "Sub/Café.model"], in: root)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count >= 4)
        // "entity Café { é: " is 19 bytes (é is two), so 'Dat' starts at byte column 20.
        #expect(lines[0] == "Sub/Café.model:1:20: error: unknown type 'Dat' of 'Café.é': declare an entity, enum or struct of that name, or use a built-in type [unknown-type]")
        #expect(lines[1] == "entity Café { é: Dat }")
        #expect(lines[2].hasSuffix("^~~"))
        #expect(lines[3].hasPrefix("Sub/Café.model:1:20: note: "))
    }

    /// "`--diagnostics-format json` prints one JSON array to standard output instead: objects with `file`,
    /// `line`, `column`, `endLine`, `endColumn`, `severity`, `rule`, `message`, `notes`."
    @Test func diagnosticJSONKeys() throws {
        for command in ["lint", "generate"] {
            let root = try folder(["Bad.model": "entity A { x: Dat }\nentity B: A { }\n"])
            defer { try? FileManager.default.removeItem(at: root) }
            let result = try ToolRunner.run([command, "--diagnostics-format", "json", "Bad.model"], in: root)
            #expect(result.status == 1)
            let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(array.count == 2)
            for object in array {
                #expect(Set(object.keys) == ["file", "line", "column", "endLine", "endColumn", "severity", "rule", "message", "notes"])
                #expect(object["file"] as? String == "Bad.model")
                #expect(object["notes"] is [Any])
            }
            #expect(array.map { $0["rule"] as? String } == ["unknown-type", "label-only-subclass"])
            #expect(array.map { $0["line"] as? Int } == [1, 2])
            #expect(array.first?["column"] as? Int == 15)
            #expect(array.first?["endColumn"] as? Int == 18)
            #expect(array.first?["severity"] as? String == "error")
            #expect(!result.stderr.contains("[unknown-type]"))
            #expect(listing(root) == ["Bad.model"])
        }
    }

    /// "Errors stop generation; warnings do not (unless `--warnings-as-errors`)"; "Exit status: 0 done
    /// (warnings allowed); 1 … `--warnings-as-errors` and a warning".
    @Test func warningsAsErrorsForLintAndGenerate() throws {
        let root = try folder(["W.model": warningOnly])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try ToolRunner.run(["lint", "W.model"], in: root).status == 0)
        let strict = try ToolRunner.run(["lint", "--warnings-as-errors", "W.model"], in: root)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains(": warning: ") && strict.stderr.contains("[unregistered-base]"))
        #expect(try ToolRunner.run(["generate", "--warnings-as-errors", "--output", "out", "W.model"], in: root).status == 1)
        #expect(listing(root) == ["W.model"])
        #expect(try ToolRunner.run(["generate", "--output", "out", "W.model"], in: root).status == 0)
        #expect(listing(root) == ["W.model", "out", "out/W.model.swift"])
    }

    /// "modelgen --help | help [COMMAND] | --version": each exits 0; an unknown command is bad usage (2).
    @Test func helpAndVersion() throws {
        for arguments in [["--help"], ["help"], ["--version"]] {
            let result = try ToolRunner.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(!result.stdout.isEmpty, "\(arguments)")
        }
        for command in ["generate", "lint", "format", "diagram"] {
            let result = try ToolRunner.run(["help", command])
            #expect(result.status == 0, "help \(command)")
            #expect(result.stdout.contains("modelgen \(command)"), "help \(command)")
            #expect(try ToolRunner.run([command, "--help"]).status == 0, "\(command) --help")
        }
        #expect(try ToolRunner.run(["help", "nonsense"]).status == 2)
        #expect(try ToolRunner.run(["nonsense"]).status == 2)
        #expect(try ToolRunner.run([]).status == 2)
    }

    /// Exit status of every command: "0 done; 1 the models have errors, or `--check` found stale output …;
    /// 2 bad usage or an unreadable input or unwritable output."
    @Test func exitStatusOfEveryCommand() throws {
        let root = try folder(["Good.model": valid, "Bad.model": broken, "Ugly.model": "entity   Thing {name:String}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let cases: [([String], Int32)] = [
            (["lint", "Good.model"], 0), (["lint", "Bad.model"], 1), (["lint", "Missing.model"], 2), (["lint"], 2),
            (["lint", "--bogus", "Good.model"], 2), (["lint", "--diagnostics-format", "xml", "Good.model"], 2),
            (["generate", "--check", "--output", "o", "Good.model"], 1), (["generate", "--output", "o", "Bad.model"], 1),
            (["generate", "--output", "o", "Missing.model"], 2), (["generate", "--access-level", "open", "Good.model"], 2),
            (["generate", "--templates", "NoSuchFolder", "Good.model"], 2),
            (["format", "Good.model"], 0), (["format", "--check", "Good.model"], 0), (["format", "--check", "Ugly.model"], 1),
            (["format", "Bad.model"], 1), (["format", "Missing.model"], 2), (["format", "--check", "--in-place", "Good.model"], 2),
            (["diagram", "Good.model"], 0), (["diagram", "--format", "dot", "Good.model"], 0),
            (["diagram", "--format", "mermaid", "Good.model"], 0), (["diagram", "--format", "svg", "Good.model"], 2),
            (["diagram", "Bad.model"], 1), (["diagram", "Missing.model"], 2),
            (["generate"], 2), (["format"], 2), (["diagram"], 2),
        ]
        for (arguments, status) in cases {
            let result = try ToolRunner.run(arguments, in: root)
            #expect(result.status == status, "modelgen \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        // None of these wrote anything.
        #expect(listing(root) == ["Bad.model", "Good.model", "Ugly.model"])
    }

    /// "An unreadable input" is exit 2: a dangling link, or a `.model` path that is a folder without models.
    @Test func unreadableInputsAreUsageErrors() throws {
        let root = try folder(["Good.model": valid])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("Dangling.model").path, withDestinationPath: "nowhere")
        for command in ["lint", "generate", "format", "diagram"] {
            #expect(try ToolRunner.run([command, "Good.model", "Dangling.model"], in: root).status == 2, "\(command)")
        }
        #expect(listing(root) == ["Dangling.model", "Good.model"])
    }

    /// "On exit 1 or 2 no output file is created or changed": an output path blocked by a folder fails
    /// the whole run before any other output is written.
    @Test func unwritableOutputChangesNothing() throws {
        let root = try folder(["Other.model": "entity Other {\n    x: Int\n}\n", "Thing.model": valid, "out/Thing.model.swift/keep": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ToolRunner.run(["generate", "--output", "out", "Other.model", "Thing.model"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("modelgen: "))
        #expect(listing(root.appendingPathComponent("out")) == ["Thing.model.swift", "Thing.model.swift/keep"])
    }

    /// "`--check`: write nothing; exit 1 and name each output that is missing or stale."
    @Test func checkNamesOnlyTheStaleOutputs() throws {
        let root = try folder(["A.model": "entity A {\n    x: Int\n}\n", "B.model": "entity B {\n    y: Int\n}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try ToolRunner.run(["generate", "--output", "out", "A.model", "B.model"], in: root).status == 0)
        #expect(try ToolRunner.run(["generate", "--check", "--output", "out", "A.model", "B.model"], in: root).status == 0)
        try Data("entity B {\n    y: Int\n    z: Int = 0\n}\n".utf8).write(to: root.appendingPathComponent("B.model"))
        let before = try Data(contentsOf: root.appendingPathComponent("out/B.model.swift"))
        let check = try ToolRunner.run(["generate", "--check", "--output", "out", "A.model", "B.model"], in: root)
        #expect(check.status == 1)
        #expect(check.stderr.contains("B.model.swift"))
        #expect(!check.stderr.contains("A.model.swift"))
        #expect(try Data(contentsOf: root.appendingPathComponent("out/B.model.swift")) == before)
    }

    /// "the header says `// Generated by modelgen from Trips.model. DO NOT EDIT.`"; "Output is byte-for-byte
    /// deterministic: no dates, no versions, no absolute paths"; "`Stem.model.swift` for `Stem.model`".
    @Test func headerNamingAndDeterminism() throws {
        let trips = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("Samples/Trips.model"), encoding: .utf8)
        let root = try folder(["In/Trips.model": trips])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try ToolRunner.run(["generate", "--output", "one", "In/Trips.model"], in: root).status == 0)
        #expect(try ToolRunner.run(["generate", "--output", root.appendingPathComponent("two").path, root.appendingPathComponent("In/Trips.model").path]).status == 0)
        let one = try String(contentsOf: root.appendingPathComponent("one/Trips.model.swift"), encoding: .utf8)
        let two = try String(contentsOf: root.appendingPathComponent("two/Trips.model.swift"), encoding: .utf8)
        #expect(one.hasPrefix("// Generated by modelgen from Trips.model. DO NOT EDIT.\n"))
        #expect(one == two)
        #expect(!one.contains(root.path))
        #expect(!one.contains("0.1.0"))
        // ModelStore imported with its SPI for generated code: still the one import of docs/Generation.md.
        #expect(one.split(separator: "\n").filter { $0.hasSuffix("import Foundation") || $0.hasSuffix("import ModelStore") }
                == ["import Foundation", "@_spi(ModelStoreGenerated) import ModelStore"])
    }

    /// "A file found inside a folder INPUT is named by its path below that folder with `/` turned into `_`
    /// (`Travel/Trips.model` → `Travel_Trips.model.swift`)"; a file given directly keeps its stem.
    @Test func folderInputOutputNames() throws {
        let root = try folder(["Models/Travel/Trips.model": valid])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try ToolRunner.run(["generate", "--output", "a", "Models"], in: root).status == 0)
        #expect(listing(root.appendingPathComponent("a")) == ["Travel_Trips.model.swift"])
        #expect(try ToolRunner.run(["generate", "--output", "b", "Models/Travel/Trips.model"], in: root).status == 0)
        #expect(listing(root.appendingPathComponent("b")) == ["Trips.model.swift"])
    }

    /// "so two inputs never share an output; if they still would, that is a usage error": `A/B.model` and
    /// `A_B.model` in one folder both map to `A_B.model.swift`.
    @Test func folderNamesThatStillClashAreAUsageError() throws {
        let root = try folder(["M/A/B.model": "entity X {\n    a: Int\n}\n", "M/A_B.model": "entity Y {\n    a: Int\n}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ToolRunner.run(["generate", "--output", "o", "M"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("A_B.model.swift"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("o").path))
    }
}
