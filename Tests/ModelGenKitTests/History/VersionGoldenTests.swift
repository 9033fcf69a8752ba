import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

/// Models with a history generate, for their frozen versions, the `SchemaV…` enums and plans that
/// ModelStoreTests compiles and migrates stores with, byte for byte:
/// - `Samples/MigrationDemo` (the worked example of docs/Migrations.md) → `Tests/ModelStoreTests/Generated/MigrationDemo/`;
/// - each history of `History/Fixtures/` (the small models of the runtime's migration tests, each
///   numbered apart so that their enums share one module) → `Tests/ModelStoreTests/Generated/Histories/<Name>/`.
/// They are generated with `modelsInVersion` (docs/Migrations.md "The app's own SchemaLatest"): the
/// newest version's enum holds the current model's classes and no top-level name is declared, so the
/// histories share ModelStoreTests with other models. The current model's own file, which then holds
/// only its containers, is kept for MigrationDemo (`Current_Trips.model.swift`: ModelStoreTests
/// has a `Trips.model.swift` already), where it checks that `TripLog.schema` names the version's classes.
/// Each history's plan, as `modelgen migrations` prints it, goes to
/// `Tests/ModelStoreTests/Goldens/Histories/<Name>.migrations.txt`: `SchemaDiffAgreementTests` runs the
/// runtime on the same steps and checks it classifies every change the same way.
/// `MODELGEN_UPDATE_GOLDENS=1` rewrites them all.
@Suite struct VersionGoldenTests {
    static let root = GoldenTests.packageRoot
    static let fixtures = "Tests/ModelGenKitTests/History/Fixtures"

    /// Each history: its name, its folder (relative to the package root), where its versions' code goes.
    static var histories: [(name: String, folder: String, generated: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(fixtures).path)) ?? []
        return [("MigrationDemo", "Samples/MigrationDemo/Sources/MigrationDemo", "Tests/ModelStoreTests/Generated/MigrationDemo")]
            + names.sorted().map { ($0, "\(fixtures)/\($0)", "Tests/ModelStoreTests/Generated/Histories/\($0)") }
    }

    @Test func theFixturesAreThere() {
        #expect(Self.histories.map(\.name) == ["MigrationDemo", "Attributes", "Changes", "Composite", "Constraints", "Entities", "Memo", "Notes", "Renames", "ToMany"])
    }

    /// The `.model` and `.modelversion` files of `folder`, named relative to the package root (the
    /// paths `migrations` prints) and to the folder (the names of their outputs).
    static func sources(in folder: String) throws -> [ModelSource] {
        let base = root.appendingPathComponent(folder)
        var relative: [String] = []
        let walker = FileManager.default.enumerator(atPath: base.path)
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".model") || path.hasSuffix(".modelversion") { relative.append(path) }
        }
        return try relative.sorted().map { path in
            ModelSource(SourceFile(path: "\(folder)/\(path)", bytes: Array(try Data(contentsOf: base.appendingPathComponent(path)))), relativePath: path)
        }
    }

    @Test(arguments: VersionGoldenTests.histories.map(\.name))
    func versionsAndPlanMatchTheGoldens(name: String) throws {
        let history = try #require(Self.histories.first { $0.name == name })
        let sources = try Self.sources(in: history.folder)
        var options = GeneratorOptions(output: .inMemory)
        options.modelsInVersion = true
        let result = try ModelGen.run(.sources(sources), options: options)
        #expect(result.errorCount == 0, "\(result.diagnostics)")
        let versions = result.outputs.filter { $0.name.hasSuffix(".modelversion.swift") }
        #expect(versions.count >= 2)
        var kept = versions.map { ($0, $0.name) }
        if name == "MigrationDemo" {
            kept += result.outputs.filter { $0.name.hasSuffix(".model.swift") }.map { ($0, "Current_" + $0.name) }
        }
        let goldens = Self.root.appendingPathComponent(history.generated)
        for (output, goldenName) in kept {
            try GoldenFile.expect(
                try #require(output.contents), matches: goldens.appendingPathComponent(goldenName),
                what: "\(output.name) (generated from \(history.folder) with modelsInVersion)")
        }
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: goldens.path)) ?? []
        #expect(existing.sorted() == kept.map(\.1).sorted(), "stale golden files in \(history.generated)")

        let plan = try ModelGen.migrations(.sources(sources))
        let text = try #require(plan.text)
        try GoldenFile.expect(text, matches: Self.root.appendingPathComponent("Tests/ModelStoreTests/Goldens/Histories/\(name).migrations.txt"))
    }
}
