import Foundation
import Testing

/// `modelgen freeze` and `modelgen migrations` through the real binary (docs/CommandLine.md, docs/Migrations.md): exit statuses,
/// what is printed where, which files are written; the plan of Samples/MigrationDemo, golden.
@Suite struct HistoryCLITests {
    static let v1 = "/// A journey.\nentity Trip {\n    name: String\n    duration: String\n}\n"
    static let v2 = "/// A journey.\nentity Trip {\n    name: String\n    duration: Int\n}\n"
    static let goldens = ToolRunner.packageRoot.appendingPathComponent("Tests/ModelGenKitTests/History/Goldens")

    private func folder(_ files: [String: String]) throws -> URL {
        try TemporaryFolder.make(files, prefix: "modelgen-history")
    }

    private func text(_ root: URL, _ path: String) -> String? {
        FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Compares `actual` with the golden file `name` (rewritten under `MODELGEN_UPDATE_GOLDENS=1`).
    private func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = Self.goldens.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["MODELGEN_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
        #expect(actual == expected, "\(name) differs (MODELGEN_UPDATE_GOLDENS=1 rewrites it)", sourceLocation: sourceLocation)
    }

    @Test func freezeWritesTheVersionBesideTheModels() throws {
        let root = try folder(["Models/Trips.model": Self.v1])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["freeze", "--version", "1.0.0", "Models"], in: root)
        #expect(output.status == 0)
        #expect(output.stdout == "modelgen: froze version 1.0.0 in 'Models/ModelVersions/1.0.0.modelversion'\n")
        #expect(output.stderr.isEmpty)
        #expect(text(root, "Models/ModelVersions/1.0.0.modelversion")?.hasSuffix("\n\n" + Self.v1) == true)
        // Given a file, the folder is beside it; the same model again changes nothing.
        let again = try ToolRunner.run(["freeze", "--version", "1.0", "Models/Trips.model"], in: root)
        #expect(again.status == 0)
        #expect(again.stdout == "modelgen: version 1.0.0 is frozen already with this model ('Models/ModelVersions/1.0.0.modelversion'): nothing to write\n")
        // --output elsewhere.
        let elsewhere = try ToolRunner.run(["freeze", "--version", "1", "--output", "History", "Models/Trips.model"], in: root)
        #expect(elsewhere.status == 0)
        #expect(text(root, "History/1.modelversion") != nil)
    }

    @Test func freezeNeverRewritesAnotherVersion() throws {
        let root = try folder(["Models/Trips.model": Self.v2, "Models/ModelVersions/1.0.0.modelversion": Self.v1])
        defer { try? FileManager.default.removeItem(at: root) }
        let refused = try ToolRunner.run(["freeze", "--version", "1.0.0", "Models"], in: root)
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr == "modelgen: version 1.0.0 is frozen already in 'Models/ModelVersions/1.0.0.modelversion', and the model differs from it: a frozen version is never rewritten (stores were written with it); freeze the model as a new version\n")
        #expect(text(root, "Models/ModelVersions/1.0.0.modelversion") == Self.v1)
        let older = try ToolRunner.run(["freeze", "--version", "0.9", "Models"], in: root)
        #expect(older.status == 1)
        #expect(older.stderr.contains("versions only grow"))
        // The step 1.0.0 → current needs code (a lint error), which a freeze resolves: it is no obstacle.
        #expect(try ToolRunner.run(["lint", "Models"], in: root).status == 1)
        let next = try ToolRunner.run(["freeze", "--version", "2.0.0", "Models"], in: root)
        #expect(next.status == 0)
        #expect(next.stderr.isEmpty)
        #expect(TemporaryFolder.listing(root.appendingPathComponent("Models/ModelVersions")) == ["1.0.0.modelversion", "2.0.0.modelversion"])
    }

    @Test func freezeUsageAndModelErrors() throws {
        let root = try folder(["Models/Trips.model": Self.v1, "Broken/Bad.model": "entity Bad { x: Strin }\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try ToolRunner.run(["freeze", "Models"], in: root)
        #expect(missing.status == 2)
        #expect(missing.stderr == "modelgen: missing '--version V': the version to freeze the model as (1.0.0); see 'modelgen help freeze'\n")
        let invalid = try ToolRunner.run(["freeze", "--version", "v1", "Models"], in: root)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("invalid version 'v1' for '--version' (expected MAJOR[.MINOR[.PATCH]], such as 1.0.0)"))
        let broken = try ToolRunner.run(["freeze", "--version", "1", "Broken"], in: root)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("Broken/Bad.model:1:17: error: unknown type 'Strin'"))
        #expect(broken.stderr.hasSuffix("modelgen: the model has errors: version 1.0.0 is not frozen\n"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Broken/ModelVersions").path))
        try Data("not a folder".utf8).write(to: root.appendingPathComponent("File"))
        let unwritable = try ToolRunner.run(["freeze", "--version", "1", "--output", "File/Versions", "Models"], in: root)
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.hasPrefix("modelgen: cannot write"))
    }

    /// Both commands read `--config FILE` like every command that reads models (docs/CommandLine.md, docs/Plugins.md): a bad
    /// file is a usage error; a good one changes neither the frozen text nor the plan.
    @Test func bothCommandsTakeAConfiguration() throws {
        let root = try folder([
            "Models/Trips.model": Self.v1, "public.json": "{\"accessLevel\": \"public\"}\n", "bad.json": "{\"accessLevel\": \"open\"}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        for command in [["freeze", "--version", "1.0.0"], ["migrations"]] {
            let bad = try ToolRunner.run(command + ["--config", "bad.json", "Models"], in: root)
            #expect(bad.status == 2, "\(command)")
            #expect(bad.stderr.contains("bad.json") && bad.stderr.contains("accessLevel"), "\(bad.stderr)")
        }
        #expect(text(root, "Models/ModelVersions/1.0.0.modelversion") == nil)
        let frozen = try ToolRunner.run(["freeze", "--version", "1.0.0", "--config", "public.json", "Models"], in: root)
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(text(root, "Models/ModelVersions/1.0.0.modelversion")?.hasSuffix("\n\n" + Self.v1) == true)
        let plan = try ToolRunner.run(["migrations", "--config", "public.json", "Models"], in: root)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("1.0.0"), "\(plan.stdout)")
    }

    @Test func migrationsPrintsTheDemoPlan() throws {
        let demo = ToolRunner.packageRoot.appendingPathComponent("Samples/MigrationDemo")
        let output = try ToolRunner.run(["migrations", "Sources/MigrationDemo"], in: demo)
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        try expectGolden(output.stdout, "MigrationDemo.migrations.txt")
    }

    @Test func migrationsShowsWhatNeedsCode() throws {
        let root = try folder([
            "Models/Trips.model": Self.v2.replacingOccurrences(of: "    duration: Int\n", with: "    duration: Int\n    rating: Int\n"),
            "Models/ModelVersions/1.0.0.modelversion": Self.v1, "Models/ModelVersions/2.0.0.modelversion": Self.v2,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["migrations", "Models"], in: root)
        #expect(output.status == 1)
        try expectGolden("$ modelgen migrations Models\n" + output.stdout + "--- standard error\n" + output.stderr, "NotInferable.migrations.txt")
        let json = try ToolRunner.run(["migrations", "--diagnostics-format", "json", "Models"], in: root)
        #expect(json.status == 1)
        #expect(json.stdout.hasPrefix("[") && json.stdout.contains("migration-not-inferable") && !json.stdout.contains("Versions:"))
    }

    @Test func migrationsWithoutHistory() throws {
        let root = try folder(["Models/Trips.model": Self.v1])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["migrations", "Models"], in: root)
        #expect(output.status == 0)
        #expect(output.stdout == "No frozen version: the model has no history yet. 'modelgen freeze --version 1.0.0' freezes it.\n")
        #expect(try ToolRunner.run(["migrations", "NoSuch"], in: root).status == 2)
    }

    @Test func generateWritesOneFilePerVersion() throws {
        let root = try folder(["Models/Trips.model": Self.v1, "Models/ModelVersions/1.0.0.modelversion": Self.v1])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["generate", "--output", "Out", "Models"], in: root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(TemporaryFolder.listing(root.appendingPathComponent("Out")) == ["ModelVersions_1.0.0.modelversion.swift", "Trips.model.swift"])
        #expect(text(root, "Out/ModelVersions_1.0.0.modelversion.swift")?.contains("enum SchemaV1_0_0: ModelStore.VersionedSchema") == true)
    }

    @Test func helpDescribesBothCommands() throws {
        let freeze = try ToolRunner.run(["help", "freeze"])
        #expect(freeze.status == 0 && freeze.stdout.contains("USAGE: modelgen freeze --version V [--output DIR] [--config FILE] INPUT..."))
        let migrations = try ToolRunner.run(["migrations", "--help"])
        #expect(migrations.status == 0 && migrations.stdout.contains("USAGE: modelgen migrations"))
        let overview = try ToolRunner.run(["--help"])
        #expect(overview.stdout.contains("modelgen freeze   --version V [--output DIR] INPUT...") && overview.stdout.contains("migrations Print the migration plan"))
    }
}
