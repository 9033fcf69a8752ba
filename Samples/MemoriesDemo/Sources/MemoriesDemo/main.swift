// MemoriesDemo: a SwiftData-style data layer on ModelStore (docs/Migrations.md, "The app's own SchemaLatest").
//
//     swift run MemoriesDemo [STORE-FILE | postgresql://… | :memory:]
//
// With a file or a PostgreSQL URL (a fresh store), it first writes memories as version 1.0.0 of the
// app did, then opens the store as the app does now, with its own migration plan (1.0.0 → 2.0.0
// files them in an "Inbox" album, 2.0.0 → 3.0.0 is inferred). In memory (the default) there is
// nothing to migrate. Then the model actor service adds albums and lists them sorted.
import Foundation
import ModelStore

let argument = CommandLine.arguments.dropFirst().first ?? ":memory:"
let configuration: ModelConfiguration
if argument == ":memory:" {
    configuration = ModelConfiguration(schema: Schema(versionedSchema: SchemaLatest.self), isStoredInMemoryOnly: true)
} else {
    let isServer = argument.hasPrefix("postgresql:") || argument.hasPrefix("postgres:")
    guard let url = isServer ? URL(string: argument) : URL(filePath: argument) else {
        FileHandle.standardError.write(Data("MemoriesDemo: not a URL: \(argument)\n".utf8))
        exit(2)
    }
    configuration = ModelConfiguration(url: url)

    // Version 1.0.0 of the app, which knew memories only.
    let old = try ModelContainer(for: Schema(versionedSchema: SchemaV1_0_0.self), configurations: configuration)
    let oldContext = ModelContext(old)
    for title in ["First snow", "Beach day"] {
        oldContext.insert(SchemaV1_0_0.Memory(title: title, createdAt: Date(timeIntervalSince1970: 0)))
    }
    try oldContext.save()
    print("1.0.0 wrote: \(try oldContext.fetchCount(FetchDescriptor<SchemaV1_0_0.Memory>())) memories")
}

// The app now: the latest schema, its own plan.
let container = try ModelContainer(
    for: Schema(versionedSchema: SchemaLatest.self), migrationPlan: MigrationPlan.self, configurations: configuration)
let context = ModelContext(container)
for album in try context.fetch(FetchDescriptor<Album>(sortBy: [SortDescriptor(\.name)])) {
    let titles = (album.memories ?? []).map(\.title).sorted()
    print("migrated: \(album.name): \(titles.joined(separator: ", "))")
}

let service = MemoryService(modelContainer: container)
try await service.addAlbum(named: "item 9", titles: ["Kite"], mood: .happy)
try await service.addAlbum(named: "Item 10", titles: ["Harbour", "Ferry"], mood: .nostalgic)
try await service.addAlbum(named: "backyard", titles: [])
try await service.addAlbum(named: "Backyard 2", titles: ["Tomatoes"], mood: .happy)
try await service.favorite("Ferry")

print("albums: \(try await service.albumNames().joined(separator: " | "))")
for line in try await service.albumSummaries() {
    print("  \(line)")
}
print("happy: \(try await service.titles(feeling: .happy).joined(separator: ", "))")
print("favorites: \(try await service.favorites().joined(separator: ", "))")
print("same class: \(SchemaLatest.models.contains { ObjectIdentifier($0) == ObjectIdentifier(Memory.self) })")
