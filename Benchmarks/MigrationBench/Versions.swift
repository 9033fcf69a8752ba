// The benchmark's model versions, in the shape of generated code (trimmed: no observation registrar).
import Foundation
import ModelStore

/// The store as written: 1,000,000 trips.
enum BenchV1 {
    final class Trip: ModelObject {
        private var _name: String
        private var _startDate: Date
        private var _days: Int32
        private var _note: String?
        var name: String { get { _name } set { _$willChange(); _name = newValue } }
        var startDate: Date { get { _startDate } set { _$willChange(); _startDate = newValue } }
        var days: Int32 { get { _days } set { _$willChange(); _days = newValue } }
        var note: String? { get { _note } set { _$willChange(); _note = newValue } }
        init(name: String, startDate: Date, days: Int32, note: String? = nil) {
            _name = name
            _startDate = startDate
            _days = days
            _note = note
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _name = try row.read()
            _startDate = try row.read()
            _days = try row.read()
            _note = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _name = try row.read()
            _startDate = try row.read()
            _days = try row.read()
            _note = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_name)
            row.write(_startDate)
            row.write(_days)
            row.write(_note)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("name", \Trip.name),
                .attribute("startDate", \Trip.startDate),
                .attribute("days", \Trip.days),
                .attribute("note", \Trip.note),
            ],
            uniqueConstraints: [], indexes: [["startDate"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// Rename + added defaulted property + Int32 → Int (ALTER TABLE in place).
enum BenchV2 {
    final class Trip: ModelObject {
        private var _title: String
        private var _startDate: Date
        private var _days: Int
        private var _note: String?
        private var _rating: Int
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var startDate: Date { get { _startDate } set { _$willChange(); _startDate = newValue } }
        var days: Int { get { _days } set { _$willChange(); _days = newValue } }
        var note: String? { get { _note } set { _$willChange(); _note = newValue } }
        var rating: Int { get { _rating } set { _$willChange(); _rating = newValue } }
        init(title: String, startDate: Date, days: Int, note: String? = nil, rating: Int = 3) {
            _title = title
            _startDate = startDate
            _days = days
            _note = note
            _rating = rating
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            _startDate = try row.read()
            _days = try row.read()
            _note = try row.read()
            _rating = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            _startDate = try row.read()
            _days = try row.read()
            _note = try row.read()
            _rating = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            row.write(_startDate)
            row.write(_days)
            row.write(_note)
            row.write(_rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Trip.title, originalName: "name"),
                .attribute("startDate", \Trip.startDate),
                .attribute("days", \Trip.days),
                .attribute("note", \Trip.note),
                .attribute("rating", \Trip.rating, defaultValue: 3),
            ],
            uniqueConstraints: [], indexes: [["startDate"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// The same, and the note becomes required with a default (a table rebuild).
enum BenchV3 {
    final class Trip: ModelObject {
        private var _title: String
        private var _startDate: Date
        private var _days: Int
        private var _note: String
        private var _rating: Int
        var title: String { get { _title } set { _$willChange(); _title = newValue } }
        var startDate: Date { get { _startDate } set { _$willChange(); _startDate = newValue } }
        var days: Int { get { _days } set { _$willChange(); _days = newValue } }
        var note: String { get { _note } set { _$willChange(); _note = newValue } }
        var rating: Int { get { _rating } set { _$willChange(); _rating = newValue } }
        init(title: String, startDate: Date, days: Int, note: String = "", rating: Int = 3) {
            _title = title
            _startDate = startDate
            _days = days
            _note = note
            _rating = rating
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _title = try row.read()
            _startDate = try row.read()
            _days = try row.read()
            _note = try row.read()
            _rating = try row.read()
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            _title = try row.read()
            _startDate = try row.read()
            _days = try row.read()
            _note = try row.read()
            _rating = try row.read()
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_title)
            row.write(_startDate)
            row.write(_days)
            row.write(_note)
            row.write(_rating)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Trip", base: nil, subclasses: [],
            properties: [
                .attribute("title", \Trip.title, originalName: "name"),
                .attribute("startDate", \Trip.startDate),
                .attribute("days", \Trip.days),
                .attribute("note", \Trip.note, defaultValue: ""),
                .attribute("rating", \Trip.rating, defaultValue: 3),
            ],
            uniqueConstraints: [], indexes: [["startDate"]]
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}
