// The models of CrashMigrator, in the shape of generated code (trimmed: no observation registrar):
// 1.0.0 → 2.0.0 is a custom stage (the text duration becomes minutes), 2.0.0 → 3.0.0 is inferred
// (a rename, Int32 → Int, optional → required with a default, an added property), and both
// rebuild the Trip table.
import Foundation
import ModelStore

/// Version 1.0.0.
enum CrashV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject {
        private var _name: String
        private var _duration: String
        private var _days: Int32
        private var _note: String?
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var duration: String { get { _duration } set { _$willChange(); _duration = newValue } }
        var days: Int32 { get { _days } set { _$willChange(); _days = newValue } }
        var note: String? { get { _note } set { _$willChange(); _note = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(name: String, duration: String, days: Int32, note: String? = nil) {
            _name = name
            _duration = duration
            _days = days
            _note = note
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            _days = try row.read()
            _note = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            _days = try row.read()
            _note = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_duration)
            row.write(_days)
            row.write(_note)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Trip.name),
                .attribute("duration", \Trip.duration),
                .attribute("days", \Trip.days),
                .attribute("note", \Trip.note),
                .toMany("accommodations", \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Accommodation: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var trip: Trip? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Accommodation", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Accommodation.name),
                .toOne("trip", \Accommodation.trip, deleteRule: .nullify, inverse: "accommodations"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Version 2.0.0.
enum CrashV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject {
        private var _name: String
        private var _duration: Int
        private var _days: Int32
        private var _note: String?
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var duration: Int { get { _duration } set { _$willChange(); _duration = newValue } }
        var days: Int32 { get { _days } set { _$willChange(); _days = newValue } }
        var note: String? { get { _note } set { _$willChange(); _note = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(name: String, duration: Int, days: Int32, note: String? = nil) {
            _name = name
            _duration = duration
            _days = days
            _note = note
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            _days = try row.read()
            _note = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            _days = try row.read()
            _note = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_duration)
            row.write(_days)
            row.write(_note)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Trip.name),
                .attribute("duration", \Trip.duration),
                .attribute("days", \Trip.days),
                .attribute("note", \Trip.note),
                .toMany("accommodations", \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Accommodation: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var trip: Trip? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Accommodation", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Accommodation.name),
                .toOne("trip", \Accommodation.trip, deleteRule: .nullify, inverse: "accommodations"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Version 3.0.0.
enum CrashV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject {
        private var _title: String
        private var _duration: Int
        private var _days: Int
        private var _note: String
        private var _rating: Int
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var duration: Int { get { _duration } set { _$willChange(); _duration = newValue } }
        var days: Int { get { _days } set { _$willChange(); _days = newValue } }
        var note: String { get { _note } set { _$willChange(); _note = newValue } }
        var rating: Int { get { _rating } set { _$willChange(); _rating = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(title: String, duration: Int, days: Int, note: String = "-", rating: Int = 3) {
            _title = title
            _duration = duration
            _days = days
            _note = note
            _rating = rating
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            _duration = try row.read()
            _days = try row.read()
            _note = try row.read()
            _rating = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            _duration = try row.read()
            _days = try row.read()
            _note = try row.read()
            _rating = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            row.write(_duration)
            row.write(_days)
            row.write(_note)
            row.write(_rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Trip.title, originalName: "name"),
                .attribute("duration", \Trip.duration),
                .attribute("days", \Trip.days),
                .attribute("note", \Trip.note, defaultValue: "-"),
                .attribute("rating", \Trip.rating, defaultValue: 3),
                .toMany("accommodations", \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Accommodation: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var trip: Trip? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Accommodation", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Accommodation.name),
                .toOne("trip", \Accommodation.trip, deleteRule: .nullify, inverse: "accommodations"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}
