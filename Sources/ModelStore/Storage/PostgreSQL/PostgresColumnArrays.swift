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
    /// Per column: its array's elements as they are sent, each a length (4 bytes, big-endian; -1
    /// for NULL) then its bytes, the rows' then those of the row being bound: a flush copies them
    /// behind the array's header, with no pass per value (`ElementColumns`).
    private let columns: ElementColumns
    /// Per column: how bound text is written as its element when it is sent as text (a textual
    /// type, numeric's text): 0 (its bytes), 1 (jsonb: a version byte, then its bytes); -1 for a
    /// column whose parameter does not take text as it is (binary types, bytea).
    private let textForms: [Int8]
    /// Where a value without a typed path of its own is encoded first as the single-row
    /// statement's parameter, for its outcome (the element, or its error).
    private var scratch = PostgresParameters(capacity: 1)
    private(set) var count = 0
    /// Whether a value was written for the row being bound since the last row added or dropped:
    /// `dropPartialRow()` has nothing to drop otherwise, and a save resets its row statement
    /// after every row (a pass over every column per row: docs/Benchmarks.md, "Writes").
    private var bindsPartialRow = false

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
        columns = ElementColumns(count: types.count)
        textForms = zip(types, elements).map { type, element in
            switch element {
            case .jsonb: return 1
            case .textCast: return 0
            case .same: return Self.textTypes.contains(type) ? 0 : -1
            }
        }
    }

    /// Adds a row: `key` (when keyed) and `values`, the first `types.count` of them (missing ones
    /// null). Values of a row being bound are dropped first.
    ///
    /// - Throws: `PostgresError` `.invalidValue` for a value the single-row statement would refuse,
    ///   or one that its array cannot hold (the row is not added).
    mutating func add(key: Int64, values: [SQLValue]) throws(PostgresError) {
        dropPartialRow()
        do throws(PostgresError) {
            for index in types.indices {
                let value = index < values.count ? values[index] : .null
                try write(index, value) { (parameters, type, number) throws(PostgresError) in
                    try parameters.append(value, type: type, number: number)
                }
            }
        } catch {
            dropPartialRow()
            throw error
        }
        addBoundRow(key: key)
    }

    /// Refuses a value the parameter's type took as text (the server would read it) where the
    /// column's array is of the type's binary form: `parameters`' last value, for column `index`.
    private func checkArrayForm(_ index: Int, of parameters: PostgresParameters, _ value: @autoclosure () -> SQLValue) throws(PostgresError) {
        guard binaryElements[index], parameters.formats.last == PostgresParameters.Format.text.rawValue,
              parameters.offsets.last ?? -1 >= 0 else { return }
        throw PostgresParameters.refuse(index + 1, "\(SQLValue.shortDescription(value())) cannot be sent as \(types[index]) with the other rows of its statement")
    }

    /// Appends to column `index` the element of the value `write` encodes as the single-row
    /// statement's parameter (`PostgresParameters`), refused with the same error.
    private mutating func write(_ index: Int, _ value: @autoclosure () -> SQLValue,
                                _ write: (inout PostgresParameters, PostgresType, Int) throws(PostgresError) -> Void) throws(PostgresError) {
        scratch.removeLast(scratch.count)
        bindsPartialRow = true
        try write(&scratch, types[index], index + 1)
        try checkArrayForm(index, of: scratch, value())
        let offset = scratch.offsets[0]
        guard offset >= 0 else {
            columns[index].appendLength(-1)
            return
        }
        let length = Int(scratch.lengths[0])
        scratch.bytes.withUnsafeBytes { bytes in
            columns[index].appendElement(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), jsonb: elements[index] == .jsonb)
        }
    }

    // A row bound value by value (`PostgresRowBatch.rowStatement`): `bind(at:_:_:)` per value
    // (or a typed bind that writes the same element: `bindInteger`, `bindText`, …), then
    // `addBoundRow(key:)`, or `dropPartialRow()`.

    /// Writes the value bound at parameter `number` (1-based, the column's) of the row being
    /// bound, replacing one this row bound there before. A parameter past the columns (a
    /// conditional insert's checked key, an update's row key) is not in the arrays.
    ///
    /// - Throws: the error the single-row statement would report for the value.
    mutating func bind(at number: Int32, _ value: @autoclosure () -> SQLValue,
                       _ write: (inout PostgresParameters, PostgresType, Int) throws(PostgresError) -> Void) throws(PostgresError) {
        let index = Int(number) - 1
        guard index >= 0, index < types.count else { return }
        columns[index].dropBound()
        try self.write(index, value(), write)
    }

    /// `bind(at:_:_:)` of an integer into a `bigint` column: its element (8 bytes, big-endian).
    /// False for a parameter of another type or past the columns (the caller takes `bind(at:_:_:)`).
    @inline(__always)
    mutating func bindInteger(_ value: Int64, at number: Int32) -> Bool {
        let index = Int(number) - 1
        guard index >= 0, index < types.count, types[index] == .int8 else { return false }
        columns[index].dropBound()
        bindsPartialRow = true
        withUnsafeBytes(of: value.bigEndian) { columns[index].appendElement($0, jsonb: false) }
        return true
    }

    /// `bind(at:_:_:)` of text into a column whose parameter takes it as text (`textForms`): the
    /// element `PostgresParameters.appendText` and the array would make, its bytes copied once.
    /// False, with nothing written, for another column, past the columns, or text the parameter
    /// refuses (U+0000, above 1 GB) or not in contiguous UTF-8: the caller takes `bind(at:_:_:)`,
    /// for the same outcome or error.
    @inline(__always)
    mutating func bindText(_ text: String, at number: Int32) -> Bool {
        let index = Int(number) - 1
        guard index >= 0, index < textForms.count else { return false }
        let form = textForms[index]
        guard form >= 0 else { return false }
        return text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard utf8.count <= PostgresParameters.largestValue else { return false }
            if let base = utf8.baseAddress, memchr(base, 0, utf8.count) != nil { return false }
            columns[index].dropBound()
            bindsPartialRow = true
            columns[index].appendElement(UnsafeRawBufferPointer(utf8), jsonb: form == 1)
            return true
        } ?? false
    }

    /// `bind(at:_:_:)` of a double into a `double precision` column: its element (8 bytes,
    /// big-endian). False for NaN (refused), another column or past the columns.
    @inline(__always)
    mutating func bindDouble(_ value: Double, at number: Int32) -> Bool {
        let index = Int(number) - 1
        guard index >= 0, index < types.count, types[index] == .float8, !value.isNaN else { return false }
        columns[index].dropBound()
        bindsPartialRow = true
        withUnsafeBytes(of: value.bitPattern.bigEndian) { columns[index].appendElement($0, jsonb: false) }
        return true
    }

    /// `bind(at:_:_:)` of bytes into a `bytea` column, or 16 bytes into a `uuid` one: its element,
    /// the bytes as they are. False for anything else (the caller takes `bind(at:_:_:)`).
    @inline(__always)
    mutating func bindBytes(_ bytes: UnsafeRawBufferPointer, at number: Int32) -> Bool {
        let index = Int(number) - 1
        guard index >= 0, index < types.count, bytes.count <= PostgresParameters.largestValue else { return false }
        let type = types[index]
        guard type == .bytea || (type == .uuid && bytes.count == 16) else { return false }
        columns[index].dropBound()
        bindsPartialRow = true
        columns[index].appendElement(bytes, jsonb: false)
        return true
    }

    /// `bind(at:_:_:)` of NULL (which every column takes).
    mutating func bindNull(at number: Int32) {
        let index = Int(number) - 1
        guard index >= 0, index < types.count else { return }
        columns[index].dropBound()
        bindsPartialRow = true
        columns[index].appendLength(-1)
    }

    /// The type of parameter `number` (1-based), nil past the columns.
    func type(at number: Int32) -> PostgresType? {
        let index = Int(number) - 1
        return index >= 0 && index < types.count ? types[index] : nil
    }

    /// Adds the row bound value by value, with `key`: a column it did not bind is NULL, as in the
    /// single-row statement.
    mutating func addBoundRow(key: Int64) {
        for index in types.indices { columns[index].endRow() }
        if keyed { keys.append(key) }
        count += 1
        bindsPartialRow = false
    }

    /// Drops the values of a row bound in part or refused.
    mutating func dropPartialRow() {
        guard bindsPartialRow else { return }
        for index in types.indices { columns[index].dropBound() }
        bindsPartialRow = false
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
        for index in types.indices {
            let element = elements[index] == .textCast ? PostgresType.text : types[index]
            let hasNulls = columns[index].rowsHaveNulls
            let rows = count
            // The column's buffer is the array: its header written in the room kept before the
            // elements, then handed over without a copy (`ElementColumns.Column.takeRows`).
            let array = columns[index].takeRows { header in
                Self.writeHeader(header, element: element, count: rows, hasNulls: hasNulls)
            }
            statement.bind(.blob(array), at: parameter)
            parameter += 1
        }
        keys.removeAll(keepingCapacity: true)
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

    /// A one-dimensional array of `count` elements: its header (dimensions, null flag, element
    /// type, length, lower bound), then the elements `write` writes: each a length (4 bytes, -1 for
    /// NULL) and `dataBytes` bytes of values in all.
    private static func array(element: PostgresType, count: Int, hasNulls: Bool, dataBytes: Int,
                              _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Data {
        let header = ElementColumns.Column.headerBytes
        let size = header + 4 * count + dataBytes
        // Every byte is written here: a buffer of its own handed to `Data`, not one it zeroes first.
        guard let memory = malloc(size) else { fatalError("out of memory for an array of \(size) bytes") }
        let bytes = UnsafeMutableRawBufferPointer(start: memory, count: size)
        writeHeader(memory, element: element, count: count, hasNulls: hasNulls)
        write(UnsafeMutableRawBufferPointer(rebasing: bytes[header...]))
        return Data(bytesNoCopy: memory, count: size, deallocator: .free)
    }

    /// Writes a one-dimensional array's header (`ElementColumns.Column.headerBytes` bytes) at
    /// `header`: dimensions, null flag, element type, length, lower bound.
    private static func writeHeader(_ header: UnsafeMutableRawPointer, element: PostgresType, count: Int, hasNulls: Bool) {
        let bytes = UnsafeMutableRawBufferPointer(start: header, count: ElementColumns.Column.headerBytes)
        var at = 0
        store(Int32(1), at: &at, in: bytes)
        store(Int32(hasNulls ? 1 : 0), at: &at, in: bytes)
        store(element.rawValue, at: &at, in: bytes)
        store(Int32(count), at: &at, in: bytes)
        store(Int32(1), at: &at, in: bytes)
    }

    /// Stores `value` big-endian at `at`, and moves `at` past it.
    private static func store<I: FixedWidthInteger>(_ value: I, at: inout Int, in bytes: UnsafeMutableRawBufferPointer) {
        bytes.storeBytes(of: value.bigEndian, toByteOffset: at, as: I.self)
        at += MemoryLayout<I>.size
    }
}

/// The elements of a `PostgresColumnArrays`' columns (each a length, 4 bytes big-endian, -1 for
/// NULL, then its bytes), one growing buffer per column, for the one `PostgresColumnArrays` that
/// made it (it is never copied: `PostgresRowStatement` holds it). Raw buffers, not `[UInt8]`:
/// an element is a bounds check and one or two stores or a copy, with no uniqueness check nor
/// retain of a column's storage per value.
final class ElementColumns {
    struct Column {
        /// The room kept at the start of the buffer for the array's header, written when the rows
        /// are sent (`takeRows`): the buffer is then the array itself, sent without a copy.
        static let headerBytes = 20
        /// The header's room, then the elements (nil until the first one).
        fileprivate(set) var bytes: UnsafeMutableRawPointer?
        /// The end of the bytes written (the header's room counts).
        fileprivate(set) var count = Column.headerBytes
        fileprivate var capacity = 0
        /// The end of the bytes that hold the rows' elements (after them, the row being bound's).
        fileprivate(set) var rowsEnd = Column.headerBytes
        /// Whether a row's element is NULL.
        fileprivate(set) var rowsHaveNulls = false

        /// Where `n` more bytes go (the buffer grown first when needed).
        @inline(__always)
        private mutating func reserve(_ n: Int) -> UnsafeMutableRawPointer {
            if capacity - count < n { grow(n) }
            return bytes.unsafelyUnwrapped + count
        }

        @inline(never)
        private mutating func grow(_ n: Int) {
            let capacity = max(2 * self.capacity, count + n, 256)
            guard let grown = realloc(bytes, capacity) else { fatalError("out of memory for \(capacity) bytes of a column's array") }
            bytes = grown
            self.capacity = capacity
        }

        /// Appends an element of no bytes but its length (-1: NULL).
        @inline(__always)
        mutating func appendLength(_ length: Int32) {
            reserve(4).storeBytes(of: length.bigEndian, as: Int32.self)
            count += 4
        }

        /// Appends an element of `value` (jsonb: after its version byte, 1).
        @inline(__always)
        mutating func appendElement(_ value: UnsafeRawBufferPointer, jsonb: Bool) {
            let head = jsonb ? 5 : 4
            let at = reserve(head + value.count)
            at.storeBytes(of: Int32(truncatingIfNeeded: value.count + head - 4).bigEndian, as: Int32.self)
            if jsonb { at.storeBytes(of: 1, toByteOffset: 4, as: UInt8.self) }
            if let source = value.baseAddress, value.count > 0 { (at + head).copyMemory(from: source, byteCount: value.count) }
            count += head + value.count
        }

        /// Drops the element of the row being bound, if any.
        @inline(__always)
        mutating func dropBound() {
            count = rowsEnd
        }

        /// Ends a row: its element is the one bound, else NULL.
        @inline(__always)
        mutating func endRow() {
            let bound = count - rowsEnd
            if bound == 0 {
                appendLength(-1)
                rowsHaveNulls = true
            } else if bound == 4 && !rowsHaveNulls {
                // NULL's element is its length alone, -1; any other's length is at least 0.
                rowsHaveNulls = bytes.unsafelyUnwrapped.load(fromByteOffset: rowsEnd, as: UInt8.self) == 0xFF
            }
            rowsEnd = count
        }

        /// The rows' elements as an array, taken out of the column: `header` writes the array's
        /// header in the room before them, and the buffer is handed to the array as it is (no
        /// copy; a save's arrays were copied twice on their way to libpq: docs/Benchmarks.md,
        /// "Writes"). The column goes on in a new buffer of the same capacity, holding the
        /// elements of a row being bound.
        mutating func takeRows(header: (UnsafeMutableRawPointer) -> Void) -> Data {
            if bytes == nil { grow(0) }
            let taken = bytes.unsafelyUnwrapped
            header(taken)
            guard let fresh = malloc(capacity) else { fatalError("out of memory for \(capacity) bytes of a column's array") }
            let bound = count - rowsEnd
            if bound > 0 { (fresh + Self.headerBytes).copyMemory(from: taken + rowsEnd, byteCount: bound) }
            let size = rowsEnd
            bytes = fresh
            count = Self.headerBytes + bound
            rowsEnd = Self.headerBytes
            rowsHaveNulls = false
            return Data(bytesNoCopy: taken, count: size, deallocator: .free)
        }
    }

    private let columns: UnsafeMutablePointer<Column>
    private let count: Int

    init(count: Int) {
        self.count = count
        columns = .allocate(capacity: max(count, 1))
        columns.initialize(repeating: Column(), count: count)
    }

    deinit {
        for index in 0..<count { free(columns[index].bytes) }
        columns.deinitialize(count: count)
        columns.deallocate()
    }

    /// Column `index` (checked by the caller against the columns' count), changed in place.
    subscript(index: Int) -> Column {
        @inline(__always) get { columns[index] }
        @inline(__always) _modify { yield &columns[index] }
    }
}
