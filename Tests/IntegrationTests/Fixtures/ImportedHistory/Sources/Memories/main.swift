import Foundation
import ModelStore

// The app's code after `modelgen import`: the model files beside this one were imported from the
// Swift of Tests/ModelGenKitTests/Import/Fixtures/History; the custom stage's code moved into the
// generated plan's extension, as the importer's note says.

extension MemoriesMigrationPlan {
    /// Album names must be unique from version 2 on: duplicates are merged first.
    static func willMigrateV1_0_0ToV2_0_0(_ context: ModelContext) throws {
        var seen = Set<String>()
        for album in try context.fetch(FetchDescriptor<SchemaV1_0_0.Album>(sortBy: [SortDescriptor(\.name)])) where !seen.insert(album.name).inserted {
            context.delete(album)
        }
        try context.save()
    }

    static func didMigrateV1_0_0ToV2_0_0(_ context: ModelContext) throws {}
}

let path = CommandLine.arguments.dropFirst().first ?? FileManager.default.temporaryDirectory.appendingPathComponent("memories-\(UUID().uuidString).store").path
try? FileManager.default.removeItem(atPath: path)
let configuration = ModelConfiguration(url: URL(fileURLWithPath: path))

// A store as the app's first release wrote it: two albums of the same name.
do {
    let container = try ModelContainer(for: Schema(versionedSchema: SchemaV1_0_0.self), configurations: configuration)
    let context = ModelContext(container)
    for name in ["Summer", "Summer", "Winter"] {
        let album = SchemaV1_0_0.Album(name: name)
        context.insert(album)
        let memory = SchemaV1_0_0.Memory(title: "\(name) day")
        context.insert(memory)
        memory.album = album
    }
    try context.save()
}

// The current model opens it through the imported history.
let container = try ModelContainer(for: Memories.schema, migrationPlan: MemoriesMigrationPlan.self, configurations: configuration)
let context = ModelContext(container)
let albums = try context.fetch(FetchDescriptor<Album>(sortBy: [SortDescriptor(\.name)]))
print("albums: \(albums.map(\.name).joined(separator: ", "))")
let memories = try context.fetch(FetchDescriptor<Memory>(sortBy: [SortDescriptor(\.caption)]))
print("memories: \(memories.map { "\($0.caption) (\($0.mood.rawValue))" }.joined(separator: ", "))")
try? FileManager.default.removeItem(atPath: path)
