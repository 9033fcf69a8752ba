import Foundation
import Testing

/// `modelgen import` end to end (docs/CommandLine.md "modelgen import"): the SwiftData history of
/// Tests/ModelGenKitTests/Import/Fixtures/History imported into the ImportedHistory fixture, which the
/// plugin builds, and which opens a store written with the first version through the imported plan.
@Suite(
    "Integration: an imported SwiftData model builds through the plugin",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["MODELGEN_SKIP_INTEGRATION"] == nil)
)
struct ImportIntegrationTests {
    let package = SamplePackage(directory: Workspace.importedHistory, scratchPath: Workspace.scratchPath(for: "ImportedHistory"))

    @Test("The imported model is what modelgen import writes, builds with the plugin and migrates a 1.0.0 store")
    func importedHistoryBuildsAndMigrates() throws {
        // The model files in the fixture are the import's output, byte for byte ('up to date').
        let modelgen = try Workspace.builtExecutable("modelgen")
        let sources = Workspace.importedHistory.appending(path: "Sources/Memories").path(percentEncoded: false)
        let history = Workspace.root.appending(path: "Tests/ModelGenKitTests/Import/Fixtures/History").path(percentEncoded: false)
        let imported = try Shell.run(modelgen.path(percentEncoded: false), ["import", "--output", sources, history], in: Workspace.root)
        #expect(imported.status == 0, "modelgen import failed:\n\(imported.output)")
        #expect(imported.output.contains("modelgen: up to date '\(sources)/Schemas.model'"),
                "the fixture's model is not the import's output (run 'modelgen import --force --output \(sources) \(history)'):\n\(imported.output)")

        let build = try package.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        let run = try package.run("Memories")
        #expect(run.status == 0, "Memories failed:\n\(run.output)")
        #expect(run.output.contains("albums: Summer, Winter\n"), "unexpected output:\n\(run.output)")
        #expect(run.output.contains("memories: Summer day (calm), Winter day (calm)\n"), "unexpected output:\n\(run.output)")
    }
}
