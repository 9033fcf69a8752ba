import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

/// The frozen versions of `Samples/MigrationDemo` (the worked example of docs/Migrations.md)
/// generate `Tests/ModelStoreTests/Generated/MigrationDemo/*.modelversion.swift`, byte for byte:
/// ModelStoreTests compiles them and migrates stores through their plan (`PlanMigrationTests`).
/// The current model's file is not among them (its top-level `Trip` would clash with the Trips
/// golden's); the demo package compiles it (IntegrationTests). `MODELGEN_UPDATE_GOLDENS=1` rewrites them.
@Suite struct VersionGoldenTests {
    static let demo = GoldenTests.packageRoot.appendingPathComponent("Samples/MigrationDemo/Sources/MigrationDemo")
    static let goldens = GoldenTests.packageRoot.appendingPathComponent("Tests/ModelStoreTests/Generated/MigrationDemo")

    @Test func migrationDemoVersionsMatchTheGoldens() throws {
        let result = try ModelGen.run(.paths([Self.demo.path]), options: GeneratorOptions(output: .inMemory))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let versions = result.outputs.filter { $0.name.hasSuffix(".modelversion.swift") }
        #expect(versions.map(\.name) == [
            "ModelVersions_1.0.0.modelversion.swift", "ModelVersions_2.0.0.modelversion.swift", "ModelVersions_3.0.0.modelversion.swift",
        ])
        for output in versions {
            try GoldenFile.expect(
                try #require(output.contents), matches: Self.goldens.appendingPathComponent(output.name),
                what: "\(output.name) (generated from Samples/MigrationDemo)")
        }
        let goldens = (try? FileManager.default.contentsOfDirectory(atPath: Self.goldens.path)) ?? []
        #expect(goldens.sorted() == versions.map(\.name), "stale golden files in Tests/ModelStoreTests/Generated/MigrationDemo")
    }
}
