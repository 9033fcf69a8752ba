import Foundation
@_spi(ModelStoreGenerated) import ModelStore

// The worked example of docs/Migrations.md, as the generator will emit it (trimmed: no observation
// registrar): each version's classes nested in its `VersionedSchema`. 1.0.0 stores a trip's
// duration as text ("90 min"); 2.0.0 as minutes (an Int: a custom stage converts it); 3.0.0
// renames `name` to `title` (lightweight).

/// Version 1.0.0: the duration is text.
enum SchemaV1_0_0: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$duration = AttributeIndex(1, "duration")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        private var _duration: String
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var duration: String { get { _duration } set { _$willSet(Trip._$duration, \.duration); let oldValue = _duration; _duration = newValue; _$didSet(Trip._$duration, \.duration, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(name: String, duration: String) {
            _name = name
            _duration = duration
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            _duration = try row.read(Trip._$duration)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try row.read(Trip._$duration, into: &_duration)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            row.write(_duration, Trip._$duration)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$name, \Trip.name),
                .attribute(Trip._$duration, \Trip.duration),
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

/// Version 2.0.0: the duration is a number of minutes.
enum SchemaV2_0_0: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$duration = AttributeIndex(1, "duration")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        private var _duration: Int
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var duration: Int { get { _duration } set { _$willSet(Trip._$duration, \.duration); let oldValue = _duration; _duration = newValue; _$didSet(Trip._$duration, \.duration, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(name: String, duration: Int) {
            _name = name
            _duration = duration
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            _duration = try row.read(Trip._$duration)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try row.read(Trip._$duration, into: &_duration)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            row.write(_duration, Trip._$duration)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$name, \Trip.name),
                .attribute(Trip._$duration, \Trip.duration),
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

/// Version 3.0.0: `name` renamed `title`.
enum SchemaV3_0_0: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$duration = AttributeIndex(1, "duration")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        private var _duration: Int
        var title: String { get { _title } set { _$willSet(Trip._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Trip._$title, \.title, oldValue) } }
        var duration: Int { get { _duration } set { _$willSet(Trip._$duration, \.duration); let oldValue = _duration; _duration = newValue; _$didSet(Trip._$duration, \.duration, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(title: String, duration: Int) {
            _title = title
            _duration = duration
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Trip._$title)
            _duration = try row.read(Trip._$duration)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$title, into: &_title)
            try row.read(Trip._$duration, into: &_duration)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Trip._$title)
            row.write(_duration, Trip._$duration)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$title, \Trip.title, originalName: "name"),
                .attribute(Trip._$duration, \Trip.duration),
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
