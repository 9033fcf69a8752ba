import Foundation

/// The values of several rows, one array per column, for a statement that reads them with
/// `unnest(…)` (docs/PostgreSQL.md, "Batched writes"): the rows an insert writes together
/// (`PostgresInsertRows`) and the rows an update changes together (`PostgresUpdateRows`).
///
/// Each row's values arrive as a single-row statement bound them, and are encoded in the form of
/// that statement's parameter types, as the server inferred them (`PostgresParameters`): the same
/// values are refused with the same error. Each array is sent in binary.
struct PostgresColumnArrays {
    /// The types whose binary form `PostgresParameters` writes, sent as arrays of that type.
    private static let binaryTypes: Set<PostgresType> = [.int8, .int4, .int2, .float8, .float4, .bool, .uuid, .bytea, .oid]
    /// Types whose binary form is their text's bytes (`PostgresType.textual`; a parameter of a
    /// column is never of the type `unknown`).
    private static let textTypes = PostgresType.textual.subtracting([.unknown])

    /// How a column's values go into its array.
    private enum Element {
        /// The value's bytes as `PostgresParameters` encodes them (binary form, or text of a text type).
        case same
        /// jsonb's binary form: a version byte (1), then the text.
        case jsonb
        /// Sent as text and cast by the server (numeric: its text is its exact form).
        case textCast
    }

    /// The most rows in one statement: a larger statement saves little more, and its arrays sit in
    /// memory on both sides.
    static let limit = 1_000

    /// The columns' parameter types, in order.
    let types: [PostgresType]
    private let elements: [Element]
    /// Per column: whether its array is of a binary type sent as is (a value `PostgresParameters`
    /// could only write as text is refused).
    private let binaryElements: [Bool]
    /// Whether each row has a key (`bigint`), sent as the first array.
    private let keyed: Bool
    private(set) var keys: [Int64] = []
    private var columns: [PostgresParameters]
    private(set) var count = 0

    /// The arrays' placeholders in the statement, the keys' first (`?::bigint[]`), then each
    /// column's (`?::text[]`), for `unnest(…)`.
    let placeholders: [String]
    /// The expression reading each column's value from the row `alias` of `unnest(…) AS alias("k", "c1", …)`
    /// (`alias."c1"`, cast where the array is of another type).
    func values(of alias: String) -> [String] {
        elements.enumerated().map { index, element in
            let name = "\(alias).\"c\(index + 1)\""
            return element == .textCast ? "\(name)::numeric" : name
        }
    }
    /// The names of `unnest(…)`'s columns: `"k"` (when keyed), `"c1"`, ….
    var aliases: String {
        ((keyed ? ["\"k\""] : []) + (0..<types.count).map { "\"c\($0 + 1)\"" }).joined(separator: ", ")
    }

    /// Nil when a column's type is not one this client sends in an array.
    init?(types: [PostgresType], keyed: Bool) {
        var elements: [Element] = []
        var placeholders: [String] = keyed ? ["?::bigint[]"] : []
        for type in types {
            if Self.binaryTypes.contains(type) || Self.textTypes.contains(type) {
                elements.append(.same)
                placeholders.append("?::\(type)[]")
            } else if type == .jsonb {
                elements.append(.jsonb)
                placeholders.append("?::jsonb[]")
            } else if type == .numeric {
                elements.append(.textCast)
                placeholders.append("?::text[]")
            } else {
                return nil
            }
        }
        self.types = types
        self.elements = elements
        binaryElements = zip(types, elements).map { type, element in element == .same && Self.binaryTypes.contains(type) }
        self.keyed = keyed
        self.placeholders = placeholders
        columns = types.map { _ in PostgresParameters(capacity: Self.limit) }
    }

    /// Adds a row: `key` (when keyed) and `values`, the first `types.count` of them (missing ones null).
    ///
    /// - Throws: `PostgresError` `.invalidValue` for a value the single-row statement would refuse,
    ///   or one that its array cannot hold (the row is not added).
    mutating func add(key: Int64, values: [SQLValue]) throws(PostgresError) {
        do throws(PostgresError) {
            for (index, type) in types.enumerated() {
                let value = index < values.count ? values[index] : .null
                try columns[index].append(value, type: type, number: index + 1)
                if binaryElements[index], columns[index].formats.last == PostgresParameters.Format.text.rawValue,
                   columns[index].offsets.last ?? -1 >= 0 {
                    // The server would read this text as the type; an array of the type is binary.
                    throw PostgresParameters.refuse(index + 1, "\(SQLValue.shortDescription(value)) cannot be sent as \(type) with the other rows of its statement")
                }
            }
        } catch {
            for index in columns.indices { columns[index].removeLast(columns[index].count - count) }
            throw error
        }
        if keyed { keys.append(key) }
        count += 1
    }

    /// Binds the arrays of the rows added to `statement` from parameter `first` on (the keys'
    /// array, then each column's), and empties them.
    mutating func bind(to statement: PostgresStoreStatement, from first: Int32) {
        var parameter = first
        if keyed {
            var keyArray = Self.arrayHeader(element: .int8, count: count, hasNulls: false)
            keyArray.reserveCapacity(keyArray.count + 12 * count)
            for key in keys {
                Self.appendBigEndian(Int32(8), to: &keyArray)
                Self.appendBigEndian(UInt64(bitPattern: key), to: &keyArray)
            }
            statement.bind(.blob(Data(keyArray)), at: parameter)
            parameter += 1
        }
        for (index, column) in columns.enumerated() {
            statement.bind(.blob(Data(array(of: column, element: elements[index], type: types[index]))), at: parameter)
            parameter += 1
        }
        keys.removeAll(keepingCapacity: true)
        for index in columns.indices { columns[index].removeLast(columns[index].count) }
        count = 0
    }

    /// The binary form of an array of the column's values.
    private func array(of column: PostgresParameters, element: Element, type: PostgresType) -> [UInt8] {
        let hasNulls = column.offsets.contains { $0 < 0 }
        let elementType: PostgresType = element == .textCast ? .text : type
        var bytes = Self.arrayHeader(element: elementType, count: count, hasNulls: hasNulls)
        bytes.reserveCapacity(bytes.count + column.bytes.count + 5 * count)
        column.bytes.withUnsafeBufferPointer { all in
            for row in 0..<count {
                let offset = column.offsets[row]
                guard offset >= 0 else {
                    Self.appendBigEndian(Int32(-1), to: &bytes)
                    continue
                }
                let length = Int(column.lengths[row])
                let value = UnsafeBufferPointer(rebasing: all[offset..<(offset + length)])
                if element == .jsonb {
                    Self.appendBigEndian(Int32(length + 1), to: &bytes)
                    bytes.append(1)
                } else {
                    Self.appendBigEndian(Int32(length), to: &bytes)
                }
                bytes.append(contentsOf: value)
            }
        }
        return bytes
    }

    /// A one-dimensional array's header: dimensions, null flag, element type, length, lower bound.
    private static func arrayHeader(element: PostgresType, count: Int, hasNulls: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        appendBigEndian(Int32(1), to: &bytes)
        appendBigEndian(Int32(hasNulls ? 1 : 0), to: &bytes)
        appendBigEndian(element.rawValue, to: &bytes)
        appendBigEndian(Int32(count), to: &bytes)
        appendBigEndian(Int32(1), to: &bytes)
        return bytes
    }

    private static func appendBigEndian<I: FixedWidthInteger>(_ value: I, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
