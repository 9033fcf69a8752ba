import Foundation
import StoreTestSupport
import Testing

// MARK: - MemoriesDemo: a SwiftData-style data layer (docs/Migrations.md, "The app's own SchemaLatest")

extension Workspace {
    /// `Samples/MemoriesDemo`: `typealias SchemaLatest`, model typealiases, the app's own plan, a model actor service.
    static let memoriesDemo = root.appending(path: "Samples/MemoriesDemo", directoryHint: .isDirectory)
}

extension IntegrationTests {
    var memoriesDemo: SamplePackage {
        SamplePackage(directory: Workspace.memoriesDemo)
    }

    /// What MemoriesDemo prints, from what it does: on a persistent store, 1.0.0's two memories
    /// filed in "Inbox" by the app's stage first; album names in `localizedStandardCompare` order
    /// (SwiftData's order of `SortDescriptor(\.name)`).
    static func memoriesDemoOutput(migrated: Bool) -> String {
        var albums: [String: [String]] = [
            "item 9": ["Kite"], "Item 10": ["Harbour", "Ferry"], "backyard": [], "Backyard 2": ["Tomatoes"],
        ]
        var lines: [String] = []
        if migrated {
            albums["Inbox"] = ["First snow", "Beach day"]
            lines += ["1.0.0 wrote: 2 memories", "migrated: Inbox: Beach day, First snow"]
        }
        let names = albums.keys.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        lines.append("albums: " + names.joined(separator: " | "))
        for name in names {
            let titles = albums[name, default: []].sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            lines.append("  \(name): \(titles.isEmpty ? "-" : titles.joined(separator: ", "))")
        }
        lines += ["happy: Kite, Tomatoes", "favorites: Ferry", "same class: true"]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("MemoriesDemo: SchemaLatest and model typealiases compile; its own plan migrates a 1.0.0 store on SQLite and PostgreSQL; in memory too")
    func memoriesDemoRunsOnEveryStore() async throws {
        let build = try await memoriesDemo.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        #expect(!build.output.contains("error:") && !build.output.contains("warning:"), "the build printed problems:\n\(build.output)")
        #expect(memoriesDemo.generatedFiles() == [
            "Memories.model.swift", "ModelVersions_1.0.0.modelversion.swift", "ModelVersions_2.0.0.modelversion.swift",
            "ModelVersions_3.0.0.modelversion.swift",
        ])
        // modelsInVersion: no top-level class; the app's typealiases are the names.
        let current = try memoriesDemo.generatedText("Memories.model.swift")
        #expect(!current.contains("class ") && !current.contains("typealias Memory"), "\(current)")

        let folder = FileManager.default.temporaryDirectory.appending(path: "memories-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "memories.sqlite").path(percentEncoded: false)
        let database = try PostgresTestServer.shared().makeDatabase()
        let server = try #require(database.storeURL).absoluteString
        for (store, migrated) in [(file, true), (server, true), (":memory:", false)] {
            let run = try await memoriesDemo.run("MemoriesDemo", [store])
            #expect(run.status == 0, "MemoriesDemo failed on \(store):\n\(run.output)")
            #expect(run.output == Self.memoriesDemoOutput(migrated: migrated), "on \(store)")
        }
    }
}
