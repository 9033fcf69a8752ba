import Foundation
import ModelStore

// The worked example of docs/Migrations.md, as the generator will emit it (trimmed: no observation
// registrar): each version's classes nested in its `VersionedSchema`. 1.0.0 stores a trip's
// duration as text ("90 min"); 2.0.0 as minutes (an Int: a custom stage converts it); 3.0.0
// renames `name` to `title` (lightweight).

/// Version 1.0.0: the duration is text.
enum SchemaV1_0_0: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject {
        private var _name: String
        private var _duration: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var duration: String { get { _duration } set { _$willChange(); _duration = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(name: String, duration: String) {
            _name = name
            _duration = duration
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_duration)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Trip.name),
                .attribute("duration", \Trip.duration),
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

/// Version 2.0.0: the duration is a number of minutes.
enum SchemaV2_0_0: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject {
        private var _name: String
        private var _duration: Int
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var duration: Int { get { _duration } set { _$willChange(); _duration = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(name: String, duration: Int) {
            _name = name
            _duration = duration
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _duration = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_duration)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Trip.name),
                .attribute("duration", \Trip.duration),
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

/// Version 3.0.0: `name` renamed `title`.
enum SchemaV3_0_0: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Accommodation.self] }

    final class Trip: ModelObject {
        private var _title: String
        private var _duration: Int
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var duration: Int { get { _duration } set { _$willChange(); _duration = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(title: String, duration: Int) {
            _title = title
            _duration = duration
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            _duration = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            _duration = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            row.write(_duration)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Trip.title, originalName: "name"),
                .attribute("duration", \Trip.duration),
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
