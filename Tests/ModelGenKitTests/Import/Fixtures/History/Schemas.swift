import Foundation
import SwiftData

// The app's schema history, as the SwiftData documentation shows it: each version an enum with
// its models nested inside, the newest one named by a typealias.

typealias SchemaLatest = SchemaV3
typealias Memory = SchemaLatest.Memory
typealias Album = SchemaLatest.Album

/// The first release.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)

    static var models: [any PersistentModel.Type] {
        [Memory.self, Album.self]
    }

    @Model
    final class Memory {
        var title: String
        var takenAt: Date = Date()
        var album: Album?

        init(title: String) {
            self.title = title
        }
    }

    @Model
    final class Album {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Memory.album)
        var memories: [Memory] = []

        init(name: String) {
            self.name = name
        }
    }
}

/// Memories got a mood; album names became unique.
enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Memory.self, Album.self] }

    @Model
    final class Memory {
        var title: String
        var takenAt: Date = Date()
        var mood: Mood = Mood.calm
        var album: Album?

        init(title: String) {
            self.title = title
        }
    }

    @Model
    final class Album {
        @Attribute(.unique) var name: String
        @Relationship(deleteRule: .cascade, inverse: \Memory.album)
        var memories: [Memory] = []

        init(name: String) {
            self.name = name
        }
    }
}

/// The caption was renamed; notes were added.
enum SchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Memory.self, Album.self] }
}

extension SchemaV3 {
    /// A photo and what it recalls.
    @Model
    final class Memory {
        @Attribute(originalName: "title")
        var caption: String
        var takenAt: Date = Date()
        var mood: Mood = Mood.calm
        var notes: [String] = []
        var album: Album?

        init(caption: String) {
            self.caption = caption
        }

        var isRecent: Bool { takenAt > .now.addingTimeInterval(-86_400) }
    }

    /// Memories kept together.
    @Model
    final class Album {
        @Attribute(.unique) var name: String
        @Relationship(deleteRule: .cascade, inverse: \Memory.album)
        var memories: [Memory] = []

        init(name: String) {
            self.name = name
        }
    }
}

/// How a memory feels.
enum Mood: String, Codable {
    case calm, joyful, wistful
}
