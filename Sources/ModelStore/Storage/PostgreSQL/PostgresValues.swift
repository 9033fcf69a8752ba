import Foundation

/// A PostgreSQL type, by its OID (the numbers are fixed in PostgreSQL's catalog, `pg_type`).
package struct PostgresType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let bool = PostgresType(rawValue: 16)
    package static let bytea = PostgresType(rawValue: 17)
    package static let char = PostgresType(rawValue: 18)
    package static let name = PostgresType(rawValue: 19)
    package static let int8 = PostgresType(rawValue: 20)
    package static let int2 = PostgresType(rawValue: 21)
    package static let int4 = PostgresType(rawValue: 23)
    package static let text = PostgresType(rawValue: 25)
    package static let oid = PostgresType(rawValue: 26)
    package static let json = PostgresType(rawValue: 114)
    package static let float4 = PostgresType(rawValue: 700)
    package static let float8 = PostgresType(rawValue: 701)
    /// A parameter or literal whose type is not yet known.
    package static let unknown = PostgresType(rawValue: 705)
    package static let bpchar = PostgresType(rawValue: 1042)
    package static let varchar = PostgresType(rawValue: 1043)
    package static let numeric = PostgresType(rawValue: 1700)
    package static let uuid = PostgresType(rawValue: 2950)
    package static let jsonb = PostgresType(rawValue: 3802)

    /// The types whose binary form this client decodes; a statement returning any other type
    /// (a date, an array, …) gets its results as text.
    static let binaryReadable: Set<PostgresType> = [.bool, .bytea, .char, .name, .int8, .int2, .int4, .text, .oid, .json,
                                                    .float4, .float8, .unknown, .bpchar, .varchar, .numeric, .uuid, .jsonb]
    /// The types whose values are text in both formats.
    static let textual: Set<PostgresType> = [.char, .name, .text, .json, .unknown, .bpchar, .varchar]

    package var description: String {
        switch self {
        case .bool: return "boolean"
        case .bytea: return "bytea"
        case .char: return "\"char\""
        case .name: return "name"
        case .int8: return "bigint"
        case .int2: return "smallint"
        case .int4: return "integer"
        case .text: return "text"
        case .oid: return "oid"
        case .json: return "json"
        case .float4: return "real"
        case .float8: return "double precision"
        case .unknown: return "unknown"
        case .bpchar: return "character"
        case .varchar: return "character varying"
        case .numeric: return "numeric"
        case .uuid: return "uuid"
        case .jsonb: return "jsonb"
        default: return "type \(rawValue)"
        }
    }
}

/// The parameters of one execution, encoded for `PQexecPrepared`: every value in one buffer, sent
/// in the format that fits the parameter's type as the server inferred it when preparing (see
/// docs/PostgreSQL.md, "Binding").
struct PostgresParameters {
    /// Text format: the value's text, NUL-terminated; binary format: the type's wire bytes.
    enum Format: Int32 {
        case text = 0
        case binary = 1
    }

    private(set) var bytes: [UInt8] = []
    /// Per value: where its bytes start in `bytes`; -1 for NULL; -2 - i for the `i`-th value sent
    /// in place (`appendInPlace`).
    private(set) var offsets: [Int] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []
    /// The size from which bytes a parameter takes as they are are sent from their own storage.
    static let inPlaceBytes = 4096

    init(capacity: Int) {
        reserve(capacity)
    }

    /// Makes room for `count` values (their bytes aside) unless there is.
    mutating func reserve(_ count: Int) {
        guard offsets.capacity < count else { return }
        offsets.reserveCapacity(count)
        lengths.reserveCapacity(count)
        formats.reserveCapacity(count)
    }

    var count: Int { offsets.count }

    /// Reserves room for `byteCount` bytes of values.
    mutating func reserveBytes(_ byteCount: Int) {
        bytes.reserveCapacity(byteCount)
    }

    /// The largest value PostgreSQL takes in one field (1 GB less one byte).
    static let largestValue = (1 << 30) - 1

    /// Appends `value` for parameter number `number` (1-based) of type `type`.
    /// - Throws: `PostgresError` `.invalidValue` when the value cannot be sent as that type exactly.
    mutating func append(_ value: SQLValue, type: PostgresType, number: Int) throws(PostgresError) {
        switch value {
        case .null: appendNull()
        case .integer(let integer): try appendInteger(integer, type: type, number: number)
        case .real(let real): try appendReal(real, type: type, number: number)
        case .text(let text): try appendText(text, type: type, number: number)
        case .blob(let data):
            var refused: PostgresError?
            data.withUnsafeBytes { bytes in
                do throws(PostgresError) { try appendBytes(bytes, type: type, number: number) } catch { refused = error }
            }
            if let refused { throw refused }
        }
    }

    // The typed appends: what `append(_:type:number:)` does for each kind of value, without a
    // `SQLValue` (`PostgresRowBatch` binds a row's values straight into its columns).

    /// Appends a value of `count` bytes sent from its own storage, not copied: the `index`-th of
    /// the values `withArrays(sendingInPlace:_:)` is given (a batch's arrays, docs/PostgreSQL.md,
    /// "Batched writes"), when it is binary of at least `inPlaceBytes` bytes and `appendBytes`
    /// would take it as it is (not for a uuid, a number, a boolean or JSON); false, with nothing
    /// appended, otherwise. The values are not kept here but by the statement
    /// (`PostgresStatement.sentInPlace`): a fifth stored property made every copy of the
    /// parameters go through value witnesses (about 1,800 instructions a lookup, when an execution
    /// copied them out and back).
    mutating func appendInPlace(index: Int, count: Int, type: PostgresType) -> Bool {
        guard count >= Self.inPlaceBytes, count <= Self.largestValue else { return false }
        switch type {
        case .uuid, .json, .jsonb, .numeric, .bool, .int2, .int4, .int8, .oid, .float4, .float8: return false
        default: break
        }
        offsets.append(-2 - index)
        lengths.append(Int32(truncatingIfNeeded: count))
        formats.append(Format.binary.rawValue)
        return true
    }

    /// Appends NULL.
    mutating func appendNull() {
        offsets.append(-1)
        lengths.append(0)
        formats.append(Format.text.rawValue)
    }

    /// Appends text for a parameter of type `type` (bytea: its UTF-8 bytes).
    /// - Throws: `.invalidValue` for text above 1 GB or holding U+0000.
    mutating func appendText(_ text: String, type: PostgresType, number: Int) throws(PostgresError) {
        guard text.utf8.count <= Self.largestValue else {
            throw Self.refuse(number, "the text has \(text.utf8.count) bytes, more than the 1 GB PostgreSQL takes in one value")
        }
        if type == .bytea {
            appendBinary(Array(text.utf8))
        } else {
            try appendText(text, number: number)
        }
    }

    /// Appends bytes for a parameter of type `type`.
    /// - Throws: `.invalidValue` for bytes above 1 GB, a uuid not of 16 bytes, bytes for a number, a boolean or JSON.
    mutating func appendBytes(_ data: UnsafeRawBufferPointer, type: PostgresType, number: Int) throws(PostgresError) {
        guard data.count <= Self.largestValue else {
            throw Self.refuse(number, "the value has \(data.count) bytes, more than the 1 GB PostgreSQL takes in one value")
        }
        switch type {
        case .uuid:
            guard data.count == 16 else {
                throw Self.refuse(number, "a uuid needs 16 bytes, the value has \(data.count)")
            }
        case .json, .jsonb, .numeric, .bool, .int2, .int4, .int8, .oid, .float4, .float8:
            throw Self.refuse(number, "bytes cannot be stored as \(type)")
        default:
            break
        }
        appendBinary(data)
    }

    /// Appends an integer for a parameter of type `type`.
    /// - Throws: `.invalidValue` when it is out of the type's range or has no exact value of it.
    mutating func appendInteger(_ integer: Int64, type: PostgresType, number: Int) throws(PostgresError) {
        switch type {
        case .int8: appendBigEndian(UInt64(bitPattern: integer))
        case .int4:
            guard let value = Int32(exactly: integer) else { throw Self.refuse(number, "\(integer) is out of range for integer") }
            appendBigEndian(UInt32(bitPattern: value))
        case .int2:
            guard let value = Int16(exactly: integer) else { throw Self.refuse(number, "\(integer) is out of range for smallint") }
            appendBigEndian(UInt16(bitPattern: value))
        case .oid:
            guard let value = UInt32(exactly: integer) else { throw Self.refuse(number, "\(integer) is out of range for oid") }
            appendBigEndian(value)
        case .bool:
            guard integer == 0 || integer == 1 else { throw Self.refuse(number, "\(integer) is not a boolean (0 or 1)") }
            appendBinary(CollectionOfOne(UInt8(integer)))
        case .float8:
            guard let value = Double(exactly: integer) else { throw Self.refuse(number, "\(integer) has no exact double precision value") }
            appendBigEndian(value.bitPattern)
        case .float4:
            guard let value = Float(exactly: integer) else { throw Self.refuse(number, "\(integer) has no exact real value") }
            appendBigEndian(value.bitPattern)
        case .bytea, .uuid:
            throw Self.refuse(number, "an integer cannot be stored as \(type)")
        default:
            try appendText(String(integer), number: number)
        }
    }

    /// Appends a double for a parameter of type `type`.
    /// - Throws: `.invalidValue` for NaN, or a value out of the type's range or without an exact value of it.
    mutating func appendReal(_ real: Double, type: PostgresType, number: Int) throws(PostgresError) {
        guard !real.isNaN else { throw Self.refuse(number, "cannot store NaN (not a number)") }
        switch type {
        case .float8: appendBigEndian(real.bitPattern)
        case .float4:
            let value = Float(real)
            guard value.isFinite || real.isInfinite else { throw Self.refuse(number, "\(real) is out of range for real") }
            appendBigEndian(value.bitPattern)
        case .int8, .int4, .int2, .oid, .bool:
            guard let integer = Int64(exactly: real) else { throw Self.refuse(number, "\(real) is not a whole number that fits \(type)") }
            try appendInteger(integer, type: type, number: number)
        case .bytea, .uuid:
            throw Self.refuse(number, "a number cannot be stored as \(type)")
        default:
            try appendText(Self.text(of: real), number: number)
        }
    }

    /// A double as PostgreSQL reads it back to the same value (shortest exact digits; infinities
    /// spelled as PostgreSQL spells them).
    static func text(of real: Double) -> String {
        if real.isInfinite { return real < 0 ? "-Infinity" : "Infinity" }
        return "\(real)"
    }

    private mutating func appendText(_ text: String, number: Int) throws(PostgresError) {
        var text = text
        let start = bytes.count
        let hasNUL = text.withUTF8 { utf8 -> Bool in
            if utf8.contains(0) { return true }
            bytes.append(contentsOf: utf8)
            return false
        }
        if hasNUL { throw Self.refuse(number, "the text contains a NUL character (U+0000), which PostgreSQL text cannot hold") }
        bytes.append(0)
        offsets.append(start)
        lengths.append(Int32(truncatingIfNeeded: bytes.count - start - 1))
        formats.append(Format.text.rawValue)
    }

    private mutating func appendBinary<C: Collection>(_ value: C) where C.Element == UInt8 {
        offsets.append(bytes.count)
        lengths.append(Int32(truncatingIfNeeded: value.count))
        formats.append(Format.binary.rawValue)
        bytes.append(contentsOf: value)
    }

    /// Raw bytes appended as typed bytes: an array copies a typed buffer at once, where it takes
    /// raw bytes one by one (ten times the instructions for a 16-byte value).
    private mutating func appendBinary(_ value: UnsafeRawBufferPointer) {
        value.withMemoryRebound(to: UInt8.self) { appendBinary($0) }
    }

    private mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        withUnsafeBytes(of: value.bigEndian) { appendBinary($0) }
    }

    /// Drops every value, keeping the arrays' storage for the next values.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
    }

    /// The bytes the arrays hold room for.
    var reservedBytes: Int {
        bytes.capacity + offsets.capacity * MemoryLayout<Int>.stride + (lengths.capacity + formats.capacity) * MemoryLayout<Int32>.stride
    }

    /// Drops the last `n` values.
    mutating func removeLast(_ n: Int) {
        guard n > 0 else { return }
        let kept = count - n
        if kept == 0 {
            bytes.removeAll(keepingCapacity: true)
        } else if let end = offsets[kept...].filter({ $0 >= 0 }).min() {
            bytes.removeSubrange(end...)
        }
        offsets.removeLast(n)
        lengths.removeLast(n)
        formats.removeLast(n)
    }

    static func refuse(_ number: Int, _ problem: String) -> PostgresError {
        PostgresError(kind: .invalidValue, message: "cannot bind parameter $\(number): \(problem)")
    }

    /// Calls `body` with libpq's arrays: value pointers (nil for NULL), lengths and formats. The
    /// values are read in place and the pointers made on the stack (a few parameters' execution
    /// copies nothing and allocates nothing here: docs/PostgreSQL.md, "Binding"). `values` are the
    /// values `appendInPlace` appended (by index), pointed at in their own storage: their starts
    /// read first (`withStarts`), each in its `withUnsafeBytes`.
    @inline(__always)
    func withArrays<T>(sendingInPlace values: [Data],
                       _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T) -> T {
        if values.isEmpty { return withArrays(inPlace: UnsafeBufferPointer(start: nil, count: 0), body) }
        return values.withUnsafeBufferPointer { values in
            withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: values.count) { starts in
                Self.withStarts(of: values, from: 0, in: starts) { withArrays(inPlace: UnsafeBufferPointer(starts), body) }
            }
        }
    }

    /// The arrays of `withArrays(sendingInPlace:_:)`, the values sent in place starting at
    /// `inPlace` (by index).
    @inline(__always)
    private func withArrays<T>(inPlace: UnsafeBufferPointer<UnsafeRawPointer>,
                               _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: max(offsets.count, 1)) { pointers in
            // A zero-length value needs a non-nil pointer (nil means NULL): with no bytes at all,
            // a byte of the stack; else the buffer's (a zero-length value's offset is at most its
            // end, and libpq reads no byte of it).
            var empty: UInt8 = 0
            return withUnsafePointer(to: &empty) { emptyByte in
                bytes.withUnsafeBufferPointer { buffer in
                    let base = buffer.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(emptyByte)
                    for (index, offset) in offsets.enumerated() {
                        if offset >= 0 {
                            pointers[index] = (base + offset).assumingMemoryBound(to: CChar.self)
                        } else {
                            pointers[index] = offset == -1 ? nil : inPlace[-2 - offset].assumingMemoryBound(to: CChar.self)
                        }
                    }
                    return lengths.withUnsafeBufferPointer { lengthBuffer in
                        formats.withUnsafeBufferPointer { formatBuffer in
                            body(UnsafePointer(pointers.baseAddress), lengthBuffer.baseAddress, formatBuffer.baseAddress)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with the start of each of `values` from `index` on in `starts`, each read in
    /// its `withUnsafeBytes`. Static and not inlined: unrolled into its caller as a method, each
    /// level copied the parameters.
    @inline(never)
    private static func withStarts<T>(of values: UnsafeBufferPointer<Data>, from index: Int,
                                      in starts: UnsafeMutableBufferPointer<UnsafeRawPointer>, _ body: () -> T) -> T {
        guard index < values.count else { return body() }
        return values[index].withUnsafeBytes { value in
            // Not empty: at least `inPlaceBytes`.
            starts[index] = value.baseAddress.unsafelyUnwrapped
            return withStarts(of: values, from: index + 1, in: starts, body)
        }
    }
}

/// Decoding of result values, binary (`PostgresType.binaryReadable`) or text.
enum PostgresDecoding {
    static func bigEndian<I: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as type: I.Type) -> I {
        guard bytes.count >= MemoryLayout<I>.size else { return 0 }
        return I(bigEndian: bytes.loadUnaligned(as: I.self))
    }

    /// A column as a 64-bit integer: the one integer decoder of this client (`PostgresStatement`
    /// and `PostgresRows` both read through it). Integers as they are; a real truncated toward
    /// zero (clamped), as SQLite converts; decimal text only when it is a whole number ("42",
    /// numeric's "42.000"); nil for anything else (text such as "12.5" or "abc", bytes, NaN):
    /// the reader then reports the value instead of a wrong number. NULL (no bytes) reads as 0.
    static func int64(_ bytes: UnsafeRawBufferPointer, type: PostgresType, binary: Bool) -> Int64? {
        if binary {
            switch type {
            case .int8: return bigEndian(bytes, as: Int64.self)
            case .int4: return Int64(bigEndian(bytes, as: Int32.self))
            case .int2: return Int64(bigEndian(bytes, as: Int16.self))
            default: break
            }
        }
        return int64(binary ? self.binary(bytes, type: type) : text(bytes, type: type))
    }

    /// A decoded value as a 64-bit integer, by the rules of `int64(_:type:binary:)`.
    static func int64(_ value: SQLValue) -> Int64? {
        switch value {
        case .null: return 0
        case .integer(let integer): return integer
        case .real(let real):
            guard !real.isNaN else { return nil }
            return Int64(exactly: real.rounded(.towardZero)) ?? (real < 0 ? .min : .max)
        case .text(let text): return wholeNumber(text)
        case .blob: return nil
        }
    }

    /// Decimal text that is a whole number in Int64's range: digits with an optional sign, and an
    /// optional fraction of zeros (numeric's display scale); nil for anything else.
    static func wholeNumber(_ text: String) -> Int64? {
        if let integer = Int64(text) { return integer }
        guard let dot = text.firstIndex(of: "."), text[text.index(after: dot)...].allSatisfy({ $0 == "0" }) else { return nil }
        return Int64(text[..<dot])
    }

    /// A column as a double: the number, decimal text read exactly as Swift reads it, nil for
    /// anything else. NULL (no bytes) reads as 0.
    static func double(_ bytes: UnsafeRawBufferPointer, type: PostgresType, binary: Bool) -> Double? {
        if binary {
            switch type {
            case .float8: return Double(bitPattern: bigEndian(bytes, as: UInt64.self))
            case .float4: return Double(Float(bitPattern: bigEndian(bytes, as: UInt32.self)))
            case .int8: return Double(bigEndian(bytes, as: Int64.self))
            case .int4: return Double(bigEndian(bytes, as: Int32.self))
            case .int2: return Double(bigEndian(bytes, as: Int16.self))
            default: break
            }
        }
        switch binary ? self.binary(bytes, type: type) : text(bytes, type: type) {
        case .null: return 0
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        case .text(let text): return Double(text)
        case .blob: return nil
        }
    }

    /// Whether a column of `type` holds its text's UTF-8 bytes as they are, in the given format
    /// (jsonb's binary form has a version byte first: `textOffset`).
    static func holdsText(_ type: PostgresType, binary: Bool) -> Bool {
        switch type {
        case .char, .name, .text, .json, .unknown, .bpchar, .varchar, .jsonb: return true
        case .numeric: return !binary
        default: return false
        }
    }

    /// Where the text starts in a column's bytes (1 for binary jsonb: its version byte).
    static func textOffset(_ type: PostgresType, binary: Bool) -> Int {
        binary && type == .jsonb ? 1 : 0
    }

    // The typed reads of a non-NULL value (`PostgresRows`, `PostgresStatement`): straight from
    // libpq's bytes where the type has a direct form, else through the `SQLValue` (`binary(_:type:)`,
    // `text(_:type:)`), so each gives exactly what converting the `SQLValue` gives.

    /// The value's text in place when its type holds text (`holdsText`); nil otherwise.
    @inline(__always)
    static func textBytes(_ bytes: UnsafeRawBufferPointer, type: PostgresType, binary: Bool) -> UnsafeBufferPointer<UInt8>? {
        guard holdsText(type, binary: binary) else { return nil }
        return text(in: bytes, from: textOffset(type, binary: binary))
    }

    /// The text of a column whose type holds it, from `offset` (`textOffset`) on.
    @inline(__always)
    static func text(in bytes: UnsafeRawBufferPointer, from offset: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeRawBufferPointer(rebasing: bytes[min(offset, bytes.count)...]).assumingMemoryBound(to: UInt8.self)
    }

    /// The value as text: a textual type's text as it is, numbers in decimal (numeric exactly as
    /// PostgreSQL prints it), bytes decoded as UTF-8.
    static func string(_ bytes: UnsafeRawBufferPointer, type: PostgresType, binary: Bool) -> String {
        if let text = textBytes(bytes, type: type, binary: binary) { return String(decoding: text, as: UTF8.self) }
        switch binary ? self.binary(bytes, type: type) : self.text(bytes, type: type) {
        case .null: return ""
        case .integer(let integer): return String(integer)
        case .real(let real): return PostgresParameters.text(of: real)
        case .text(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// The value as a UUID when it is a `uuid` or a 16-byte `bytea`; nil otherwise.
    static func uuid(_ bytes: UnsafeRawBufferPointer, type: PostgresType, binary: Bool) -> UUID? {
        if binary && (type == .uuid || type == .bytea) {
            guard bytes.count == 16 else { return nil }
            return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
        }
        guard case .blob(let data) = binary ? self.binary(bytes, type: type) : self.text(bytes, type: type), data.count == 16 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: data) }
        return UUID(uuid: value)
    }

    /// The value as bytes (text as its UTF-8; a number: none).
    static func blob(_ bytes: UnsafeRawBufferPointer, type: PostgresType, binary: Bool) -> Data {
        if binary && (type == .bytea || type == .uuid) { return Data(bytes) }
        switch binary ? self.binary(bytes, type: type) : self.text(bytes, type: type) {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return Data()
        }
    }

    /// A binary boolean as an integer: 0 for false (or no byte), else 1.
    @inline(__always)
    static func bool(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        bytes.first == 0 || bytes.isEmpty ? 0 : 1
    }

    /// How a column's value goes into a cell (`PostgresRows.loadCells`): only the forms whose typed
    /// reads decode the bytes directly (binary integers, floats, booleans, uuid and bytea; text),
    /// each as `cell(_:form:textOffset:)` decodes it; any other column's cell is `other`, read
    /// through the statement.
    enum CellForm: UInt8 {
        case other, int8, int4, int2, bool, float8, float4, bytes, text

        init(_ type: PostgresType, binary: Bool) {
            if PostgresDecoding.holdsText(type, binary: binary) {
                self = .text
                return
            }
            guard binary else {
                self = .other
                return
            }
            switch type {
            case .int8: self = .int8
            case .int4: self = .int4
            case .int2: self = .int2
            case .bool: self = .bool
            case .float8: self = .float8
            case .float4: self = .float4
            case .uuid, .bytea: self = .bytes
            default: self = .other
            }
        }
    }

    /// A non-NULL value's cell, decoded as `binary(_:type:)` decodes it (text from `textOffset`,
    /// as `text(in:from:)`). A number of another width than its type's, which the typed reads give
    /// as 0, is `other`: read through them.
    @inline(__always)
    static func cell(_ bytes: UnsafeRawBufferPointer, form: CellForm, textOffset: Int) -> StoreCell {
        switch form {
        case .int8:
            return bytes.count == 8 ? StoreCell(form: .integer, bits: bigEndian(bytes, as: UInt64.self)) : .other
        case .int4:
            return bytes.count == 4 ? StoreCell(form: .integer, bits: UInt64(bitPattern: Int64(bigEndian(bytes, as: Int32.self)))) : .other
        case .int2:
            return bytes.count == 2 ? StoreCell(form: .integer, bits: UInt64(bitPattern: Int64(bigEndian(bytes, as: Int16.self)))) : .other
        case .bool:
            return StoreCell(form: .integer, bits: UInt64(bool(bytes)))
        case .float8:
            return bytes.count == 8 ? StoreCell(form: .real, bits: bigEndian(bytes, as: UInt64.self)) : .other
        case .float4:
            return bytes.count == 4 ? StoreCell(form: .real, bits: Double(Float(bitPattern: bigEndian(bytes, as: UInt32.self))).bitPattern) : .other
        case .bytes:
            return StoreCell(form: .bytes, bits: UInt64(bytes.count), bytes: bytes.baseAddress)
        case .text:
            let text = self.text(in: bytes, from: textOffset)
            return StoreCell(form: .text, bits: UInt64(text.count), bytes: text.baseAddress.map(UnsafeRawPointer.init))
        case .other:
            return .other
        }
    }

    /// The value of a binary-format column.
    static func binary(_ bytes: UnsafeRawBufferPointer, type: PostgresType) -> SQLValue {
        switch type {
        case .int8: return .integer(bigEndian(bytes, as: Int64.self))
        case .int4: return .integer(Int64(bigEndian(bytes, as: Int32.self)))
        case .int2: return .integer(Int64(bigEndian(bytes, as: Int16.self)))
        case .oid: return .integer(Int64(bigEndian(bytes, as: UInt32.self)))
        case .bool: return .integer(bool(bytes))
        case .float8: return .real(Double(bitPattern: bigEndian(bytes, as: UInt64.self)))
        case .float4: return .real(Double(Float(bitPattern: bigEndian(bytes, as: UInt32.self))))
        case .numeric: return .text(numericText(bytes))
        case .jsonb: return .text(String(decoding: bytes.dropFirst(), as: UTF8.self))  // version byte 1, then text
        case .bytea, .uuid: return .blob(Data(bytes))
        default: return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The value of a text-format column.
    static func text(_ bytes: UnsafeRawBufferPointer, type: PostgresType) -> SQLValue {
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case .int8, .int4, .int2, .oid:
            return Int64(text).map(SQLValue.integer) ?? .text(text)
        case .bool: return .integer(text == "t" ? 1 : 0)
        case .float8, .float4:
            switch text {
            case "Infinity": return .real(.infinity)
            case "-Infinity": return .real(-.infinity)
            case "NaN": return .real(.nan)
            default:
                // A `real` prints its shortest digits ("0.1"): read as a Float, then widened, as
                // its binary form reads (not the nearest double of "0.1").
                if type == .float4 { return Float(text).map { SQLValue.real(Double($0)) } ?? .text(text) }
                return Double(text).map(SQLValue.real) ?? .text(text)
            }
        case .bytea: return hexBytes(text).map(SQLValue.blob) ?? .text(text)
        case .uuid: return UUID(uuidString: text).map { uuid in .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }) } ?? .text(text)
        default: return .text(text)
        }
    }

    /// `\x0a1b…` (bytea's hex output) as bytes.
    static func hexBytes(_ text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        var data = Data(capacity: (utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = PostgresURL.Parser.hexValue(utf8[index]), let low = PostgresURL.Parser.hexValue(utf8[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    /// numeric's binary form (digit count, weight, sign, display scale, base-10000 digits) as the
    /// decimal text PostgreSQL itself prints, so no digit is lost.
    static func numericText(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count >= 8 else { return "NaN" }
        let digitCount = Int(bigEndian(UnsafeRawBufferPointer(rebasing: bytes[0..<2]), as: Int16.self))
        let weight = Int(bigEndian(UnsafeRawBufferPointer(rebasing: bytes[2..<4]), as: Int16.self))
        let sign = bigEndian(UnsafeRawBufferPointer(rebasing: bytes[4..<6]), as: UInt16.self)
        let scale = Int(bigEndian(UnsafeRawBufferPointer(rebasing: bytes[6..<8]), as: UInt16.self))
        switch sign {
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        default: break
        }
        guard bytes.count >= 8 + 2 * digitCount else { return "NaN" }
        func digit(_ index: Int) -> Int {
            guard index >= 0, index < digitCount else { return 0 }
            let offset = 8 + 2 * index
            return Int(bigEndian(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 2]), as: Int16.self))
        }
        var text = sign == 0x4000 ? "-" : ""
        // Integer part: groups 0…weight; the first without leading zeros.
        if weight < 0 {
            text += "0"
        } else {
            text += String(digit(0))
            for index in stride(from: 1, through: weight, by: 1) { text += fourDigits(digit(index)) }
        }
        if scale > 0 {
            var fraction = ""
            var index = weight + 1
            while fraction.utf8.count < scale {
                fraction += fourDigits(digit(index))
                index += 1
            }
            text += "." + fraction.prefix(scale)
        }
        return text
    }

    static func fourDigits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 4 - digits.utf8.count)) + digits
    }
}
