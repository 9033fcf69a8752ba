// The models of CrashMigrator, in the shape of generated code (trimmed: no observation registrar):
// 1.0.0 → 2.0.0 is a custom stage (the text duration becomes minutes), 2.0.0 → 3.0.0 is inferred
// (a rename, Int32 → Int, optional → required with a default, an added property), and both
// rebuild the Trip table.
import Foundation
@_spi(ModelStoreGenerated) import ModelStore

/// Version 1.0.0.
enum CrashV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$duration = AttributeIndex(1, "duration")
        private static let _$days = AttributeIndex(2, "days")
        private static let _$note = AttributeIndex(3, "note")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        private var _duration: String
        private var _days: Int32
        private var _note: String?
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var duration: String { get { _duration } set { _$willSet(Trip._$duration, \.duration); let oldValue = _duration; _duration = newValue; _$didSet(Trip._$duration, \.duration, oldValue) } }
        var days: Int32 { get { _days } set { _$willSet(Trip._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Trip._$days, \.days, oldValue) } }
        var note: String? { get { _note } set { _$willSet(Trip._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Trip._$note, \.note, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(name: String, duration: String, days: Int32, note: String? = nil) {
            _name = name
            _duration = duration
            _days = days
            _note = note
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            _duration = try row.read(Trip._$duration)
            _days = try row.read(Trip._$days)
            _note = try row.read(Trip._$note)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try row.read(Trip._$duration, into: &_duration)
            try row.read(Trip._$days, into: &_days)
            try row.read(Trip._$note, into: &_note)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            row.write(_duration, Trip._$duration)
            row.write(_days, Trip._$days)
            row.write(_note, Trip._$note)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$name, \Trip.name),
                .attribute(Trip._$duration, \Trip.duration),
                .attribute(Trip._$days, \Trip.days),
                .attribute(Trip._$note, \Trip.note),
                .toMany(Trip._$accommodations, \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Accommodation: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$trip = RelationshipIndex(0, "trip")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Accommodation._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Accommodation._$name, \.name, oldValue) } }
        var trip: Trip? { get { _$toOne(Accommodation._$trip, \.trip) } set { _$setToOne(newValue, Accommodation._$trip) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Accommodation._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Accommodation._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Accommodation._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Accommodation", base: nil, subclasses: [],
            properties: [
                .attribute(Accommodation._$name, \Accommodation.name),
                .toOne(Accommodation._$trip, \Accommodation.trip, deleteRule: .nullify, inverse: "accommodations"),
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

    final class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$duration = AttributeIndex(1, "duration")
        private static let _$days = AttributeIndex(2, "days")
        private static let _$note = AttributeIndex(3, "note")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        private var _duration: Int
        private var _days: Int32
        private var _note: String?
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var duration: Int { get { _duration } set { _$willSet(Trip._$duration, \.duration); let oldValue = _duration; _duration = newValue; _$didSet(Trip._$duration, \.duration, oldValue) } }
        var days: Int32 { get { _days } set { _$willSet(Trip._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Trip._$days, \.days, oldValue) } }
        var note: String? { get { _note } set { _$willSet(Trip._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Trip._$note, \.note, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(name: String, duration: Int, days: Int32, note: String? = nil) {
            _name = name
            _duration = duration
            _days = days
            _note = note
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            _duration = try row.read(Trip._$duration)
            _days = try row.read(Trip._$days)
            _note = try row.read(Trip._$note)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try row.read(Trip._$duration, into: &_duration)
            try row.read(Trip._$days, into: &_days)
            try row.read(Trip._$note, into: &_note)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            row.write(_duration, Trip._$duration)
            row.write(_days, Trip._$days)
            row.write(_note, Trip._$note)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$name, \Trip.name),
                .attribute(Trip._$duration, \Trip.duration),
                .attribute(Trip._$days, \Trip.days),
                .attribute(Trip._$note, \Trip.note),
                .toMany(Trip._$accommodations, \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Accommodation: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$trip = RelationshipIndex(0, "trip")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Accommodation._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Accommodation._$name, \.name, oldValue) } }
        var trip: Trip? { get { _$toOne(Accommodation._$trip, \.trip) } set { _$setToOne(newValue, Accommodation._$trip) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Accommodation._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Accommodation._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Accommodation._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Accommodation", base: nil, subclasses: [],
            properties: [
                .attribute(Accommodation._$name, \Accommodation.name),
                .toOne(Accommodation._$trip, \Accommodation.trip, deleteRule: .nullify, inverse: "accommodations"),
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

    final class Trip: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$duration = AttributeIndex(1, "duration")
        private static let _$days = AttributeIndex(2, "days")
        private static let _$note = AttributeIndex(3, "note")
        private static let _$rating = AttributeIndex(4, "rating")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        private var _duration: Int
        private var _days: Int
        private var _note: String
        private var _rating: Int
        var title: String { get { _title } set { _$willSet(Trip._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Trip._$title, \.title, oldValue) } }
        var duration: Int { get { _duration } set { _$willSet(Trip._$duration, \.duration); let oldValue = _duration; _duration = newValue; _$didSet(Trip._$duration, \.duration, oldValue) } }
        var days: Int { get { _days } set { _$willSet(Trip._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Trip._$days, \.days, oldValue) } }
        var note: String { get { _note } set { _$willSet(Trip._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Trip._$note, \.note, oldValue) } }
        var rating: Int { get { _rating } set { _$willSet(Trip._$rating, \.rating); let oldValue = _rating; _rating = newValue; _$didSet(Trip._$rating, \.rating, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(title: String, duration: Int, days: Int, note: String = "-", rating: Int = 3) {
            _title = title
            _duration = duration
            _days = days
            _note = note
            _rating = rating
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Trip._$title)
            _duration = try row.read(Trip._$duration)
            _days = try row.read(Trip._$days)
            _note = try row.read(Trip._$note)
            _rating = try row.read(Trip._$rating)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$title, into: &_title)
            try row.read(Trip._$duration, into: &_duration)
            try row.read(Trip._$days, into: &_days)
            try row.read(Trip._$note, into: &_note)
            try row.read(Trip._$rating, into: &_rating)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Trip._$title)
            row.write(_duration, Trip._$duration)
            row.write(_days, Trip._$days)
            row.write(_note, Trip._$note)
            row.write(_rating, Trip._$rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$title, \Trip.title, originalName: "name"),
                .attribute(Trip._$duration, \Trip.duration),
                .attribute(Trip._$days, \Trip.days),
                .attribute(Trip._$note, \Trip.note, defaultValue: "-"),
                .attribute(Trip._$rating, \Trip.rating, defaultValue: 3),
                .toMany(Trip._$accommodations, \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Accommodation: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$trip = RelationshipIndex(0, "trip")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Accommodation._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Accommodation._$name, \.name, oldValue) } }
        var trip: Trip? { get { _$toOne(Accommodation._$trip, \.trip) } set { _$setToOne(newValue, Accommodation._$trip) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Accommodation._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Accommodation._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Accommodation._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Accommodation", base: nil, subclasses: [],
            properties: [
                .attribute(Accommodation._$name, \Accommodation.name),
                .toOne(Accommodation._$trip, \Accommodation.trip, deleteRule: .nullify, inverse: "accommodations"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}
