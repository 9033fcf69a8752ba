import Foundation
import Testing

/// `modelgen import` end to end (docs/CommandLine.md "modelgen import"): the SwiftData history of
/// Tests/ModelGenKitTests/Import/Fixtures/History imported into the ImportedHistory fixture, which the
/// plugin builds, and which opens a store written with the first version through the imported plan.
/// Part of the serialized integration suite: its build shares the suite's scratch folder.
extension IntegrationTests {
    var importedHistory: SamplePackage { SamplePackage(directory: Workspace.importedHistory) }

    @Test("The imported model is what modelgen import writes, builds with the plugin and migrates a 1.0.0 store")
    func importedHistoryBuildsAndMigrates() async throws {
        // The model files in the fixture are the import's output, byte for byte ('up to date').
        let modelgen = try Workspace.builtExecutable("modelgen")
        let sources = Workspace.importedHistory.appending(path: "Sources/Memories").path(percentEncoded: false)
        let history = Workspace.root.appending(path: "Tests/ModelGenKitTests/Import/Fixtures/History").path(percentEncoded: false)
        let imported = try await Shell.run(modelgen.path(percentEncoded: false), ["import", "--output", sources, history], in: Workspace.root)
        #expect(imported.status == 0, "modelgen import failed:\n\(imported.output)")
        #expect(imported.output.contains("modelgen: up to date '\(sources)/Schemas.model'"),
                "the fixture's model is not the import's output (run 'modelgen import --force --output \(sources) \(history)'):\n\(imported.output)")

        let package = importedHistory
        let build = try await package.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        let run = try await package.run("Memories")
        #expect(run.status == 0, "Memories failed:\n\(run.output)")
        #expect(run.output.contains("albums: Summer, Winter\n"), "unexpected output:\n\(run.output)")
        #expect(run.output.contains("memories: Summer day (calm), Winter day (calm)\n"), "unexpected output:\n\(run.output)")
    }
}
