import Foundation
import ModelStore

// Successive versions of one `Note` entity, written as the generator would (trimmed: no
// observation), to open one store file with different schemas.

/// Version 1: a title.
final class NoteV1: ModelObject {
    var title: String
    init(title: String) {
        self.title = title
        super.init()
    }
    required init(from row: RowDecoder) throws {
        title = try row.read()
        try super.init(from: row)
    }
    override func _decode(from row: RowDecoder) throws { title = try row.read() }
    override func _encode(to row: RowEncoder) { row.write(title) }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute("title", \NoteV1.title),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// Version 2 (additive): an optional body, a defaulted flag, and a new entity.
final class NoteV2: ModelObject {
    var title: String
    var body: String?
    var pinned: Bool
    init(title: String) {
        self.title = title
        self.body = nil
        self.pinned = false
        super.init()
    }
    required init(from row: RowDecoder) throws {
        title = try row.read()
        body = try row.read()
        pinned = try row.read()
        try super.init(from: row)
    }
    override func _decode(from row: RowDecoder) throws {
        title = try row.read()
        body = try row.read()
        pinned = try row.read()
    }
    override func _encode(to row: RowEncoder) {
        row.write(title)
        row.write(body)
        row.write(pinned)
    }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute("title", \NoteV2.title),
        .attribute("body", \NoteV2.body),
        .attribute("pinned", \NoteV2.pinned, defaultValue: true),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// A new entity of version 2.
final class FolderV2: ModelObject {
    var name: String
    init(name: String) {
        self.name = name
        super.init()
    }
    required init(from row: RowDecoder) throws {
        name = try row.read()
        try super.init(from: row)
    }
    override func _decode(from row: RowDecoder) throws { name = try row.read() }
    override func _encode(to row: RowEncoder) { row.write(name) }
    private static let _$metadata = EntityMetadata(name: "Folder", base: nil, subclasses: [], properties: [
        .attribute("name", \FolderV2.name),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// Incompatible: the title became a number, and a required property has no default.
final class NoteV3: ModelObject {
    var title: Int
    var rating: Int
    init(title: Int, rating: Int) {
        self.title = title
        self.rating = rating
        super.init()
    }
    required init(from row: RowDecoder) throws {
        title = try row.read()
        rating = try row.read()
        try super.init(from: row)
    }
    override func _encode(to row: RowEncoder) {
        row.write(title)
        row.write(rating)
    }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute("title", \NoteV3.title),
        .attribute("rating", \NoteV3.rating),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// Version 1 with its title renamed to `heading` (`originalName: "title"`).
final class NoteRenamed: ModelObject {
    var heading: String
    init(heading: String) {
        self.heading = heading
        super.init()
    }
    required init(from row: RowDecoder) throws {
        heading = try row.read()
        try super.init(from: row)
    }
    override func _encode(to row: RowEncoder) { row.write(heading) }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute("heading", \NoteRenamed.heading, originalName: "title"),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}
