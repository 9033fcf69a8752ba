import Foundation
import Testing

// MARK: - MigrationDemo: a model with a history (docs/Migrations.md)

extension IntegrationTests {
    static let migrationSources = "Sources/MigrationDemo"

    var migrationDemo: SamplePackage {
        SamplePackage(directory: Workspace.migrationDemo)
    }

    @Test("MigrationDemo builds with the plugin and migrates a 1.0.0 store through its custom stage and a rename")
    func migrationDemoConvertsRealData() async throws {
        let build = try await migrationDemo.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        #expect(!build.output.contains("error:") && !build.output.contains("unhandled"), "the build printed errors:\n\(build.output)")
        #expect(migrationDemo.generatedFiles() == [
            "ModelVersions_1.0.0.modelversion.swift", "ModelVersions_2.0.0.modelversion.swift",
            "ModelVersions_3.0.0.modelversion.swift", "Trips.model.swift",
        ])

        let folder = FileManager.default.temporaryDirectory.appending(path: "migration-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appending(path: "trips.sqlite").path(percentEncoded: false)
        let seed = try await migrationDemo.run("MigrationDemo", ["seed", store])
        try #require(seed.status == 0, "seed failed:\n\(seed.output)")
        let expected = """
            Nice: 90 minutes; staying at: Camping, Villa
            Oslo: 120 minutes; staying at: -
            Rome: 90 minutes; staying at: Hotel Roma

            """
        let migrated = try await migrationDemo.run("MigrationDemo", ["open", store])
        #expect(migrated.status == 0, "open failed:\n\(migrated.output)")
        #expect(migrated.output == expected)
        // Opened again: at 3.0.0 already, nothing runs, the same trips.
        let reopened = try await migrationDemo.run("MigrationDemo", ["open", store])
        #expect(reopened.output == expected)
    }

    @Test("A custom step whose code is missing does not compile: swiftc names the functions to write")
    func missingStageCodeIsACompileError() async throws {
        let stage = Workspace.migrationDemo.appending(path: "\(Self.migrationSources)/DurationStage.swift")
        let away = FileManager.default.temporaryDirectory.appending(path: "DurationStage-\(UUID().uuidString).swift")
        try FileManager.default.moveItem(at: stage, to: away)
        defer { try? FileManager.default.moveItem(at: away, to: stage) }
        let build = try await migrationDemo.build()
        #expect(build.status != 0, "MigrationDemo built without its stage's code:\n\(build.output)")
        #expect(build.output.contains("type 'TripLogMigrationPlan' does not conform to protocol 'TripLogMigrationPlanCustomStages'"),
                "\(build.output)")
        #expect(build.output.contains("protocol requires function 'willMigrateV1_0_0ToV2_0_0'"), "\(build.output)")
        #expect(build.output.contains("protocol requires function 'didMigrateV1_0_0ToV2_0_0'"), "\(build.output)")
    }

    @Test("An undeclared step that needs code fails the build with migration-not-inferable in the newer version")
    func undeclaredStepFailsTheBuild() async throws {
        let model = Workspace.migrationDemo.appending(path: "\(Self.migrationSources)/Trips.model")
        let original = try String(contentsOf: model, encoding: .utf8)
        defer { try? original.write(to: model, atomically: true, encoding: .utf8) }
        let declaration = "migration \"1.0.0\" -> \"2.0.0\" { custom }\n"
        try #require(original.contains(declaration))
        try original.replacingOccurrences(of: declaration, with: "").write(to: model, atomically: true, encoding: .utf8)
        let build = try await migrationDemo.build()
        #expect(build.status != 0, "MigrationDemo built with an undeclared step:\n\(build.output)")
        let version = Workspace.migrationDemo.appending(path: "\(Self.migrationSources)/ModelVersions/2.0.0.modelversion")
        let line = build.output.split(separator: "\n").first { $0.hasPrefix("\(version.path(percentEncoded: false)):8:5: error: ") }
        #expect(line?.hasSuffix("[migration-not-inferable]") == true, "no migration-not-inferable line:\n\(build.output)")
    }

    @Test("generate-models writes the frozen versions' files too")
    func commandPluginGeneratesTheHistory() async throws {
        let generated = Workspace.migrationDemo.appending(path: "\(Self.migrationSources)/Generated", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: generated)
        defer { try? FileManager.default.removeItem(at: generated) }
        let result = try await migrationDemo.swift(["package", "--scratch-path", migrationDemo.scratchPath.path(percentEncoded: false),
                                              "--allow-writing-to-package-directory", "generate-models"])
        try #require(result.status == 0, "generate-models failed:\n\(result.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: generated.path(percentEncoded: false)).sorted()
        #expect(names == [
            "ModelVersions_1.0.0.modelversion.swift", "ModelVersions_2.0.0.modelversion.swift",
            "ModelVersions_3.0.0.modelversion.swift", "Trips.model.swift",
        ])
    }
}
