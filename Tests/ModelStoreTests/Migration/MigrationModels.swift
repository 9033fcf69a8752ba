import Foundation
import ModelStore

// Successive versions of small models, one store file per test, written in the shape of generated
// code (trimmed: no observation registrar) and nested in caseless enums so that each version keeps
// its own classes while entity names stay the same ("Trip" in EntitiesV1 and EntitiesV2).

/// Entities and subclasses, before: PersonalTrip and Note are removed in EntitiesV2.
enum EntitiesV1 {
    class Trip: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
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
            name: "Trip", base: nil, subclasses: [BusinessTrip.self, PersonalTrip.self],
            properties: [
                .attribute("name", \Trip.name),
                .toMany("accommodations", \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class BusinessTrip: Trip {
        private var _company: String
        var company: String { get { _company } set { _$willChange(); _company = newValue } }
        init(name: String, company: String) {
            _company = company
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _company = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _company = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_company)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "BusinessTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute("company", \BusinessTrip.company),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \BusinessTrip.name)]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class PersonalTrip: Trip {
        private var _reason: String
        var reason: String { get { _reason } set { _$willChange(); _reason = newValue } }
        init(name: String, reason: String) {
            _reason = reason
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _reason = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _reason = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_reason)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "PersonalTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute("reason", \PersonalTrip.reason),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \PersonalTrip.name)]
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

    final class Note: ModelObject {
        private var _text: String
        var text: String { get { _text } set { _$willChange(); _text = newValue } }
        init(text: String) {
            _text = text
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _text = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _text = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_text)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Note", base: nil, subclasses: [],
            properties: [
                .attribute("text", \Note.text),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Entities and subclasses, after: TeamTrip (a required property without default) and Tag added.
enum EntitiesV2 {
    class Trip: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var accommodations: [Accommodation] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
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
            name: "Trip", base: nil, subclasses: [BusinessTrip.self, TeamTrip.self],
            properties: [
                .attribute("name", \Trip.name),
                .toMany("accommodations", \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class BusinessTrip: Trip {
        private var _company: String
        var company: String { get { _company } set { _$willChange(); _company = newValue } }
        init(name: String, company: String) {
            _company = company
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _company = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _company = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_company)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "BusinessTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute("company", \BusinessTrip.company),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \BusinessTrip.name)]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class TeamTrip: Trip {
        private var _teamSize: Int
        var teamSize: Int { get { _teamSize } set { _$willChange(); _teamSize = newValue } }
        init(name: String, teamSize: Int) {
            _teamSize = teamSize
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _teamSize = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _teamSize = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_teamSize)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "TeamTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute("teamSize", \TeamTrip.teamSize),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \TeamTrip.name)]
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

    final class Tag: ModelObject {
        private var _label: String
        var label: String { get { _label } set { _$willChange(); _label = newValue } }
        init(label: String) {
            _label = label
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _label = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _label = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_label)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Tag", base: nil, subclasses: [],
            properties: [
                .attribute("label", \Tag.label),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Attributes, before.
enum AttributesV1 {
    final class Item: ModelObject {
        private var _name: String
        private var _count: Int32
        private var _small: Int8
        private var _level: UInt8
        private var _ratio: Float
        private var _note: String?
        private var _legacy: String
        private var _code: String
        private var _scores: [Int32]
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var count: Int32 { get { _count } set { _$willChange(); _count = newValue } }
        var small: Int8 { get { _small } set { _$willChange(); _small = newValue } }
        var level: UInt8 { get { _level } set { _$willChange(); _level = newValue } }
        var ratio: Float { get { _ratio } set { _$willChange(); _ratio = newValue } }
        var note: String? { get { _note } set { _$willChange(); _note = newValue } }
        var legacy: String { get { _legacy } set { _$willChange(); _legacy = newValue } }
        var code: String { get { _code } set { _$willChange(); _code = newValue } }
        var scores: [Int32] { get { _scores } set { _$willChange(); _scores = newValue } }
        init(name: String, count: Int32, small: Int8, level: UInt8, ratio: Float, note: String? = nil, legacy: String, code: String, scores: [Int32] = []) {
            _name = name
            _count = count
            _small = small
            _level = level
            _ratio = ratio
            _note = note
            _legacy = legacy
            _code = code
            _scores = scores
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _count = try row.read()
            _small = try row.read()
            _level = try row.read()
            _ratio = try row.read()
            _note = try row.read()
            _legacy = try row.read()
            _code = try row.read()
            _scores = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _count = try row.read()
            _small = try row.read()
            _level = try row.read()
            _ratio = try row.read()
            _note = try row.read()
            _legacy = try row.read()
            _code = try row.read()
            _scores = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_count)
            row.write(_small)
            row.write(_level)
            row.write(_ratio)
            row.write(_note)
            row.write(_legacy)
            row.write(_code)
            row.write(_scores)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Item", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Item.name),
                .attribute("count", \Item.count),
                .attribute("small", \Item.small),
                .attribute("level", \Item.level),
                .attribute("ratio", \Item.ratio),
                .attribute("note", \Item.note),
                .attribute("legacy", \Item.legacy),
                .attribute("code", \Item.code),
                .attribute("scores", \Item.scores),
            ],
            uniqueConstraints: [], indexes: [["name"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Attributes, after: widened integers and float, optional → required with a default, required → optional, added and removed properties.
enum AttributesV2 {
    final class Item: ModelObject {
        private var _name: String
        private var _count: Int
        private var _small: Int16
        private var _level: Int64
        private var _ratio: Double
        private var _note: String
        private var _code: String?
        private var _scores: [Int]
        private var _added: Int
        private var _extra: String?
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var count: Int { get { _count } set { _$willChange(); _count = newValue } }
        var small: Int16 { get { _small } set { _$willChange(); _small = newValue } }
        var level: Int64 { get { _level } set { _$willChange(); _level = newValue } }
        var ratio: Double { get { _ratio } set { _$willChange(); _ratio = newValue } }
        var note: String { get { _note } set { _$willChange(); _note = newValue } }
        var code: String? { get { _code } set { _$willChange(); _code = newValue } }
        var scores: [Int] { get { _scores } set { _$willChange(); _scores = newValue } }
        var added: Int { get { _added } set { _$willChange(); _added = newValue } }
        var extra: String? { get { _extra } set { _$willChange(); _extra = newValue } }
        init(name: String, count: Int, small: Int16, level: Int64, ratio: Double, note: String = "none", code: String? = nil, scores: [Int] = [], added: Int = 7, extra: String? = nil) {
            _name = name
            _count = count
            _small = small
            _level = level
            _ratio = ratio
            _note = note
            _code = code
            _scores = scores
            _added = added
            _extra = extra
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _count = try row.read()
            _small = try row.read()
            _level = try row.read()
            _ratio = try row.read()
            _note = try row.read()
            _code = try row.read()
            _scores = try row.read()
            _added = try row.read()
            _extra = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _count = try row.read()
            _small = try row.read()
            _level = try row.read()
            _ratio = try row.read()
            _note = try row.read()
            _code = try row.read()
            _scores = try row.read()
            _added = try row.read()
            _extra = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_count)
            row.write(_small)
            row.write(_level)
            row.write(_ratio)
            row.write(_note)
            row.write(_code)
            row.write(_scores)
            row.write(_added)
            row.write(_extra)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Item", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Item.name),
                .attribute("count", \Item.count),
                .attribute("small", \Item.small),
                .attribute("level", \Item.level),
                .attribute("ratio", \Item.ratio),
                .attribute("note", \Item.note, defaultValue: "none"),
                .attribute("code", \Item.code),
                .attribute("scores", \Item.scores),
                .attribute("added", \Item.added, defaultValue: 7),
                .attribute("extra", \Item.extra),
            ],
            uniqueConstraints: [], indexes: [["name"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Attributes that cannot be inferred from AttributesV1: a type change, a narrowing, a new required property without default.
enum AttributesV3 {
    final class Item: ModelObject {
        private var _name: Int
        private var _count: Int8
        private var _small: Int8
        private var _level: UInt8
        private var _ratio: Float
        private var _note: String?
        private var _legacy: String
        private var _code: String
        private var _scores: [Int32]
        private var _rating: Int
        var name: Int { get { _name } set { _$willChange(); _name = newValue } }
        var count: Int8 { get { _count } set { _$willChange(); _count = newValue } }
        var small: Int8 { get { _small } set { _$willChange(); _small = newValue } }
        var level: UInt8 { get { _level } set { _$willChange(); _level = newValue } }
        var ratio: Float { get { _ratio } set { _$willChange(); _ratio = newValue } }
        var note: String? { get { _note } set { _$willChange(); _note = newValue } }
        var legacy: String { get { _legacy } set { _$willChange(); _legacy = newValue } }
        var code: String { get { _code } set { _$willChange(); _code = newValue } }
        var scores: [Int32] { get { _scores } set { _$willChange(); _scores = newValue } }
        var rating: Int { get { _rating } set { _$willChange(); _rating = newValue } }
        init(name: Int, count: Int8, small: Int8, level: UInt8, ratio: Float, note: String? = nil, legacy: String, code: String, scores: [Int32] = [], rating: Int) {
            _name = name
            _count = count
            _small = small
            _level = level
            _ratio = ratio
            _note = note
            _legacy = legacy
            _code = code
            _scores = scores
            _rating = rating
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _count = try row.read()
            _small = try row.read()
            _level = try row.read()
            _ratio = try row.read()
            _note = try row.read()
            _legacy = try row.read()
            _code = try row.read()
            _scores = try row.read()
            _rating = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _count = try row.read()
            _small = try row.read()
            _level = try row.read()
            _ratio = try row.read()
            _note = try row.read()
            _legacy = try row.read()
            _code = try row.read()
            _scores = try row.read()
            _rating = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_count)
            row.write(_small)
            row.write(_level)
            row.write(_ratio)
            row.write(_note)
            row.write(_legacy)
            row.write(_code)
            row.write(_scores)
            row.write(_rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Item", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Item.name),
                .attribute("count", \Item.count),
                .attribute("small", \Item.small),
                .attribute("level", \Item.level),
                .attribute("ratio", \Item.ratio),
                .attribute("note", \Item.note),
                .attribute("legacy", \Item.legacy),
                .attribute("code", \Item.code),
                .attribute("scores", \Item.scores),
                .attribute("rating", \Item.rating),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Renames, before: Voyage, its subclass Cruise, Cabin, Port.
enum RenamesV1 {
    class Voyage: ModelObject {
        private var _title: String
        private var _days: Int
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var days: Int { get { _days } set { _$willChange(); _days = newValue } }
        var cabins: [Cabin] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        var ports: [Port] { get { _$toMany(1) } set { _$setToMany(newValue, 1) } }
        init(title: String, days: Int) {
            _title = title
            _days = days
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            _days = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            _days = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            row.write(_days)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Voyage", base: nil, subclasses: [Cruise.self],
            properties: [
                .attribute("title", \Voyage.title, .preserveValueOnDeletion),
                .attribute("days", \Voyage.days),
                .toMany("cabins", \Voyage.cabins, deleteRule: .cascade, inverse: "voyage"),
                .toMany("ports", \Voyage.ports, deleteRule: .nullify, inverse: "voyages"),
            ],
            uniqueConstraints: [], indexes: [["title"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Cruise: Voyage {
        private var _ship: String
        var ship: String { get { _ship } set { _$willChange(); _ship = newValue } }
        init(title: String, days: Int, ship: String) {
            _ship = ship
            super.init(title: title, days: days)
        }
        required init(from row: RowDecoder) throws {
            _ship = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _ship = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_ship)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Cruise", base: Voyage.self, subclasses: [],
            properties: [
                .attribute("ship", \Cruise.ship),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("title", \Cruise.title), .init("days", \Cruise.days)]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Cabin: ModelObject {
        private var _number: Int
        var number: Int { get { _number } set { _$willChange(); _number = newValue } }
        var voyage: Voyage? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(number: Int) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _number = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Cabin", base: nil, subclasses: [],
            properties: [
                .attribute("number", \Cabin.number),
                .toOne("voyage", \Cabin.voyage, deleteRule: .nullify, inverse: "cabins"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Port: ModelObject {
        private var _city: String
        var city: String { get { _city } set { _$willChange(); _city = newValue } }
        var voyages: [Voyage] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(city: String) {
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _city = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _city = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Port", base: nil, subclasses: [],
            properties: [
                .attribute("city", \Port.city),
                .toMany("voyages", \Port.voyages, deleteRule: .nullify, inverse: "ports"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Renames, after: every entity, attribute and relationship of RenamesV1 renamed with `originalName`.
enum RenamesV2 {
    class Trip: ModelObject {
        private var _name: String
        private var _days: Int
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var days: Int { get { _days } set { _$willChange(); _days = newValue } }
        var cabins: [Cabin] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        var harbors: [Wharf] { get { _$toMany(1) } set { _$setToMany(newValue, 1) } }
        init(name: String, days: Int) {
            _name = name
            _days = days
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _days = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _days = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_days)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [CruiseTrip.self],
            properties: [
                .attribute("name", \Trip.name, .preserveValueOnDeletion, originalName: "title"),
                .attribute("days", \Trip.days),
                .toMany("cabins", \Trip.cabins, deleteRule: .cascade, inverse: "trip"),
                .toMany("harbors", \Trip.harbors, deleteRule: .nullify, inverse: "visits", originalName: "ports"),
            ],
            uniqueConstraints: [], indexes: [["name"]], originalName: "Voyage"
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class CruiseTrip: Trip {
        private var _shipName: String
        var shipName: String { get { _shipName } set { _$willChange(); _shipName = newValue } }
        init(name: String, days: Int, shipName: String) {
            _shipName = shipName
            super.init(name: name, days: days)
        }
        required init(from row: RowDecoder) throws {
            _shipName = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _shipName = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_shipName)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "CruiseTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute("shipName", \CruiseTrip.shipName, originalName: "ship"),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \CruiseTrip.name), .init("days", \CruiseTrip.days)], originalName: "Cruise"
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Cabin: ModelObject {
        private var _number: Int
        var number: Int { get { _number } set { _$willChange(); _number = newValue } }
        var trip: Trip? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(number: Int) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _number = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Cabin", base: nil, subclasses: [],
            properties: [
                .attribute("number", \Cabin.number),
                .toOne("trip", \Cabin.trip, deleteRule: .nullify, inverse: "cabins", originalName: "voyage"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Wharf: ModelObject {
        private var _city: String
        var city: String { get { _city } set { _$willChange(); _city = newValue } }
        var visits: [Trip] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(city: String) {
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _city = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _city = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Wharf", base: nil, subclasses: [],
            properties: [
                .attribute("city", \Wharf.city),
                .toMany("visits", \Wharf.visits, deleteRule: .nullify, inverse: "harbors", originalName: "voyages"),
            ],
            uniqueConstraints: [], indexes: [], originalName: "Port"
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Constraints, before: no unique email, an index on city, pets nullified.
enum ConstraintsV1 {
    final class Person: ModelObject {
        private var _email: String
        private var _city: String
        var email: String { get { _email } set { _$willChange(); _email = newValue } }
        var city: String { get { _city } set { _$willChange(); _city = newValue } }
        var pets: [Pet] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(email: String, city: String) {
            _email = email
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _email = try row.read()
            _city = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _email = try row.read()
            _city = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_email)
            row.write(_city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute("email", \Person.email),
                .attribute("city", \Person.city),
                .toMany("pets", \Person.pets, deleteRule: .nullify, inverse: "owner"),
            ],
            uniqueConstraints: [], indexes: [["city"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Pet: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var owner: Person? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
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
            name: "Pet", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Pet.name),
                .toOne("owner", \Pet.owner, deleteRule: .nullify, inverse: "pets"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Constraints: email unique, another index, pets cascade.
enum ConstraintsV2 {
    final class Person: ModelObject {
        private var _email: String
        private var _city: String
        var email: String { get { _email } set { _$willChange(); _email = newValue } }
        var city: String { get { _city } set { _$willChange(); _city = newValue } }
        var pets: [Pet] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(email: String, city: String) {
            _email = email
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _email = try row.read()
            _city = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _email = try row.read()
            _city = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_email)
            row.write(_city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute("email", \Person.email, .unique),
                .attribute("city", \Person.city),
                .toMany("pets", \Person.pets, deleteRule: .cascade, inverse: "owner"),
            ],
            uniqueConstraints: [], indexes: [["email", "city"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Pet: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var owner: Person? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
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
            name: "Pet", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Pet.name),
                .toOne("owner", \Pet.owner, deleteRule: .nullify, inverse: "pets"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Constraints: pets .noAction (their owner key loses its foreign key), a #Unique group.
enum ConstraintsV3 {
    final class Person: ModelObject {
        private var _email: String
        private var _city: String
        var email: String { get { _email } set { _$willChange(); _email = newValue } }
        var city: String { get { _city } set { _$willChange(); _city = newValue } }
        var pets: [Pet] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(email: String, city: String) {
            _email = email
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _email = try row.read()
            _city = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _email = try row.read()
            _city = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_email)
            row.write(_city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute("email", \Person.email),
                .attribute("city", \Person.city),
                .toMany("pets", \Person.pets, deleteRule: .noAction, inverse: "owner"),
            ],
            uniqueConstraints: [["email", "city"]], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Pet: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var owner: Person? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
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
            name: "Pet", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Pet.name),
                .toOne("owner", \Pet.owner, deleteRule: .nullify, inverse: "pets"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// To-one relationships, before.
enum ToManyV1 {
    final class Author: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var books: [Book] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
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
            name: "Author", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Author.name),
                .toMany("books", \Author.books, deleteRule: .nullify, inverse: "author"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Book: ModelObject {
        private var _title: String
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var author: Author? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Book", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Book.title),
                .toOne("author", \Book.author, deleteRule: .nullify, inverse: "books"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Person: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var passport: Passport? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
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
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Person.name),
                .toOne("passport", \Person.passport, deleteRule: .nullify, inverse: "holder"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Passport: ModelObject {
        private var _number: String
        var number: String { get { _number } set { _$willChange(); _number = newValue } }
        var holder: Person? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(number: String) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _number = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Passport", base: nil, subclasses: [],
            properties: [
                .attribute("number", \Passport.number),
                .toOne("holder", \Passport.holder, deleteRule: .nullify, inverse: "passport"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Song: ModelObject {
        private var _title: String
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var related: Song? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Song", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Song.title),
                .toOne("related", \Song.related, deleteRule: .nullify),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// To-one relationships become to-many: one-to-many → many-to-many, one-to-one → one-to-many, to-one without inverse → to-many.
enum ToManyV2 {
    final class Author: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var books: [Book] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
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
            name: "Author", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Author.name),
                .toMany("books", \Author.books, deleteRule: .nullify, inverse: "authors"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Book: ModelObject {
        private var _title: String
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var authors: [Author] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Book", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Book.title),
                .toMany("authors", \Book.authors, deleteRule: .nullify, inverse: "books", originalName: "author"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Person: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var passports: [Passport] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
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
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Person.name),
                .toMany("passports", \Person.passports, deleteRule: .nullify, inverse: "holder", originalName: "passport"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Passport: ModelObject {
        private var _number: String
        var number: String { get { _number } set { _$willChange(); _number = newValue } }
        var holder: Person? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(number: String) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _number = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Passport", base: nil, subclasses: [],
            properties: [
                .attribute("number", \Passport.number),
                .toOne("holder", \Passport.holder, deleteRule: .nullify, inverse: "passports"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Song: ModelObject {
        private var _title: String
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var related: [Song] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Song", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Song.title),
                .toMany("related", \Song.related, deleteRule: .nullify),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// A to-many relationship of ToManyV2 becomes to-one: cannot be inferred.
enum ToManyV3 {
    final class Author: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var books: [Book] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
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
            name: "Author", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Author.name),
                .toMany("books", \Author.books, deleteRule: .nullify, inverse: "authors"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Book: ModelObject {
        private var _title: String
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var authors: [Author] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Book", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Book.title),
                .toMany("authors", \Book.authors, deleteRule: .nullify, inverse: "books"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Person: ModelObject {
        private var _name: String
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var passports: Passport? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
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
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Person.name),
                .toOne("passports", \Person.passports, deleteRule: .nullify, inverse: "holder"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Passport: ModelObject {
        private var _number: String
        var number: String { get { _number } set { _$willChange(); _number = newValue } }
        var holder: Person? { get { _$toOne(0) } set { _$setToOne(newValue, 0) } }
        init(number: String) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _number = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Passport", base: nil, subclasses: [],
            properties: [
                .attribute("number", \Passport.number),
                .toOne("holder", \Passport.holder, deleteRule: .nullify, inverse: "passports"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Song: ModelObject {
        private var _title: String
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var related: [Song] { get { _$toMany(0) } set { _$setToMany(newValue, 0) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Song", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Song.title),
                .toMany("related", \Song.related, deleteRule: .nullify),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}
