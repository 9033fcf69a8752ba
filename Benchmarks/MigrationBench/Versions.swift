// The benchmark's model versions, in the shape of generated code (trimmed: no observation registrar).
import Foundation
@_spi(ModelStoreGenerated) import ModelStore

/// The store as written: 1,000,000 trips.
enum BenchV1 {
    final class Trip: ModelObject, PersistentModel {
        private static let _$name = AttributeIndex(0, "name")
        private static let _$startDate = AttributeIndex(1, "startDate")
        private static let _$days = AttributeIndex(2, "days")
        private static let _$note = AttributeIndex(3, "note")
        var id: PersistentIdentifier { persistentModelID }
        private var _name: String
        private var _startDate: Date
        private var _days: Int32
        private var _note: String?
        var name: String { get { _name } set { _$willSet(Trip._$name, \.name); let oldValue = _name; _name = newValue; _$didSet(Trip._$name, \.name, oldValue) } }
        var startDate: Date { get { _startDate } set { _$willSet(Trip._$startDate, \.startDate); let oldValue = _startDate; _startDate = newValue; _$didSet(Trip._$startDate, \.startDate, oldValue) } }
        var days: Int32 { get { _days } set { _$willSet(Trip._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Trip._$days, \.days, oldValue) } }
        var note: String? { get { _note } set { _$willSet(Trip._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Trip._$note, \.note, oldValue) } }
        init(name: String, startDate: Date, days: Int32, note: String? = nil) {
            _name = name
            _startDate = startDate
            _days = days
            _note = note
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read(Trip._$name)
            _startDate = try row.read(Trip._$startDate)
            _days = try row.read(Trip._$days)
            _note = try row.read(Trip._$note)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$name, into: &_name)
            try row.read(Trip._$startDate, into: &_startDate)
            try row.read(Trip._$days, into: &_days)
            try row.read(Trip._$note, into: &_note)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name, Trip._$name)
            row.write(_startDate, Trip._$startDate)
            row.write(_days, Trip._$days)
            row.write(_note, Trip._$note)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$name, \Trip.name),
                .attribute(Trip._$startDate, \Trip.startDate),
                .attribute(Trip._$days, \Trip.days),
                .attribute(Trip._$note, \Trip.note),
            ],
            uniqueConstraints: [], indexes: [["startDate"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Rename + added defaulted property + Int32 → Int (ALTER TABLE in place).
enum BenchV2 {
    final class Trip: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$startDate = AttributeIndex(1, "startDate")
        private static let _$days = AttributeIndex(2, "days")
        private static let _$note = AttributeIndex(3, "note")
        private static let _$rating = AttributeIndex(4, "rating")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        private var _startDate: Date
        private var _days: Int
        private var _note: String?
        private var _rating: Int
        var title: String { get { _title } set { _$willSet(Trip._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Trip._$title, \.title, oldValue) } }
        var startDate: Date { get { _startDate } set { _$willSet(Trip._$startDate, \.startDate); let oldValue = _startDate; _startDate = newValue; _$didSet(Trip._$startDate, \.startDate, oldValue) } }
        var days: Int { get { _days } set { _$willSet(Trip._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Trip._$days, \.days, oldValue) } }
        var note: String? { get { _note } set { _$willSet(Trip._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Trip._$note, \.note, oldValue) } }
        var rating: Int { get { _rating } set { _$willSet(Trip._$rating, \.rating); let oldValue = _rating; _rating = newValue; _$didSet(Trip._$rating, \.rating, oldValue) } }
        init(title: String, startDate: Date, days: Int, note: String? = nil, rating: Int = 3) {
            _title = title
            _startDate = startDate
            _days = days
            _note = note
            _rating = rating
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Trip._$title)
            _startDate = try row.read(Trip._$startDate)
            _days = try row.read(Trip._$days)
            _note = try row.read(Trip._$note)
            _rating = try row.read(Trip._$rating)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$title, into: &_title)
            try row.read(Trip._$startDate, into: &_startDate)
            try row.read(Trip._$days, into: &_days)
            try row.read(Trip._$note, into: &_note)
            try row.read(Trip._$rating, into: &_rating)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Trip._$title)
            row.write(_startDate, Trip._$startDate)
            row.write(_days, Trip._$days)
            row.write(_note, Trip._$note)
            row.write(_rating, Trip._$rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$title, \Trip.title, originalName: "name"),
                .attribute(Trip._$startDate, \Trip.startDate),
                .attribute(Trip._$days, \Trip.days),
                .attribute(Trip._$note, \Trip.note),
                .attribute(Trip._$rating, \Trip.rating, defaultValue: 3),
            ],
            uniqueConstraints: [], indexes: [["startDate"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// The same, and the note becomes required with a default (a table rebuild).
enum BenchV3 {
    final class Trip: ModelObject, PersistentModel {
        private static let _$title = AttributeIndex(0, "title")
        private static let _$startDate = AttributeIndex(1, "startDate")
        private static let _$days = AttributeIndex(2, "days")
        private static let _$note = AttributeIndex(3, "note")
        private static let _$rating = AttributeIndex(4, "rating")
        var id: PersistentIdentifier { persistentModelID }
        private var _title: String
        private var _startDate: Date
        private var _days: Int
        private var _note: String
        private var _rating: Int
        var title: String { get { _title } set { _$willSet(Trip._$title, \.title); let oldValue = _title; _title = newValue; _$didSet(Trip._$title, \.title, oldValue) } }
        var startDate: Date { get { _startDate } set { _$willSet(Trip._$startDate, \.startDate); let oldValue = _startDate; _startDate = newValue; _$didSet(Trip._$startDate, \.startDate, oldValue) } }
        var days: Int { get { _days } set { _$willSet(Trip._$days, \.days); let oldValue = _days; _days = newValue; _$didSet(Trip._$days, \.days, oldValue) } }
        var note: String { get { _note } set { _$willSet(Trip._$note, \.note); let oldValue = _note; _note = newValue; _$didSet(Trip._$note, \.note, oldValue) } }
        var rating: Int { get { _rating } set { _$willSet(Trip._$rating, \.rating); let oldValue = _rating; _rating = newValue; _$didSet(Trip._$rating, \.rating, oldValue) } }
        init(title: String, startDate: Date, days: Int, note: String = "", rating: Int = 3) {
            _title = title
            _startDate = startDate
            _days = days
            _note = note
            _rating = rating
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read(Trip._$title)
            _startDate = try row.read(Trip._$startDate)
            _days = try row.read(Trip._$days)
            _note = try row.read(Trip._$note)
            _rating = try row.read(Trip._$rating)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Trip._$title, into: &_title)
            try row.read(Trip._$startDate, into: &_startDate)
            try row.read(Trip._$days, into: &_days)
            try row.read(Trip._$note, into: &_note)
            try row.read(Trip._$rating, into: &_rating)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title, Trip._$title)
            row.write(_startDate, Trip._$startDate)
            row.write(_days, Trip._$days)
            row.write(_note, Trip._$note)
            row.write(_rating, Trip._$rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute(Trip._$title, \Trip.title, originalName: "name"),
                .attribute(Trip._$startDate, \Trip.startDate),
                .attribute(Trip._$days, \Trip.days),
                .attribute(Trip._$note, \Trip.note, defaultValue: ""),
                .attribute(Trip._$rating, \Trip.rating, defaultValue: 3),
            ],
            uniqueConstraints: [], indexes: [["startDate"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}
