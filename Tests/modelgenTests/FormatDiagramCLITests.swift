import Foundation
import Testing

/// `modelgen format` and `modelgen diagram` through the real binary: exit statuses, what is
/// printed where, and which files are (not) touched.
@Suite struct FormatDiagramCLITests {
    private static let messy = "entity A {  a: Int; @Attribute(.unique) b: String\n}\n"
    private static let messyFormatted = "entity A {\n    a: Int\n    @Attribute(.unique)\n    b: String\n}\n"
    private static let tidy = "/// A B.\nentity B {\n    b: Int\n}\n"

    private func folder(_ files: [String: String]) throws -> URL {
        try TemporaryFolder.make(files, prefix: "modelgen-format")
    }

    private func text(_ root: URL, _ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    private func modificationDate(_ root: URL, _ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.modificationDate] as? Date
    }

    /// Sets a file's modification time in the past, so that a rewrite would show.
    private func age(_ root: URL, _ path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: root.appendingPathComponent(path).path)
    }

    @Test func formatPrintsTheFormattedTextAndWritesNothing() throws {
        let root = try folder(["A.model": Self.messy])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["format", "A.model"], in: root)
        #expect(output.status == 0)
        #expect(output.stdout == Self.messyFormatted)
        #expect(output.stderr.isEmpty)
        #expect(try text(root, "A.model") == Self.messy)
    }

    @Test func checkNamesTheFilesThatWouldChange() throws {
        let root = try folder(["A.model": Self.messy, "B.model": Self.tidy])
        defer { try? FileManager.default.removeItem(at: root) }
        let failing = try ToolRunner.run(["format", "--check", "A.model", "B.model"], in: root)
        #expect(failing.status == 1)
        #expect(failing.stdout.isEmpty)
        #expect(failing.stderr == "modelgen: 'A.model' is not formatted\n")
        #expect(try text(root, "A.model") == Self.messy)
        let passing = try ToolRunner.run(["format", "--check", "B.model"], in: root)
        #expect(passing.status == 0)
        #expect(passing.stdout.isEmpty && passing.stderr.isEmpty)
    }

    @Test func inPlaceRewritesChangedFilesOnly() throws {
        let root = try folder(["A.model": Self.messy, "sub/B.model": Self.tidy])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: root.appendingPathComponent("A.model").path)
        try age(root, "sub/B.model")
        let before = try modificationDate(root, "sub/B.model")
        let output = try ToolRunner.run(["format", "--in-place", "."], in: root)
        #expect(output.status == 0)
        #expect(output.stdout.isEmpty && output.stderr.isEmpty)
        #expect(try text(root, "A.model") == Self.messyFormatted)
        #expect(try text(root, "sub/B.model") == Self.tidy)
        #expect(try modificationDate(root, "sub/B.model") == before)
        let permissions = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("A.model").path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
        #expect(try ToolRunner.run(["format", "--check", "."], in: root).status == 0)
    }

    @Test func syntaxErrorsStopEverything() throws {
        let root = try folder(["A.model": Self.messy, "Bad.model": "entity C {\n    c Int\n}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        try age(root, "A.model")
        let before = try modificationDate(root, "A.model")
        for flags in [[], ["--in-place"], ["--check"]] {
            let output = try ToolRunner.run(["format"] + flags + ["A.model", "Bad.model"], in: root)
            #expect(output.status == 1)
            #expect(output.stdout.isEmpty)
            #expect(output.stderr.hasPrefix("Bad.model:2:7: error: "))
            #expect(output.stderr.contains("[syntax]"))
        }
        #expect(try text(root, "A.model") == Self.messy)
        #expect(try modificationDate(root, "A.model") == before)
    }

    @Test func checkAndInPlaceTogetherIsAUsageError() throws {
        let output = try ToolRunner.run(["format", "--check", "--in-place", "Samples/Trips.model"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot be used together"))
    }

    @Test func aMissingInputIsAUsageError() throws {
        #expect(try ToolRunner.run(["format", "NoSuch.model"]).status == 2)
        #expect(try ToolRunner.run(["diagram", "NoSuch.model"]).status == 2)
    }

    @Test func diagramPrintsTheGoldenDiagrams() throws {
        let goldens = ToolRunner.packageRoot.appendingPathComponent("Tests/ModelGenKitTests/Diagram/Goldens")
        let mermaid = try ToolRunner.run(["diagram", "Samples/Trips.model"])
        #expect(mermaid.status == 0)
        #expect(mermaid.stderr.isEmpty)
        #expect(mermaid.stdout == (try String(contentsOf: goldens.appendingPathComponent("Trips.mmd"), encoding: .utf8)))
        let dot = try ToolRunner.run(["diagram", "--format", "dot", "Samples/Trips.model"])
        #expect(dot.status == 0)
        #expect(dot.stdout == (try String(contentsOf: goldens.appendingPathComponent("Trips.dot"), encoding: .utf8)))
    }

    @Test func diagramDrawsOneSchemaAcrossFiles() throws {
        let root = try folder([
            "Trip.model": "entity Trip {\n    name: String\n    stops: [Stop] = []\n}\n",
            "Stop.model": "entity Stop {\n    trip: Trip?\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["diagram", "Trip.model", "Stop.model"], in: root)
        #expect(output.status == 0)
        #expect(output.stdout.contains("    Trip \"0..1\" -- \"*\" Stop : stops (nullify) / trip (nullify)\n"))
    }

    @Test func diagramOfAnInvalidModelPrintsDiagnosticsOnly() throws {
        let output = try ToolRunner.run(["diagram", "Samples/invalid/flat-hierarchy.model"])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("[flat-hierarchy]"))
        let badFormat = try ToolRunner.run(["diagram", "--format", "svg", "Samples/Trips.model"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stdout.isEmpty)
    }
}
