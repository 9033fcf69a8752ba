import CLibPQ
import Foundation

/// The few libpq helpers the hand-written PostgreSQL side uses: one connection, named prepared
/// statements with declared parameter types, every parameter and result in binary form.
final class HandPQ {
    let handle: OpaquePointer

    /// PostgreSQL type OIDs of the parameters the statements declare.
    enum OID {
        static let int8: Oid = 20
        static let text: Oid = 25
        static let float8: Oid = 701
        static let uuid: Oid = 2950
        static let jsonb: Oid = 3802
        static let bytea: Oid = 17
        static let int8Array: Oid = 1016
        static let textArray: Oid = 1009
        static let float8Array: Oid = 1022
        static let uuidArray: Oid = 2951
        static let jsonbArray: Oid = 3807
        static let byteaArray: Oid = 1001

        /// The element type of an array type above.
        static func element(of array: Oid) -> Oid {
            [int8Array: int8, textArray: text, float8Array: float8, uuidArray: uuid, jsonbArray: jsonb, byteaArray: bytea][array] ?? array
        }
    }

    /// Connects with libpq keyword/value parameters.
    init(parameters: [(keyword: String, value: String)]) throws {
        let keywords = parameters.map { strdup($0.keyword) } + [nil]
        let values = parameters.map { strdup($0.value) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        let connection = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
        guard let connection else { throw HandSQLiteError(message: "libpq: out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw HandSQLiteError(message: "cannot connect: \(message)")
        }
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// Runs SQL without parameters (several statements allowed).
    func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(sql) }
    }

    /// Prepares `sql` under `name` with the parameter types `types`.
    func prepare(_ name: String, _ sql: String, types: [Oid]) throws {
        let result = types.withUnsafeBufferPointer { PQprepare(handle, name, sql, Int32(types.count), $0.baseAddress) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw error(sql) }
    }

    /// Runs prepared statement `name` with `parameters` (binary); returns its result (rows in
    /// binary form), which the caller clears with `PQclear`.
    func run(_ name: String, _ parameters: HandParameters) throws -> OpaquePointer {
        let result = parameters.withPointers { values, lengths, formats, count in
            PQexecPrepared(handle, name, count, values, lengths, formats, 1)
        }
        guard let result else { throw error(name) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            PQclear(result)
            throw error(name)
        }
        return result
    }

    /// Runs prepared statement `name`, ignoring any rows.
    func runIgnoringRows(_ name: String, _ parameters: HandParameters) throws {
        PQclear(try run(name, parameters))
    }

    // Pipeline mode: the writes send their rows without waiting, `batch` at a time, and read the
    // results together (as ModelStore's saves do; docs/Benchmarks.md).

    /// The most statements waiting for their results (ModelStore's `SaveBatch.limit`).
    static let batch = 1_000
    /// The statements sent and not yet read.
    private(set) var waiting = 0

    /// Sends prepared statement `name` with `parameters` in pipeline mode; the result is read by `receive`.
    func send(_ name: String, _ parameters: HandParameters) throws {
        if waiting == 0 { guard PQenterPipelineMode(handle) == 1 else { throw error("pipeline") } }
        let sent = parameters.withPointers { values, lengths, formats, count in
            PQsendQueryPrepared(handle, name, count, values, lengths, formats, 1)
        }
        guard sent == 1 else { throw error(name) }
        waiting += 1
    }

    /// Reads the result of every statement sent, in order, handing each to `body` (which must not
    /// keep it), and leaves pipeline mode.
    func receive(_ body: (OpaquePointer) throws -> Void = { _ in }) throws {
        guard waiting > 0 else { return }
        guard PQpipelineSync(handle) == 1 else { throw error("sync") }
        var failure: HandSQLiteError?
        var left = waiting
        waiting = 0
        while true {
            guard let result = PQgetResult(handle) else {
                if left > 0 { left -= 1; continue }
                throw error("pipeline")
            }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { break }
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                if failure == nil { try body(result) }
            } else if failure == nil {
                failure = HandSQLiteError(message: String(cString: PQresultErrorMessage(result)))
            }
        }
        guard PQexitPipelineMode(handle) == 1 else { throw error("pipeline") }
        if let failure { throw failure }
    }

    /// Sends, reading the batch's results (to `body`) when `batch` statements wait.
    func sendInBatches(_ name: String, _ parameters: HandParameters, _ body: (OpaquePointer) throws -> Void = { _ in }) throws {
        try send(name, parameters)
        if waiting >= Self.batch { try receive(body) }
    }

    func error(_ what: String) -> HandSQLiteError {
        HandSQLiteError(message: String(cString: PQerrorMessage(handle)) + " in " + what)
    }
}

/// The binary parameters of one execution, in one reused byte buffer (its first byte unused, so
/// an empty value still has an address: a nil one would be NULL).
final class HandParameters {
    private let bytes = HandBytes()
    /// Per value: where it starts in `bytes`; -1 for NULL; -2 - i for `arrays[i]`.
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    /// The arrays sent from their own buffers (`array(_:)`); no run-time exclusivity check, as a
    /// C client has none.
    @exclusivity(unchecked) private var arrays: [UnsafeRawPointer] = []

    init() {
        bytes.append(UInt8(0))
    }

    /// Forgets the parameters (keeps the buffer).
    func removeAll() {
        bytes.removeAll(keepingFirst: 1)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        if !arrays.isEmpty { arrays.removeAll(keepingCapacity: true) }
    }

    func null() {
        offsets.append(-1)
        lengths.append(0)
    }

    func int64(_ value: Int64) {
        append(bigEndian: UInt64(bitPattern: value))
    }

    func double(_ value: Double) {
        append(bigEndian: value.bitPattern)
    }

    func date(_ value: Date) {
        double(value.timeIntervalSinceReferenceDate)
    }

    func text(_ value: String?) {
        guard var value else { return null() }
        offsets.append(bytes.count)
        value.withUTF8 { bytes.append(UnsafeRawBufferPointer($0)) }
        lengths.append(Int32(bytes.count - offsets[offsets.count - 1]))
    }

    /// jsonb's binary form: version 1, then the JSON text.
    func jsonb(_ json: String) {
        var json = json
        offsets.append(bytes.count)
        bytes.append(UInt8(1))
        json.withUTF8 { bytes.append(UnsafeRawBufferPointer($0)) }
        lengths.append(Int32(bytes.count - offsets[offsets.count - 1]))
    }

    func uuid(_ value: UUID) {
        offsets.append(bytes.count)
        withUnsafeBytes(of: value.uuid) { bytes.append($0) }
        lengths.append(16)
    }

    func blob(_ value: [UInt8]?) {
        guard let value else { return null() }
        offsets.append(bytes.count)
        value.withUnsafeBytes { bytes.append($0) }
        lengths.append(Int32(value.count))
    }

    /// A one-dimensional array (`HandArray.finished()`), sent from its own buffer, not copied in
    /// (as ModelStore sends a batch's arrays): `value` must not change until the statement is sent.
    func array(_ value: HandArray) {
        let array = value.finished()
        offsets.append(-2 - arrays.count)
        arrays.append(array.baseAddress!)
        lengths.append(Int32(array.count))
    }

    private func append(bigEndian value: UInt64) {
        offsets.append(bytes.count)
        bytes.append(bigEndian: value)
        lengths.append(8)
    }

    /// Calls `body` with libpq's arrays (values, lengths, formats: all binary) and the count.
    func withPointers<T>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32) -> T) -> T {
        let formats = [Int32](repeating: 1, count: offsets.count)
        let base = UnsafePointer(bytes.base.assumingMemoryBound(to: CChar.self))
        let values: [UnsafePointer<CChar>?]
        if arrays.isEmpty {
            values = offsets.map { offset in offset < 0 ? nil : base + offset }
        } else {
            let arrays = arrays
            values = offsets.map { offset in
                offset >= 0 ? base + offset : offset == -1 ? nil : UnsafePointer(arrays[-2 - offset].assumingMemoryBound(to: CChar.self))
            }
        }
        return values.withUnsafeBufferPointer { valuePointers in
            lengths.withUnsafeBufferPointer { lengthPointers in
                formats.withUnsafeBufferPointer { formatPointers in
                    body(valuePointers.baseAddress, lengthPointers.baseAddress, formatPointers.baseAddress, Int32(offsets.count))
                }
            }
        }
    }
}

/// A growable byte buffer: one allocation grown by doubling, each value stored in place (a
/// big-endian integer is one store), as ModelStore's column arrays keep theirs. `[UInt8]`'s
/// `append(contentsOf:)` of an integer's bytes took about 100 instructions (the generic path of an
/// `UnsafeRawBufferPointer`), a fifth of this side's instructions on insert.
final class HandBytes {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// The bytes (valid until the next change).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always) private func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    private func grow(_ extra: Int) {
        capacity = max(2 * capacity, count + extra)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
    }

    @inline(__always) func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always) func append<I: FixedWidthInteger>(bigEndian value: I) {
        reserve(MemoryLayout<I>.size)
        base.storeBytes(of: value.bigEndian, toByteOffset: count, as: I.self)
        count += MemoryLayout<I>.size
    }

    @inline(__always) func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
    }

    /// Stores `value` big-endian at `offset` (already written).
    @inline(__always) func store<I: FixedWidthInteger>(bigEndian value: I, at offset: Int) {
        base.storeBytes(of: value.bigEndian, toByteOffset: offset, as: I.self)
    }

    /// Forgets every byte after the first `kept`.
    func removeAll(keepingFirst kept: Int) {
        count = min(count, kept)
    }
}

/// Reading binary result columns.
enum HandColumn {
    static func isNull(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Bool {
        PQgetisnull(result, row, column) == 1
    }

    static func bytes(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let pointer = PQgetvalue(result, row, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: Int(PQgetlength(result, row, column)))
    }

    static func int64(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Int64 {
        Int64(bitPattern: bigEndian(result, row, column))
    }

    static func double(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Double {
        Double(bitPattern: bigEndian(result, row, column))
    }

    static func date(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Date {
        Date(timeIntervalSinceReferenceDate: double(result, row, column))
    }

    static func text(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> String? {
        if isNull(result, row, column) { return nil }
        return String(decoding: bytes(result, row, column), as: UTF8.self)
    }

    static func uuid(_ result: OpaquePointer, _ row: Int32, _ column: Int32) throws -> UUID {
        let value = bytes(result, row, column)
        guard value.count == 16, let base = value.baseAddress else { throw HandSQLiteError(message: "identifier is not a uuid") }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base, count: 16)) }
        return UUID(uuid: uuid)
    }

    /// A jsonb column's JSON text (after the version byte).
    static func jsonb(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let value = bytes(result, row, column)
        guard value.count > 0 else { return value }
        return UnsafeBufferPointer(rebasing: value[1...])
    }

    private static func bigEndian(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> UInt64 {
        guard let pointer = PQgetvalue(result, row, column), PQgetlength(result, row, column) == 8 else { return 0 }
        return UInt64(bigEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }
}

/// A one-dimensional array in PostgreSQL's binary form, built value by value: a multi-row
/// statement takes a column's values as one parameter (`unnest($1::bigint[], …)`; as ModelStore's
/// saves insert, docs/PostgreSQL.md, "Batched writes").
final class HandArray {
    /// The header's 20 bytes (written by `finished()`), then each element's length and bytes.
    private let bytes = HandBytes(capacity: 16 * 1024)
    private let element: Oid
    private(set) var count: Int32 = 0
    private var hasNulls = false

    init(_ element: Oid) {
        self.element = element
        for _ in 0..<5 { bytes.append(bigEndian: UInt32(0)) }
    }

    func removeAll() {
        bytes.removeAll(keepingFirst: 20)
        count = 0
        hasNulls = false
    }

    func null() {
        bytes.append(bigEndian: Int32(-1))
        hasNulls = true
        count += 1
    }

    func int64(_ value: Int64) {
        bytes.append(bigEndian: Int32(8))
        bytes.append(bigEndian: value)
        count += 1
    }

    func date(_ value: Date) {
        bytes.append(bigEndian: Int32(8))
        bytes.append(bigEndian: value.timeIntervalSinceReferenceDate.bitPattern)
        count += 1
    }

    func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { utf8 in
            bytes.append(bigEndian: Int32(utf8.count))
            bytes.append(UnsafeRawBufferPointer(utf8))
        }
        count += 1
    }

    func jsonb(_ json: String) {
        var json = json
        json.withUTF8 { utf8 in
            bytes.append(bigEndian: Int32(utf8.count + 1))
            bytes.append(UInt8(1))
            bytes.append(UnsafeRawBufferPointer(utf8))
        }
        count += 1
    }

    func blob(_ value: [UInt8]?) {
        guard let value else { return null() }
        bytes.append(bigEndian: Int32(value.count))
        value.withUnsafeBytes { bytes.append($0) }
        count += 1
    }

    func uuid(_ value: UUID) {
        bytes.append(bigEndian: Int32(16))
        withUnsafeBytes(of: value.uuid) { bytes.append($0) }
        count += 1
    }

    /// The array's bytes, header written (dimensions, null flag, element type, length, lower
    /// bound); valid until the array changes.
    func finished() -> UnsafeRawBufferPointer {
        for (index, field) in [UInt32(1), hasNulls ? 1 : 0, element, UInt32(bitPattern: count), 1].enumerated() {
            bytes.store(bigEndian: field, at: index * 4)
        }
        return bytes.bytes
    }
}
