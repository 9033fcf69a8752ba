import Foundation

/// The values of several rows, one array per column, for a statement that reads them with
/// `unnest(…)` (docs/PostgreSQL.md, "Batched writes"): the rows an insert writes together
/// (`PostgresRowBatch`) and the rows an update changes together (`PostgresRowBatch`).
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
    /// The encoded values of each column, but those of `bigint` columns (left empty).
    private var columns: [PostgresParameters]
    /// Per column: its place in `integers` when it is a `bigint` column, else -1.
    private let integerSlots: [Int]
    /// The values of the `bigint` columns as integers (NULL: nil), the array's bytes written once
    /// when it is bound: a typed integer bind is an append, not an encoding per value.
    private var integers: [[Int64?]]
    /// Where a value of a `bigint` column bound as anything but an integer or NULL is encoded
    /// first, for the single-row statement's outcome (the integer, or its error).
    private var scratch = PostgresParameters(capacity: 1)
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
        var slots: [Int] = []
        var integers: [[Int64?]] = []
        for type in types {
            if type == .int8 {
                slots.append(integers.count)
                var values: [Int64?] = []
                values.reserveCapacity(Self.limit)
                integers.append(values)
            } else {
                slots.append(-1)
            }
        }
        integerSlots = slots
        self.integers = integers
        columns = slots.map { PostgresParameters(capacity: $0 >= 0 ? 0 : Self.limit) }
    }

    /// Adds a row: `key` (when keyed) and `values`, the first `types.count` of them (missing ones null).
    ///
    /// - Throws: `PostgresError` `.invalidValue` for a value the single-row statement would refuse,
    ///   or one that its array cannot hold (the row is not added).
    mutating func add(key: Int64, values: [SQLValue]) throws(PostgresError) {
        do throws(PostgresError) {
            for (index, type) in types.enumerated() {
                let value = index < values.count ? values[index] : .null
                let slot = integerSlots[index]
                if slot >= 0 {
                    try writeInteger(index, slot: slot, value) { (parameters, type, number) throws(PostgresError) in
                        try parameters.append(value, type: type, number: number)
                    }
                    continue
                }
                try columns[index].append(value, type: type, number: index + 1)
                try checkArrayForm(index, value)
            }
        } catch {
            dropPartialRow()
            throw error
        }
        if keyed { keys.append(key) }
        count += 1
    }

    /// Refuses a value the parameter's type took as text (the server would read it) where the
    /// column's array is of the type's binary form.
    private func checkArrayForm(_ index: Int, _ value: @autoclosure () -> SQLValue) throws(PostgresError) {
        try checkArrayForm(index, of: columns[index], value())
    }

    /// `checkArrayForm` of the last value of `parameters`, for column `index`.
    private func checkArrayForm(_ index: Int, of parameters: PostgresParameters, _ value: @autoclosure () -> SQLValue) throws(PostgresError) {
        guard binaryElements[index], parameters.formats.last == PostgresParameters.Format.text.rawValue,
              parameters.offsets.last ?? -1 >= 0 else { return }
        throw PostgresParameters.refuse(index + 1, "\(SQLValue.shortDescription(value())) cannot be sent as \(types[index]) with the other rows of its statement")
    }

    /// Appends to `bigint` column `index` (`slot` in `integers`) the value `write` encodes, as
    /// a column of encoded values would take it: refused with the same error, else kept as its
    /// integer (or nil for NULL).
    private mutating func writeInteger(_ index: Int, slot: Int, _ value: @autoclosure () -> SQLValue,
                                       _ write: (inout PostgresParameters, PostgresType, Int) throws(PostgresError) -> Void) throws(PostgresError) {
        scratch.removeLast(scratch.count)
        try write(&scratch, types[index], index + 1)
        try checkArrayForm(index, of: scratch, value())
        guard let offset = scratch.offsets.last, offset >= 0 else {
            integers[slot].append(nil)
            return
        }
        integers[slot].append(scratch.bytes.withUnsafeBytes { PostgresDecoding.bigEndian(UnsafeRawBufferPointer(rebasing: $0[offset...]), as: Int64.self) })
    }

    /// The values column `index` holds: the rows', and the one of a row being bound.
    private func valueCount(_ index: Int) -> Int {
        let slot = integerSlots[index]
        return slot >= 0 ? integers[slot].count : columns[index].count
    }

    // A row bound value by value (`PostgresRowBatch.rowStatement`): `bind(at:_:_:)` per value,
    // then `addBoundRow(key:)`, or `dropPartialRow()`.

    /// Writes the value bound at parameter `number` (1-based, the column's) of the row being
    /// bound, replacing one this row bound there before. A parameter past the columns (a
    /// conditional insert's checked key, an update's row key) is not in the arrays.
    ///
    /// - Throws: the error the single-row statement would report for the value.
    mutating func bind(at number: Int32, _ value: @autoclosure () -> SQLValue,
                       _ write: (inout PostgresParameters, PostgresType, Int) throws(PostgresError) -> Void) throws(PostgresError) {
        let index = Int(number) - 1
        guard index >= 0, index < columns.count else { return }
        let slot = integerSlots[index]
        if slot >= 0 {
            if integers[slot].count > count { integers[slot].removeLast(integers[slot].count - count) }
            try writeInteger(index, slot: slot, value(), write)
            return
        }
        if columns[index].count > count { columns[index].removeLast(columns[index].count - count) }
        try write(&columns[index], types[index], index + 1)
        try checkArrayForm(index, value())
    }

    /// `bind(at:_:_:)` of an integer into a `bigint` column: kept as it is. False for a parameter
    /// of another type or past the columns (the caller takes `bind(at:_:_:)`).
    @inline(__always)
    mutating func bindInteger(_ value: Int64, at number: Int32) -> Bool {
        let index = Int(number) - 1
        guard index >= 0, index < integerSlots.count else { return false }
        let slot = integerSlots[index]
        guard slot >= 0 else { return false }
        if integers[slot].count > count { integers[slot].removeLast(integers[slot].count - count) }
        integers[slot].append(value)
        return true
    }

    /// `bind(at:_:_:)` of NULL (which every column takes).
    mutating func bindNull(at number: Int32) {
        let index = Int(number) - 1
        guard index >= 0, index < columns.count else { return }
        let slot = integerSlots[index]
        if slot >= 0 {
            if integers[slot].count > count { integers[slot].removeLast(integers[slot].count - count) }
            integers[slot].append(nil)
        } else {
            if columns[index].count > count { columns[index].removeLast(columns[index].count - count) }
            columns[index].appendNull()
        }
    }

    /// The type of parameter `number` (1-based), nil past the columns.
    func type(at number: Int32) -> PostgresType? {
        let index = Int(number) - 1
        return index >= 0 && index < types.count ? types[index] : nil
    }

    /// Adds the row bound value by value, with `key`: a column it did not bind is NULL, as in the
    /// single-row statement.
    mutating func addBoundRow(key: Int64) {
        for index in columns.indices where valueCount(index) == count {
            let slot = integerSlots[index]
            if slot >= 0 { integers[slot].append(nil) } else { columns[index].appendNull() }
        }
        if keyed { keys.append(key) }
        count += 1
    }

    /// Drops the values of a row bound in part or refused.
    mutating func dropPartialRow() {
        for index in columns.indices where columns[index].count > count { columns[index].removeLast(columns[index].count - count) }
        for slot in integers.indices where integers[slot].count > count { integers[slot].removeLast(integers[slot].count - count) }
    }

    /// Binds the arrays of the rows added to `statement` from parameter `first` on (the keys'
    /// array, then each column's), and empties them. The values of a row being bound stay, for
    /// the next statement.
    mutating func bind(to statement: PostgresStoreStatement, from first: Int32) {
        var parameter = first
        if keyed {
            statement.bind(.blob(Self.int8Array(keys)), at: parameter)
            parameter += 1
        }
        for (index, column) in columns.enumerated() {
            let slot = integerSlots[index]
            let encoded = slot >= 0 ? Self.int8Array(nullable: integers[slot].prefix(count)) : array(of: column, element: elements[index], type: types[index])
            statement.bind(.blob(encoded), at: parameter)
            parameter += 1
        }
        keys.removeAll(keepingCapacity: true)
        for index in columns.indices where integerSlots[index] < 0 {
            if columns[index].count > count { columns[index].removeFirst(count) } else { columns[index].removeLast(count) }
        }
        for slot in integers.indices {
            if integers[slot].count > count { integers[slot].removeFirst(count) } else { integers[slot].removeAll(keepingCapacity: true) }
        }
        count = 0
    }

    /// The binary form of a `bigint[]` holding `keys` (no NULL): the rows' keys, a key set
    /// (`PostgresDialect.keyArrayMembership`).
    static func int8Array<C: Collection<Int64>>(_ keys: C) -> Data {
        array(element: .int8, count: keys.count, hasNulls: false, dataBytes: 8 * keys.count) { bytes in
            var at = 0
            for key in keys {
                store(Int32(8), at: &at, in: bytes)
                store(UInt64(bitPattern: key), at: &at, in: bytes)
            }
        }
    }

    /// The binary form of a `bigint[]` holding `values` (nil: NULL), a `bigint` column's.
    static func int8Array<C: Collection<Int64?>>(nullable values: C) -> Data {
        let nulls = values.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        return array(element: .int8, count: values.count, hasNulls: nulls > 0, dataBytes: 8 * (values.count - nulls)) { bytes in
            var at = 0
            for value in values {
                guard let value else {
                    store(Int32(-1), at: &at, in: bytes)
                    continue
                }
                store(Int32(8), at: &at, in: bytes)
                store(UInt64(bitPattern: value), at: &at, in: bytes)
            }
        }
    }

    /// The binary form of an array of the first `count` values of `column`.
    private func array(of column: PostgresParameters, element: Element, type: PostgresType) -> Data {
        var hasNulls = false
        var dataBytes = 0
        for row in 0..<count {
            if column.offsets[row] < 0 {
                hasNulls = true
            } else {
                dataBytes += Int(column.lengths[row]) + (element == .jsonb ? 1 : 0)
            }
        }
        let elementType: PostgresType = element == .textCast ? .text : type
        return Self.array(element: elementType, count: count, hasNulls: hasNulls, dataBytes: dataBytes) { bytes in
            column.bytes.withUnsafeBytes { all in
                var at = 0
                for row in 0..<count {
                    let offset = column.offsets[row]
                    guard offset >= 0 else {
                        Self.store(Int32(-1), at: &at, in: bytes)
                        continue
                    }
                    let length = Int(column.lengths[row])
                    if element == .jsonb {
                        Self.store(Int32(length + 1), at: &at, in: bytes)
                        bytes[at] = 1
                        at += 1
                    } else {
                        Self.store(Int32(length), at: &at, in: bytes)
                    }
                    if length > 0 {
                        UnsafeMutableRawBufferPointer(rebasing: bytes[at..<(at + length)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)]))
                    }
                    at += length
                }
            }
        }
    }

    /// A one-dimensional array of `count` elements: its header (dimensions, null flag, element
    /// type, length, lower bound), then the elements `write` writes: each a length (4 bytes, -1 for
    /// NULL) and `dataBytes` bytes of values in all.
    private static func array(element: PostgresType, count: Int, hasNulls: Bool, dataBytes: Int,
                              _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Data {
        let header = 20
        var data = Data(count: header + 4 * count + dataBytes)
        data.withUnsafeMutableBytes { bytes in
            var at = 0
            store(Int32(1), at: &at, in: bytes)
            store(Int32(hasNulls ? 1 : 0), at: &at, in: bytes)
            store(element.rawValue, at: &at, in: bytes)
            store(Int32(count), at: &at, in: bytes)
            store(Int32(1), at: &at, in: bytes)
            write(UnsafeMutableRawBufferPointer(rebasing: bytes[header...]))
        }
        return data
    }

    /// Stores `value` big-endian at `at`, and moves `at` past it.
    private static func store<I: FixedWidthInteger>(_ value: I, at: inout Int, in bytes: UnsafeMutableRawBufferPointer) {
        bytes.storeBytes(of: value.bigEndian, toByteOffset: at, as: I.self)
        at += MemoryLayout<I>.size
    }
}
