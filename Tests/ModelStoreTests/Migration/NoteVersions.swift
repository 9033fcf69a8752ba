import Foundation
@_spi(ModelStoreGenerated) import ModelStore

// Successive versions of one `Note` entity, written as the generator would (trimmed: no
// observation), to open one store file with different schemas.

/// Version 1: a title.
final class NoteV1: ModelObject, PersistentModel {
    private static let _$title = AttributeIndex(0, "title")
    var id: PersistentIdentifier { persistentModelID }
    var title: String
    init(title: String) {
        self.title = title
        super.init()
    }
    required init(from row: RowDecoder) throws {
        title = try row.read(NoteV1._$title)
        try super.init(from: row)
    }
    override func _decode(from row: RowDecoder) throws { try row.read(NoteV1._$title, into: &title) }
    override func _encode(to row: RowEncoder) { row.write(title, NoteV1._$title) }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute(NoteV1._$title, \NoteV1.title),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// Version 2 (additive): an optional body, a defaulted flag, and a new entity.
final class NoteV2: ModelObject, PersistentModel {
    private static let _$title = AttributeIndex(0, "title")
    private static let _$body = AttributeIndex(1, "body")
    private static let _$pinned = AttributeIndex(2, "pinned")
    var id: PersistentIdentifier { persistentModelID }
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
        title = try row.read(NoteV2._$title)
        body = try row.read(NoteV2._$body)
        pinned = try row.read(NoteV2._$pinned)
        try super.init(from: row)
    }
    override func _decode(from row: RowDecoder) throws {
        try row.read(NoteV2._$title, into: &title)
        try row.read(NoteV2._$body, into: &body)
        try row.read(NoteV2._$pinned, into: &pinned)
    }
    override func _encode(to row: RowEncoder) {
        row.write(title, NoteV2._$title)
        row.write(body, NoteV2._$body)
        row.write(pinned, NoteV2._$pinned)
    }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute(NoteV2._$title, \NoteV2.title),
        .attribute(NoteV2._$body, \NoteV2.body),
        .attribute(NoteV2._$pinned, \NoteV2.pinned, defaultValue: true),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// A new entity of version 2.
final class FolderV2: ModelObject, PersistentModel {
    private static let _$name = AttributeIndex(0, "name")
    var id: PersistentIdentifier { persistentModelID }
    var name: String
    init(name: String) {
        self.name = name
        super.init()
    }
    required init(from row: RowDecoder) throws {
        name = try row.read(FolderV2._$name)
        try super.init(from: row)
    }
    override func _decode(from row: RowDecoder) throws { try row.read(FolderV2._$name, into: &name) }
    override func _encode(to row: RowEncoder) { row.write(name, FolderV2._$name) }
    private static let _$metadata = EntityMetadata(name: "Folder", base: nil, subclasses: [], properties: [
        .attribute(FolderV2._$name, \FolderV2.name),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// Incompatible: the title became a number, and a required property has no default.
final class NoteV3: ModelObject, PersistentModel {
    private static let _$title = AttributeIndex(0, "title")
    private static let _$rating = AttributeIndex(1, "rating")
    var id: PersistentIdentifier { persistentModelID }
    var title: Int
    var rating: Int
    init(title: Int, rating: Int) {
        self.title = title
        self.rating = rating
        super.init()
    }
    required init(from row: RowDecoder) throws {
        title = try row.read(NoteV3._$title)
        rating = try row.read(NoteV3._$rating)
        try super.init(from: row)
    }
    override func _encode(to row: RowEncoder) {
        row.write(title, NoteV3._$title)
        row.write(rating, NoteV3._$rating)
    }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute(NoteV3._$title, \NoteV3.title),
        .attribute(NoteV3._$rating, \NoteV3.rating),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}

/// Version 1 with its title renamed to `heading` (`originalName: "title"`).
final class NoteRenamed: ModelObject, PersistentModel {
    private static let _$heading = AttributeIndex(0, "heading")
    var id: PersistentIdentifier { persistentModelID }
    var heading: String
    init(heading: String) {
        self.heading = heading
        super.init()
    }
    required init(from row: RowDecoder) throws {
        heading = try row.read(NoteRenamed._$heading)
        try super.init(from: row)
    }
    override func _encode(to row: RowEncoder) { row.write(heading, NoteRenamed._$heading) }
    private static let _$metadata = EntityMetadata(name: "Note", base: nil, subclasses: [], properties: [
        .attribute(NoteRenamed._$heading, \NoteRenamed.heading, originalName: "title"),
    ])
    override class var schemaMetadata: EntityMetadata { _$metadata }
}
