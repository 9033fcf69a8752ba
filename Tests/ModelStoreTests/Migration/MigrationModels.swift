import Foundation
@_spi(ModelStoreGenerated) import ModelStore

// Successive versions of small models, one store file per test, written in the shape of generated
// code (trimmed: no observation registrar) and nested in caseless enums so that each version keeps
// its own classes while entity names stay the same ("Trip" in EntitiesV1 and EntitiesV2).

/// Entities and subclasses, before: PersonalTrip and Note are removed in EntitiesV2.
enum EntitiesV1 {
    class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [BusinessTrip.self, PersonalTrip.self],
            properties: [
                .attribute(Trip._$name, \Trip.name),
                .toMany(Trip._$accommodations, \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class BusinessTrip: Trip {
        private static let _$company = AttributeIndex(1, "company")
        private var _company: String
        var company: String { get { _company } set { _$willSet(BusinessTrip._$company, \.company); let oldValue = _company; _company = newValue; _$didSet(BusinessTrip._$company, \.company, oldValue) } }
        init(name: String, company: String) {
            _company = company
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _company = try row.read(BusinessTrip._$company)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(BusinessTrip._$company, into: &_company)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_company, BusinessTrip._$company)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "BusinessTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute(BusinessTrip._$company, \BusinessTrip.company),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \BusinessTrip.name)]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class PersonalTrip: Trip {
        private static let _$reason = AttributeIndex(1, "reason")
        private var _reason: String
        var reason: String { get { _reason } set { _$willSet(PersonalTrip._$reason, \.reason); let oldValue = _reason; _reason = newValue; _$didSet(PersonalTrip._$reason, \.reason, oldValue) } }
        init(name: String, reason: String) {
            _reason = reason
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _reason = try row.read(PersonalTrip._$reason)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(PersonalTrip._$reason, into: &_reason)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_reason, PersonalTrip._$reason)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "PersonalTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute(PersonalTrip._$reason, \PersonalTrip.reason),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \PersonalTrip.name)]
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

    final class Note: ModelObject, PersistentModel {
        private static let _$text = AttributeIndex(0, "text")
        var id: PersistentIdentifier { persistentModelID }
        private var _text: String
        var text: String { get { _text } set { _$willSet(Note._$text, \.text); let oldValue = _text; _text = newValue; _$didSet(Note._$text, \.text, oldValue) } }
        init(text: String) {
            _text = text
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _text = try row.read(Note._$text)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Note._$text, into: &_text)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_text, Note._$text)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Note", base: nil, subclasses: [],
            properties: [
                .attribute(Note._$text, \Note.text),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Entities and subclasses, after: TeamTrip (a required property without default) and Tag added.
enum EntitiesV2 {
    class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$accommodations = RelationshipIndex(0, "accommodations")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var accommodations: [Accommodation] { get { _$toMany(Trip._$accommodations, \.accommodations) } set { _$setToMany(newValue, Trip._$accommodations) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [BusinessTrip.self, TeamTrip.self],
            properties: [
                .attribute(Trip._$name, \Trip.name),
                .toMany(Trip._$accommodations, \Trip.accommodations, deleteRule: .cascade, inverse: "trip"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class BusinessTrip: Trip {
        private static let _$company = AttributeIndex(1, "company")
        private var _company: String
        var company: String { get { _company } set { _$willSet(BusinessTrip._$company, \.company); let oldValue = _company; _company = newValue; _$didSet(BusinessTrip._$company, \.company, oldValue) } }
        init(name: String, company: String) {
            _company = company
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _company = try row.read(BusinessTrip._$company)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(BusinessTrip._$company, into: &_company)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_company, BusinessTrip._$company)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "BusinessTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute(BusinessTrip._$company, \BusinessTrip.company),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \BusinessTrip.name)]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class TeamTrip: Trip {
        private static let _$teamSize = AttributeIndex(1, "teamSize")
        private var _teamSize: Int
        var teamSize: Int { get { _teamSize } set { _$willSet(TeamTrip._$teamSize, \.teamSize); let oldValue = _teamSize; _teamSize = newValue; _$didSet(TeamTrip._$teamSize, \.teamSize, oldValue) } }
        init(name: String, teamSize: Int) {
            _teamSize = teamSize
            super.init(name: name)
        }
        required init(from row: RowDecoder) throws {
            _teamSize = try row.read(TeamTrip._$teamSize)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(TeamTrip._$teamSize, into: &_teamSize)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_teamSize, TeamTrip._$teamSize)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "TeamTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute(TeamTrip._$teamSize, \TeamTrip.teamSize),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \TeamTrip.name)]
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

    final class Tag: ModelObject, PersistentModel {
        private static let _$label = AttributeIndex(0, "label")
        var id: PersistentIdentifier { persistentModelID }
        private var _label: String
        var label: String { get { _label } set { _$willSet(Tag._$label, \.label); let oldValue = _label; _label = newValue; _$didSet(Tag._$label, \.label, oldValue) } }
        init(label: String) {
            _label = label
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _label = try row.read(Tag._$label)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Tag._$label, into: &_label)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_label, Tag._$label)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Tag", base: nil, subclasses: [],
            properties: [
                .attribute(Tag._$label, \Tag.label),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Attributes, before.
enum AttributesV1 {
    final class Item: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$count = AttributeIndex(1, "count")
        private static let _$small = AttributeIndex(2, "small")
        private static let _$level = AttributeIndex(3, "level")
        private static let _$ratio = AttributeIndex(4, "ratio")
        private static let _$note = AttributeIndex(5, "note")
        private static let _$legacy = AttributeIndex(6, "legacy")
        private static let _$code = AttributeIndex(7, "code")
        private static let _$scores = AttributeIndex(8, "scores")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        private var _count: Int32
        private var _small: Int8
        private var _level: UInt8
        private var _ratio: Float
        private var _note: String?
        private var _legacy: String
        private var _code: String
        private var _scores: [Int32]
        var name: String { get { _name } set { _$willSet(Item._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Item._$name, \.name, oldValue) } }
        var count: Int32 { get { _count } set { _$willSet(Item._$count, \.count); let oldValue = _count; _count = newValue; _$didSet(Item._$count, \.count, oldValue) } }
        var small: Int8 { get { _small } set { _$willSet(Item._$small, \.small); let oldValue = _small; _small = newValue; _$didSet(Item._$small, \.small, oldValue) } }
        var level: UInt8 { get { _level } set { _$willSet(Item._$level, \.level); let oldValue = _level; _level = newValue; _$didSet(Item._$level, \.level, oldValue) } }
        var ratio: Float { get { _ratio } set { _$willSet(Item._$ratio, \.ratio); let oldValue = _ratio; _ratio = newValue; _$didSet(Item._$ratio, \.ratio, oldValue) } }
        var note: String? { get { _note } set { _$willSet(Item._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Item._$note, \.note, oldValue) } }
        var legacy: String { get { _legacy } set { _$willSet(Item._$legacy, \.legacy); let oldValue = _legacy; _legacy = newValue; _$didSet(Item._$legacy, \.legacy, oldValue) } }
        var code: String { get { _code } set { _$willSet(Item._$code, \.code); let oldValue = _code; _code = newValue; _$didSet(Item._$code, \.code, oldValue) } }
        var scores: [Int32] { get { _scores } set { _$willSet(Item._$scores, \.scores); let oldValue = _scores; _scores = newValue; _$didSet(Item._$scores, \.scores, oldValue) } }
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
            _name = try row.read(Item._$name)
            _count = try row.read(Item._$count)
            _small = try row.read(Item._$small)
            _level = try row.read(Item._$level)
            _ratio = try row.read(Item._$ratio)
            _note = try row.read(Item._$note)
            _legacy = try row.read(Item._$legacy)
            _code = try row.read(Item._$code)
            _scores = try row.read(Item._$scores)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Item._$name, into: &_name)
            try row.read(Item._$count, into: &_count)
            try row.read(Item._$small, into: &_small)
            try row.read(Item._$level, into: &_level)
            try row.read(Item._$ratio, into: &_ratio)
            try row.read(Item._$note, into: &_note)
            try row.read(Item._$legacy, into: &_legacy)
            try row.read(Item._$code, into: &_code)
            try row.read(Item._$scores, into: &_scores)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Item._$name)
            row.write(_count, Item._$count)
            row.write(_small, Item._$small)
            row.write(_level, Item._$level)
            row.write(_ratio, Item._$ratio)
            row.write(_note, Item._$note)
            row.write(_legacy, Item._$legacy)
            row.write(_code, Item._$code)
            row.write(_scores, Item._$scores)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Item", base: nil, subclasses: [],
            properties: [
                .attribute(Item._$name, \Item.name),
                .attribute(Item._$count, \Item.count),
                .attribute(Item._$small, \Item.small),
                .attribute(Item._$level, \Item.level),
                .attribute(Item._$ratio, \Item.ratio),
                .attribute(Item._$note, \Item.note),
                .attribute(Item._$legacy, \Item.legacy),
                .attribute(Item._$code, \Item.code),
                .attribute(Item._$scores, \Item.scores),
            ],
            uniqueConstraints: [], indexes: [["name"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Attributes, after: widened integers and float, optional → required with a default, required → optional, added and removed properties.
enum AttributesV2 {
    final class Item: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$count = AttributeIndex(1, "count")
        private static let _$small = AttributeIndex(2, "small")
        private static let _$level = AttributeIndex(3, "level")
        private static let _$ratio = AttributeIndex(4, "ratio")
        private static let _$note = AttributeIndex(5, "note")
        private static let _$code = AttributeIndex(6, "code")
        private static let _$scores = AttributeIndex(7, "scores")
        private static let _$added = AttributeIndex(8, "added")
        private static let _$extra = AttributeIndex(9, "extra")
        var id: PersistentIdentifier { persistentModelID }
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
        var name: String { get { _name } set { _$willSet(Item._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Item._$name, \.name, oldValue) } }
        var count: Int { get { _count } set { _$willSet(Item._$count, \.count); let oldValue = _count; _count = newValue; _$didSet(Item._$count, \.count, oldValue) } }
        var small: Int16 { get { _small } set { _$willSet(Item._$small, \.small); let oldValue = _small; _small = newValue; _$didSet(Item._$small, \.small, oldValue) } }
        var level: Int64 { get { _level } set { _$willSet(Item._$level, \.level); let oldValue = _level; _level = newValue; _$didSet(Item._$level, \.level, oldValue) } }
        var ratio: Double { get { _ratio } set { _$willSet(Item._$ratio, \.ratio); let oldValue = _ratio; _ratio = newValue; _$didSet(Item._$ratio, \.ratio, oldValue) } }
        var note: String { get { _note } set { _$willSet(Item._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Item._$note, \.note, oldValue) } }
        var code: String? { get { _code } set { _$willSet(Item._$code, \.code); let oldValue = _code; _code = newValue; _$didSet(Item._$code, \.code, oldValue) } }
        var scores: [Int] { get { _scores } set { _$willSet(Item._$scores, \.scores); let oldValue = _scores; _scores = newValue; _$didSet(Item._$scores, \.scores, oldValue) } }
        var added: Int { get { _added } set { _$willSet(Item._$added, \.added); let oldValue = _added; _added = newValue; _$didSet(Item._$added, \.added, oldValue) } }
        var extra: String? { get { _extra } set { _$willSet(Item._$extra, \.extra); let oldValue = _extra; _extra = newValue; _$didSet(Item._$extra, \.extra, oldValue) } }
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
            _name = try row.read(Item._$name)
            _count = try row.read(Item._$count)
            _small = try row.read(Item._$small)
            _level = try row.read(Item._$level)
            _ratio = try row.read(Item._$ratio)
            _note = try row.read(Item._$note)
            _code = try row.read(Item._$code)
            _scores = try row.read(Item._$scores)
            _added = try row.read(Item._$added)
            _extra = try row.read(Item._$extra)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Item._$name, into: &_name)
            try row.read(Item._$count, into: &_count)
            try row.read(Item._$small, into: &_small)
            try row.read(Item._$level, into: &_level)
            try row.read(Item._$ratio, into: &_ratio)
            try row.read(Item._$note, into: &_note)
            try row.read(Item._$code, into: &_code)
            try row.read(Item._$scores, into: &_scores)
            try row.read(Item._$added, into: &_added)
            try row.read(Item._$extra, into: &_extra)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Item._$name)
            row.write(_count, Item._$count)
            row.write(_small, Item._$small)
            row.write(_level, Item._$level)
            row.write(_ratio, Item._$ratio)
            row.write(_note, Item._$note)
            row.write(_code, Item._$code)
            row.write(_scores, Item._$scores)
            row.write(_added, Item._$added)
            row.write(_extra, Item._$extra)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Item", base: nil, subclasses: [],
            properties: [
                .attribute(Item._$name, \Item.name),
                .attribute(Item._$count, \Item.count),
                .attribute(Item._$small, \Item.small),
                .attribute(Item._$level, \Item.level),
                .attribute(Item._$ratio, \Item.ratio),
                .attribute(Item._$note, \Item.note, defaultValue: "none"),
                .attribute(Item._$code, \Item.code),
                .attribute(Item._$scores, \Item.scores),
                .attribute(Item._$added, \Item.added, defaultValue: 7),
                .attribute(Item._$extra, \Item.extra),
            ],
            uniqueConstraints: [], indexes: [["name"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Attributes that cannot be inferred from AttributesV1: a type change, a narrowing, a new required property without default.
enum AttributesV3 {
    final class Item: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$count = AttributeIndex(1, "count")
        private static let _$small = AttributeIndex(2, "small")
        private static let _$level = AttributeIndex(3, "level")
        private static let _$ratio = AttributeIndex(4, "ratio")
        private static let _$note = AttributeIndex(5, "note")
        private static let _$legacy = AttributeIndex(6, "legacy")
        private static let _$code = AttributeIndex(7, "code")
        private static let _$scores = AttributeIndex(8, "scores")
        private static let _$rating = AttributeIndex(9, "rating")
        var id: PersistentIdentifier { persistentModelID }
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
        var name: Int { get { _name } set { _$willSet(Item._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Item._$name, \.name, oldValue) } }
        var count: Int8 { get { _count } set { _$willSet(Item._$count, \.count); let oldValue = _count; _count = newValue; _$didSet(Item._$count, \.count, oldValue) } }
        var small: Int8 { get { _small } set { _$willSet(Item._$small, \.small); let oldValue = _small; _small = newValue; _$didSet(Item._$small, \.small, oldValue) } }
        var level: UInt8 { get { _level } set { _$willSet(Item._$level, \.level); let oldValue = _level; _level = newValue; _$didSet(Item._$level, \.level, oldValue) } }
        var ratio: Float { get { _ratio } set { _$willSet(Item._$ratio, \.ratio); let oldValue = _ratio; _ratio = newValue; _$didSet(Item._$ratio, \.ratio, oldValue) } }
        var note: String? { get { _note } set { _$willSet(Item._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Item._$note, \.note, oldValue) } }
        var legacy: String { get { _legacy } set { _$willSet(Item._$legacy, \.legacy); let oldValue = _legacy; _legacy = newValue; _$didSet(Item._$legacy, \.legacy, oldValue) } }
        var code: String { get { _code } set { _$willSet(Item._$code, \.code); let oldValue = _code; _code = newValue; _$didSet(Item._$code, \.code, oldValue) } }
        var scores: [Int32] { get { _scores } set { _$willSet(Item._$scores, \.scores); let oldValue = _scores; _scores = newValue; _$didSet(Item._$scores, \.scores, oldValue) } }
        var rating: Int { get { _rating } set { _$willSet(Item._$rating, \.rating); let oldValue = _rating; _rating = newValue; _$didSet(Item._$rating, \.rating, oldValue) } }
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
            _name = try row.read(Item._$name)
            _count = try row.read(Item._$count)
            _small = try row.read(Item._$small)
            _level = try row.read(Item._$level)
            _ratio = try row.read(Item._$ratio)
            _note = try row.read(Item._$note)
            _legacy = try row.read(Item._$legacy)
            _code = try row.read(Item._$code)
            _scores = try row.read(Item._$scores)
            _rating = try row.read(Item._$rating)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Item._$name, into: &_name)
            try row.read(Item._$count, into: &_count)
            try row.read(Item._$small, into: &_small)
            try row.read(Item._$level, into: &_level)
            try row.read(Item._$ratio, into: &_ratio)
            try row.read(Item._$note, into: &_note)
            try row.read(Item._$legacy, into: &_legacy)
            try row.read(Item._$code, into: &_code)
            try row.read(Item._$scores, into: &_scores)
            try row.read(Item._$rating, into: &_rating)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Item._$name)
            row.write(_count, Item._$count)
            row.write(_small, Item._$small)
            row.write(_level, Item._$level)
            row.write(_ratio, Item._$ratio)
            row.write(_note, Item._$note)
            row.write(_legacy, Item._$legacy)
            row.write(_code, Item._$code)
            row.write(_scores, Item._$scores)
            row.write(_rating, Item._$rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Item", base: nil, subclasses: [],
            properties: [
                .attribute(Item._$name, \Item.name),
                .attribute(Item._$count, \Item.count),
                .attribute(Item._$small, \Item.small),
                .attribute(Item._$level, \Item.level),
                .attribute(Item._$ratio, \Item.ratio),
                .attribute(Item._$note, \Item.note),
                .attribute(Item._$legacy, \Item.legacy),
                .attribute(Item._$code, \Item.code),
                .attribute(Item._$scores, \Item.scores),
                .attribute(Item._$rating, \Item.rating),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Renames, before: Voyage, its subclass Cruise, Cabin, Port.
enum RenamesV1 {
    class Voyage: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$days = AttributeIndex(1, "days")
        private static let _$cabins = RelationshipIndex(0, "cabins")
        private static let _$ports = RelationshipIndex(1, "ports")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        private var _days: Int
        var title: String { get { _title } set { _$willSet(Voyage._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Voyage._$title, \.title, oldValue) } }
        var days: Int { get { _days } set { _$willSet(Voyage._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Voyage._$days, \.days, oldValue) } }
        var cabins: [Cabin] { get { _$toMany(Voyage._$cabins, \.cabins) } set { _$setToMany(newValue, Voyage._$cabins) } }
        var ports: [Port] { get { _$toMany(Voyage._$ports, \.ports) } set { _$setToMany(newValue, Voyage._$ports) } }
        init(title: String, days: Int) {
            _title = title
            _days = days
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Voyage._$title)
            _days = try row.read(Voyage._$days)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Voyage._$title, into: &_title)
            try row.read(Voyage._$days, into: &_days)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Voyage._$title)
            row.write(_days, Voyage._$days)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Voyage", base: nil, subclasses: [Cruise.self],
            properties: [
                .attribute(Voyage._$title, \Voyage.title, .preserveValueOnDeletion),
                .attribute(Voyage._$days, \Voyage.days),
                .toMany(Voyage._$cabins, \Voyage.cabins, deleteRule: .cascade, inverse: "voyage"),
                .toMany(Voyage._$ports, \Voyage.ports, deleteRule: .nullify, inverse: "voyages"),
            ],
            uniqueConstraints: [], indexes: [["title"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Cruise: Voyage {
        private static let _$ship = AttributeIndex(2, "ship")
        private var _ship: String
        var ship: String { get { _ship } set { _$willSet(Cruise._$ship, \.ship); let oldValue = _ship; _ship = newValue; _$didSet(Cruise._$ship, \.ship, oldValue) } }
        init(title: String, days: Int, ship: String) {
            _ship = ship
            super.init(title: title, days: days)
        }
        required init(from row: RowDecoder) throws {
            _ship = try row.read(Cruise._$ship)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Cruise._$ship, into: &_ship)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_ship, Cruise._$ship)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Cruise", base: Voyage.self, subclasses: [],
            properties: [
                .attribute(Cruise._$ship, \Cruise.ship),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("title", \Cruise.title), .init("days", \Cruise.days)]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Cabin: ModelObject, PersistentModel {
        private static let _$number = AttributeIndex(0, "number")
        private static let _$voyage = RelationshipIndex(0, "voyage")
        var id: PersistentIdentifier { persistentModelID }
        private var _number: Int
        var number: Int { get { _number } set { _$willSet(Cabin._$number, \.number); let oldValue = _number; _number = newValue; _$didSet(Cabin._$number, \.number, oldValue) } }
        var voyage: Voyage? { get { _$toOne(Cabin._$voyage, \.voyage) } set { _$setToOne(newValue, Cabin._$voyage) } }
        init(number: Int) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read(Cabin._$number)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Cabin._$number, into: &_number)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number, Cabin._$number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Cabin", base: nil, subclasses: [],
            properties: [
                .attribute(Cabin._$number, \Cabin.number),
                .toOne(Cabin._$voyage, \Cabin.voyage, deleteRule: .nullify, inverse: "cabins"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Port: ModelObject, PersistentModel {
        private static let _$city = AttributeIndex(0, "city")
        private static let _$voyages = RelationshipIndex(0, "voyages")
        var id: PersistentIdentifier { persistentModelID }
        private var _city: String
        var city: String { get { _city } set { _$willSet(Port._$city, \.city); let oldValue = _city; _city = newValue; _$didSet(Port._$city, \.city, oldValue) } }
        var voyages: [Voyage] { get { _$toMany(Port._$voyages, \.voyages) } set { _$setToMany(newValue, Port._$voyages) } }
        init(city: String) {
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _city = try row.read(Port._$city)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Port._$city, into: &_city)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_city, Port._$city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Port", base: nil, subclasses: [],
            properties: [
                .attribute(Port._$city, \Port.city),
                .toMany(Port._$voyages, \Port.voyages, deleteRule: .nullify, inverse: "ports"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Renames, after: every entity, attribute and relationship of RenamesV1 renamed with `originalName`.
enum RenamesV2 {
    class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$days = AttributeIndex(1, "days")
        private static let _$cabins = RelationshipIndex(0, "cabins")
        private static let _$harbors = RelationshipIndex(1, "harbors")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        private var _days: Int
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var days: Int { get { _days } set { _$willSet(Trip._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Trip._$days, \.days, oldValue) } }
        var cabins: [Cabin] { get { _$toMany(Trip._$cabins, \.cabins) } set { _$setToMany(newValue, Trip._$cabins) } }
        var harbors: [Wharf] { get { _$toMany(Trip._$harbors, \.harbors) } set { _$setToMany(newValue, Trip._$harbors) } }
        init(name: String, days: Int) {
            _name = name
            _days = days
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            _days = try row.read(Trip._$days)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try row.read(Trip._$days, into: &_days)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            row.write(_days, Trip._$days)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [CruiseTrip.self],
            properties: [
                .attribute(Trip._$name, \Trip.name, .preserveValueOnDeletion, originalName: "title"),
                .attribute(Trip._$days, \Trip.days),
                .toMany(Trip._$cabins, \Trip.cabins, deleteRule: .cascade, inverse: "trip"),
                .toMany(Trip._$harbors, \Trip.harbors, deleteRule: .nullify, inverse: "visits", originalName: "ports"),
            ],
            uniqueConstraints: [], indexes: [["name"]], originalName: "Voyage"
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class CruiseTrip: Trip {
        private static let _$shipName = AttributeIndex(2, "shipName")
        private var _shipName: String
        var shipName: String { get { _shipName } set { _$willSet(CruiseTrip._$shipName, \.shipName); let oldValue = _shipName; _shipName = newValue; _$didSet(CruiseTrip._$shipName, \.shipName, oldValue) } }
        init(name: String, days: Int, shipName: String) {
            _shipName = shipName
            super.init(name: name, days: days)
        }
        required init(from row: RowDecoder) throws {
            _shipName = try row.read(CruiseTrip._$shipName)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(CruiseTrip._$shipName, into: &_shipName)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_shipName, CruiseTrip._$shipName)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "CruiseTrip", base: Trip.self, subclasses: [],
            properties: [
                .attribute(CruiseTrip._$shipName, \CruiseTrip.shipName, originalName: "ship"),
            ],
            uniqueConstraints: [], indexes: [], inheritedKeyPaths: [.init("name", \CruiseTrip.name), .init("days", \CruiseTrip.days)], originalName: "Cruise"
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Cabin: ModelObject, PersistentModel {
        private static let _$number = AttributeIndex(0, "number")
        private static let _$trip = RelationshipIndex(0, "trip")
        var id: PersistentIdentifier { persistentModelID }
        private var _number: Int
        var number: Int { get { _number } set { _$willSet(Cabin._$number, \.number); let oldValue = _number; _number = newValue; _$didSet(Cabin._$number, \.number, oldValue) } }
        var trip: Trip? { get { _$toOne(Cabin._$trip, \.trip) } set { _$setToOne(newValue, Cabin._$trip) } }
        init(number: Int) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read(Cabin._$number)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Cabin._$number, into: &_number)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number, Cabin._$number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Cabin", base: nil, subclasses: [],
            properties: [
                .attribute(Cabin._$number, \Cabin.number),
                .toOne(Cabin._$trip, \Cabin.trip, deleteRule: .nullify, inverse: "cabins", originalName: "voyage"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Wharf: ModelObject, PersistentModel {
        private static let _$city = AttributeIndex(0, "city")
        private static let _$visits = RelationshipIndex(0, "visits")
        var id: PersistentIdentifier { persistentModelID }
        private var _city: String
        var city: String { get { _city } set { _$willSet(Wharf._$city, \.city); let oldValue = _city; _city = newValue; _$didSet(Wharf._$city, \.city, oldValue) } }
        var visits: [Trip] { get { _$toMany(Wharf._$visits, \.visits) } set { _$setToMany(newValue, Wharf._$visits) } }
        init(city: String) {
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _city = try row.read(Wharf._$city)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Wharf._$city, into: &_city)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_city, Wharf._$city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Wharf", base: nil, subclasses: [],
            properties: [
                .attribute(Wharf._$city, \Wharf.city),
                .toMany(Wharf._$visits, \Wharf.visits, deleteRule: .nullify, inverse: "harbors", originalName: "voyages"),
            ],
            uniqueConstraints: [], indexes: [], originalName: "Port"
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Constraints, before: no unique email, an index on city, pets nullified.
enum ConstraintsV1 {
    final class Person: ModelObject, PersistentModel {
        private static let _$email = AttributeIndex(0, "email")
        private static let _$city = AttributeIndex(1, "city")
        private static let _$pets = RelationshipIndex(0, "pets")
        var id: PersistentIdentifier { persistentModelID }
        private var _email: String
        private var _city: String
        var email: String { get { _email } set { _$willSet(Person._$email, \.email); let oldValue = _email; _email = newValue; _$didSet(Person._$email, \.email, oldValue) } }
        var city: String { get { _city } set { _$willSet(Person._$city, \.city); let oldValue = _city; _city = newValue; _$didSet(Person._$city, \.city, oldValue) } }
        var pets: [Pet] { get { _$toMany(Person._$pets, \.pets) } set { _$setToMany(newValue, Person._$pets) } }
        init(email: String, city: String) {
            _email = email
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _email = try row.read(Person._$email)
            _city = try row.read(Person._$city)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Person._$email, into: &_email)
            try row.read(Person._$city, into: &_city)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_email, Person._$email)
            row.write(_city, Person._$city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute(Person._$email, \Person.email),
                .attribute(Person._$city, \Person.city),
                .toMany(Person._$pets, \Person.pets, deleteRule: .nullify, inverse: "owner"),
            ],
            uniqueConstraints: [], indexes: [["city"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Pet: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$owner = RelationshipIndex(0, "owner")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Pet._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Pet._$name, \.name, oldValue) } }
        var owner: Person? { get { _$toOne(Pet._$owner, \.owner) } set { _$setToOne(newValue, Pet._$owner) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Pet._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Pet._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Pet._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Pet", base: nil, subclasses: [],
            properties: [
                .attribute(Pet._$name, \Pet.name),
                .toOne(Pet._$owner, \Pet.owner, deleteRule: .nullify, inverse: "pets"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Constraints: email unique, another index, pets cascade.
enum ConstraintsV2 {
    final class Person: ModelObject, PersistentModel {
        private static let _$email = AttributeIndex(0, "email")
        private static let _$city = AttributeIndex(1, "city")
        private static let _$pets = RelationshipIndex(0, "pets")
        var id: PersistentIdentifier { persistentModelID }
        private var _email: String
        private var _city: String
        var email: String { get { _email } set { _$willSet(Person._$email, \.email); let oldValue = _email; _email = newValue; _$didSet(Person._$email, \.email, oldValue) } }
        var city: String { get { _city } set { _$willSet(Person._$city, \.city); let oldValue = _city; _city = newValue; _$didSet(Person._$city, \.city, oldValue) } }
        var pets: [Pet] { get { _$toMany(Person._$pets, \.pets) } set { _$setToMany(newValue, Person._$pets) } }
        init(email: String, city: String) {
            _email = email
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _email = try row.read(Person._$email)
            _city = try row.read(Person._$city)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Person._$email, into: &_email)
            try row.read(Person._$city, into: &_city)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_email, Person._$email)
            row.write(_city, Person._$city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute(Person._$email, \Person.email, .unique),
                .attribute(Person._$city, \Person.city),
                .toMany(Person._$pets, \Person.pets, deleteRule: .cascade, inverse: "owner"),
            ],
            uniqueConstraints: [], indexes: [["email", "city"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Pet: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$owner = RelationshipIndex(0, "owner")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Pet._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Pet._$name, \.name, oldValue) } }
        var owner: Person? { get { _$toOne(Pet._$owner, \.owner) } set { _$setToOne(newValue, Pet._$owner) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Pet._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Pet._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Pet._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Pet", base: nil, subclasses: [],
            properties: [
                .attribute(Pet._$name, \Pet.name),
                .toOne(Pet._$owner, \Pet.owner, deleteRule: .nullify, inverse: "pets"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Constraints: pets .noAction (their owner key loses its foreign key), a #Unique group.
enum ConstraintsV3 {
    final class Person: ModelObject, PersistentModel {
        private static let _$email = AttributeIndex(0, "email")
        private static let _$city = AttributeIndex(1, "city")
        private static let _$pets = RelationshipIndex(0, "pets")
        var id: PersistentIdentifier { persistentModelID }
        private var _email: String
        private var _city: String
        var email: String { get { _email } set { _$willSet(Person._$email, \.email); let oldValue = _email; _email = newValue; _$didSet(Person._$email, \.email, oldValue) } }
        var city: String { get { _city } set { _$willSet(Person._$city, \.city); let oldValue = _city; _city = newValue; _$didSet(Person._$city, \.city, oldValue) } }
        var pets: [Pet] { get { _$toMany(Person._$pets, \.pets) } set { _$setToMany(newValue, Person._$pets) } }
        init(email: String, city: String) {
            _email = email
            _city = city
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _email = try row.read(Person._$email)
            _city = try row.read(Person._$city)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Person._$email, into: &_email)
            try row.read(Person._$city, into: &_city)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_email, Person._$email)
            row.write(_city, Person._$city)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute(Person._$email, \Person.email),
                .attribute(Person._$city, \Person.city),
                .toMany(Person._$pets, \Person.pets, deleteRule: .noAction, inverse: "owner"),
            ],
            uniqueConstraints: [["email", "city"]], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Pet: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$owner = RelationshipIndex(0, "owner")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Pet._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Pet._$name, \.name, oldValue) } }
        var owner: Person? { get { _$toOne(Pet._$owner, \.owner) } set { _$setToOne(newValue, Pet._$owner) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Pet._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Pet._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Pet._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Pet", base: nil, subclasses: [],
            properties: [
                .attribute(Pet._$name, \Pet.name),
                .toOne(Pet._$owner, \Pet.owner, deleteRule: .nullify, inverse: "pets"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// To-one relationships, before.
enum ToManyV1 {
    final class Author: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$books = RelationshipIndex(0, "books")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Author._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Author._$name, \.name, oldValue) } }
        var books: [Book] { get { _$toMany(Author._$books, \.books) } set { _$setToMany(newValue, Author._$books) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Author._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Author._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Author._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Author", base: nil, subclasses: [],
            properties: [
                .attribute(Author._$name, \Author.name),
                .toMany(Author._$books, \Author.books, deleteRule: .nullify, inverse: "author"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Book: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$author = RelationshipIndex(0, "author")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        var title: String { get { _title } set { _$willSet(Book._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Book._$title, \.title, oldValue) } }
        var author: Author? { get { _$toOne(Book._$author, \.author) } set { _$setToOne(newValue, Book._$author) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Book._$title)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Book._$title, into: &_title)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Book._$title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Book", base: nil, subclasses: [],
            properties: [
                .attribute(Book._$title, \Book.title),
                .toOne(Book._$author, \Book.author, deleteRule: .nullify, inverse: "books"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Person: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$passport = RelationshipIndex(0, "passport")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Person._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Person._$name, \.name, oldValue) } }
        var passport: Passport? { get { _$toOne(Person._$passport, \.passport) } set { _$setToOne(newValue, Person._$passport) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Person._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Person._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Person._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute(Person._$name, \Person.name),
                .toOne(Person._$passport, \Person.passport, deleteRule: .nullify, inverse: "holder"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Passport: ModelObject, PersistentModel {
        private static let _$number = AttributeIndex(0, "number")
        private static let _$holder = RelationshipIndex(0, "holder")
        var id: PersistentIdentifier { persistentModelID }
        private var _number: String
        var number: String { get { _number } set { _$willSet(Passport._$number, \.number); let oldValue = _number; _number = newValue; _$didSet(Passport._$number, \.number, oldValue) } }
        var holder: Person? { get { _$toOne(Passport._$holder, \.holder) } set { _$setToOne(newValue, Passport._$holder) } }
        init(number: String) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read(Passport._$number)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Passport._$number, into: &_number)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number, Passport._$number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Passport", base: nil, subclasses: [],
            properties: [
                .attribute(Passport._$number, \Passport.number),
                .toOne(Passport._$holder, \Passport.holder, deleteRule: .nullify, inverse: "passport"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Song: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$related = RelationshipIndex(0, "related")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        var title: String { get { _title } set { _$willSet(Song._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Song._$title, \.title, oldValue) } }
        var related: Song? { get { _$toOne(Song._$related, \.related) } set { _$setToOne(newValue, Song._$related) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Song._$title)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Song._$title, into: &_title)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Song._$title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Song", base: nil, subclasses: [],
            properties: [
                .attribute(Song._$title, \Song.title),
                .toOne(Song._$related, \Song.related, deleteRule: .nullify),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// To-one relationships become to-many: one-to-many → many-to-many, one-to-one → one-to-many, to-one without inverse → to-many.
enum ToManyV2 {
    final class Author: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$books = RelationshipIndex(0, "books")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Author._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Author._$name, \.name, oldValue) } }
        var books: [Book] { get { _$toMany(Author._$books, \.books) } set { _$setToMany(newValue, Author._$books) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Author._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Author._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Author._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Author", base: nil, subclasses: [],
            properties: [
                .attribute(Author._$name, \Author.name),
                .toMany(Author._$books, \Author.books, deleteRule: .nullify, inverse: "authors"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Book: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$authors = RelationshipIndex(0, "authors")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        var title: String { get { _title } set { _$willSet(Book._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Book._$title, \.title, oldValue) } }
        var authors: [Author] { get { _$toMany(Book._$authors, \.authors) } set { _$setToMany(newValue, Book._$authors) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Book._$title)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Book._$title, into: &_title)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Book._$title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Book", base: nil, subclasses: [],
            properties: [
                .attribute(Book._$title, \Book.title),
                .toMany(Book._$authors, \Book.authors, deleteRule: .nullify, inverse: "books", originalName: "author"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Person: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$passports = RelationshipIndex(0, "passports")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Person._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Person._$name, \.name, oldValue) } }
        var passports: [Passport] { get { _$toMany(Person._$passports, \.passports) } set { _$setToMany(newValue, Person._$passports) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Person._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Person._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Person._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute(Person._$name, \Person.name),
                .toMany(Person._$passports, \Person.passports, deleteRule: .nullify, inverse: "holder", originalName: "passport"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Passport: ModelObject, PersistentModel {
        private static let _$number = AttributeIndex(0, "number")
        private static let _$holder = RelationshipIndex(0, "holder")
        var id: PersistentIdentifier { persistentModelID }
        private var _number: String
        var number: String { get { _number } set { _$willSet(Passport._$number, \.number); let oldValue = _number; _number = newValue; _$didSet(Passport._$number, \.number, oldValue) } }
        var holder: Person? { get { _$toOne(Passport._$holder, \.holder) } set { _$setToOne(newValue, Passport._$holder) } }
        init(number: String) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read(Passport._$number)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Passport._$number, into: &_number)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number, Passport._$number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Passport", base: nil, subclasses: [],
            properties: [
                .attribute(Passport._$number, \Passport.number),
                .toOne(Passport._$holder, \Passport.holder, deleteRule: .nullify, inverse: "passports"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Song: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$related = RelationshipIndex(0, "related")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        var title: String { get { _title } set { _$willSet(Song._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Song._$title, \.title, oldValue) } }
        var related: [Song] { get { _$toMany(Song._$related, \.related) } set { _$setToMany(newValue, Song._$related) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Song._$title)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Song._$title, into: &_title)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Song._$title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Song", base: nil, subclasses: [],
            properties: [
                .attribute(Song._$title, \Song.title),
                .toMany(Song._$related, \Song.related, deleteRule: .nullify),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// A to-many relationship of ToManyV2 becomes to-one: cannot be inferred.
enum ToManyV3 {
    final class Author: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$books = RelationshipIndex(0, "books")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Author._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Author._$name, \.name, oldValue) } }
        var books: [Book] { get { _$toMany(Author._$books, \.books) } set { _$setToMany(newValue, Author._$books) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Author._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Author._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Author._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Author", base: nil, subclasses: [],
            properties: [
                .attribute(Author._$name, \Author.name),
                .toMany(Author._$books, \Author.books, deleteRule: .nullify, inverse: "authors"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Book: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$authors = RelationshipIndex(0, "authors")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        var title: String { get { _title } set { _$willSet(Book._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Book._$title, \.title, oldValue) } }
        var authors: [Author] { get { _$toMany(Book._$authors, \.authors) } set { _$setToMany(newValue, Book._$authors) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Book._$title)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Book._$title, into: &_title)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Book._$title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Book", base: nil, subclasses: [],
            properties: [
                .attribute(Book._$title, \Book.title),
                .toMany(Book._$authors, \Book.authors, deleteRule: .nullify, inverse: "books"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Person: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$passports = RelationshipIndex(0, "passports")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        var name: String { get { _name } set { _$willSet(Person._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Person._$name, \.name, oldValue) } }
        var passports: Passport? { get { _$toOne(Person._$passports, \.passports) } set { _$setToOne(newValue, Person._$passports) } }
        init(name: String) {
            _name = name
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Person._$name)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Person._$name, into: &_name)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Person._$name)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Person", base: nil, subclasses: [],
            properties: [
                .attribute(Person._$name, \Person.name),
                .toOne(Person._$passports, \Person.passports, deleteRule: .nullify, inverse: "holder"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Passport: ModelObject, PersistentModel {
        private static let _$number = AttributeIndex(0, "number")
        private static let _$holder = RelationshipIndex(0, "holder")
        var id: PersistentIdentifier { persistentModelID }
        private var _number: String
        var number: String { get { _number } set { _$willSet(Passport._$number, \.number); let oldValue = _number; _number = newValue; _$didSet(Passport._$number, \.number, oldValue) } }
        var holder: Person? { get { _$toOne(Passport._$holder, \.holder) } set { _$setToOne(newValue, Passport._$holder) } }
        init(number: String) {
            _number = number
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _number = try row.read(Passport._$number)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Passport._$number, into: &_number)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_number, Passport._$number)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Passport", base: nil, subclasses: [],
            properties: [
                .attribute(Passport._$number, \Passport.number),
                .toOne(Passport._$holder, \Passport.holder, deleteRule: .nullify, inverse: "passports"),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }

    final class Song: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$related = RelationshipIndex(0, "related")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        var title: String { get { _title } set { _$willSet(Song._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Song._$title, \.title, oldValue) } }
        var related: [Song] { get { _$toMany(Song._$related, \.related) } set { _$setToMany(newValue, Song._$related) } }
        init(title: String) {
            _title = title
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Song._$title)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Song._$title, into: &_title)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Song._$title)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Song", base: nil, subclasses: [],
            properties: [
                .attribute(Song._$title, \Song.title),
                .toMany(Song._$related, \Song.related, deleteRule: .nullify),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}
