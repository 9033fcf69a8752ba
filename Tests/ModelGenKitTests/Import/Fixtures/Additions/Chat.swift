import CoreGraphics
import Foundation
import SwiftData

// A chat client's data layer, written the way open-source SwiftData apps write theirs.

/// Which service answers.
enum Provider: Codable {
    case ollama, openAI
}

/// A rectangle on screen.
struct Rect: Codable, Hashable {
    var x: Double = 0
    var y: Double = 0
    var width: CGFloat = 0
    var height: CGFloat = 0

    static let zero = Rect()
}

/// A point.
struct Pt: Codable, Hashable, Identifiable {
    var id: UUID = UUID()
    var x: Double
    var y: Double
}

/// Someone the user chats with.
@Model
final class Assistant {
    var name: String
    var provider: Provider = Provider.ollama
    var startDate: Date
    var width: CGFloat = 320
    var frame: Rect = .zero
    var origin: Rect = Rect.zero
    var anchor: Pt?
    @Relationship(deleteRule: .cascade, inverse: \Conversation.assistant)
    var conversations: [Conversation]? = []

    init(name: String, startDate: Date = .now) {
        self.name = name
        self.startDate = startDate
    }
}

/// One thread of messages.
@Model
final class Conversation {
    var title: String = ""
    var assistant: Assistant?

    init(title: String = "") {
        self.title = title
    }
}

/// Reads and writes the chats off the main actor.
@ModelActor
actor ChatStore {
    func assistants() throws -> [Assistant] {
        try modelContext.fetch(FetchDescriptor<Assistant>())
    }
}
