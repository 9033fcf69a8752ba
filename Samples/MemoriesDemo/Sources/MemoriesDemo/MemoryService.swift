import Foundation
import ModelStore

// The methods of the `@ModelActor actor MemoryService` declared in Memories.model: the generated
// actor is what SwiftData's macro expands to (modelContainer, modelExecutor, modelContext).

extension MemoryService {
    /// Inserts an album with one memory per title.
    func addAlbum(named name: String, titles: [String], mood: Mood = .calm) throws {
        let album = Album(name: name)
        modelContext.insert(album)
        for (offset, title) in titles.enumerated() {
            let memory = Memory(title: title, createdAt: Date(timeIntervalSince1970: Double(offset) * 86_400), mood: mood)
            modelContext.insert(memory)
            memory.album = album
        }
        try modelContext.save()
    }

    /// The albums' names, sorted as SwiftData sorts a String key path (Finder order).
    func albumNames() throws -> [String] {
        try modelContext.fetch(FetchDescriptor<Album>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }

    /// One line per album: its name and its memories' titles (sorted), `-` for none.
    func albumSummaries() throws -> [String] {
        try modelContext.fetch(FetchDescriptor<Album>(sortBy: [SortDescriptor(\.name)])).map { album in
            let titles = (album.memories ?? []).map(\.title).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            return "\(album.name): \(titles.isEmpty ? "-" : titles.joined(separator: ", "))"
        }
    }

    /// The titles of the memories that felt `mood`, a captured plain enum compared in SQL.
    func titles(feeling mood: Mood) throws -> [String] {
        let predicate = #Predicate<Memory> { $0.mood == mood }
        return try modelContext.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    /// Marks a memory as a favourite, found by title.
    func favorite(_ title: String) throws {
        for memory in try modelContext.fetch(FetchDescriptor<Memory>(predicate: #Predicate { $0.title == title })) {
            memory.isFavorite = true
        }
        try modelContext.save()
    }

    /// The titles of the favourites.
    func favorites() throws -> [String] {
        try modelContext.fetch(FetchDescriptor<Memory>(predicate: #Predicate { $0.isFavorite }, sortBy: [SortDescriptor(\.title)])).map(\.title)
    }
}
