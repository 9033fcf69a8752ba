import CSQLite
import Foundation

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the bind call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement. Owned by its connection's cache; reset before every use. Its typed reads
/// and binds (`StoreStatement`) are direct calls of SQLite's column and bind functions; code
/// generic over `StoreStatement` gets this type through `withConcreteStatement`.
final class SQLiteStatement: StoreStatement {
    /// The underlying handle.
    let handle: OpaquePointer
    /// The SQL text it was prepared from.
    let sql: String
    unowned let connection: SQLiteConnection
    /// The first bind that failed since the last reset (thrown by the next `step()`).
    @exclusivity(unchecked) var bindFailure: SQLiteError?
    /// Whether binds go through `noteBind`: the connection has a fault injector (FaultInjection.swift)
    /// or a trace that shows values (SQLiteTrace.swift).
    @exclusivity(unchecked) var observesBinds: Bool
    /// The parameters bound since the last reset, parameter n as bit n - 1 (set by `checkBind`).
    @exclusivity(unchecked) var boundParameters: UInt64 = 0
    /// The bits of all the statement's parameters, when it has 64 or fewer; nil for more.
    let allParameters: UInt64?

    /// Parameter n's copy of the short text or blob last bound to it (`boundCopy(of:at:)`), for
    /// parameters 1 to 64; made at the first such bind.
    @exclusivity(unchecked) private var boundCopies: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    /// The number of the statement's parameters.
    private let parameterCount: Int

    /// The longest text or blob bound from the statement's own copy (`boundCopy(of:at:)`); SQLite
    /// copies a longer one itself.
    static let longestBoundCopy = 256

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
        self.observesBinds = connection.observesBinds
        let count = Int(sqlite3_bind_parameter_count(handle))
        parameterCount = count
        allParameters = count > 64 ? nil : count == 64 ? UInt64.max : (UInt64(1) << UInt64(count)) - 1
    }

    deinit {
        sqlite3_finalize(handle)
        // After finalizing: until then SQLite may still point at the copies.
        if let boundCopies {
            for index in 0..<min(parameterCount, 64) { boundCopies[index]?.deallocate() }
            boundCopies.deallocate()
        }
    }

    /// `bytes` copied into parameter `index`'s own buffer, for binding with `SQLITE_STATIC`:
    /// SQLite then reads the value where it is, instead of allocating a copy per bind and freeing
    /// it at the next (`SQLITE_TRANSIENT`, about 450 instructions a value: docs/Benchmarks.md,
    /// "Writes"). SQLite requires the bytes to stay unchanged until the parameter is bound again
    /// or the statement is finalized: each parameter has a buffer of its own, of
    /// `longestBoundCopy` bytes, never moved, written only by the bind that replaces its value,
    /// and freed after `sqlite3_finalize`. Nil (bind with `SQLITE_TRANSIENT`) for a longer value
    /// or a parameter past 64.
    @inline(__always)
    private func boundCopy(of bytes: UnsafeRawBufferPointer, at index: Int32) -> UnsafeRawPointer? {
        guard bytes.count <= Self.longestBoundCopy, index >= 1, index <= 64, Int(index) <= parameterCount,
              let base = bytes.baseAddress else { return nil }
        let slot = copies() + Int(index - 1)
        let buffer: UnsafeMutableRawPointer
        if let made = slot.pointee {
            buffer = made
        } else {
            buffer = .allocate(byteCount: Self.longestBoundCopy, alignment: 8)
            slot.pointee = buffer
        }
        buffer.copyMemory(from: base, byteCount: bytes.count)
        return UnsafeRawPointer(buffer)
    }

    /// The buffers of `boundCopy(of:at:)`, made at the first use (none made yet).
    @inline(__always)
    private func copies() -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        if let boundCopies { return boundCopies }
        let count = min(parameterCount, 64)
        let made = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: count)
        made.initialize(repeating: nil, count: count)
        boundCopies = made
        return made
    }

    /// Resets the statement, ready for a new execution: a parameter the next execution does not
    /// bind is NULL, as after `sqlite3_clear_bindings`.
    ///
    /// The bindings are not cleared here (https://sqlite.org/c3ref/clear_bindings.html): `step()`
    /// binds NULL to the parameters not bound since the reset, if any, so a statement whose every
    /// parameter is bound per row (inserts, updates, history rows) skips the clearing call: it was
    /// 22 M of an insert's 314 M instructions at N = 20,000, and the insert took 3 M fewer without
    /// it (a bind frees the value it replaces either way). Statements with more than 64 parameters
    /// are still cleared here.
    func reset() {
        sqlite3_reset(handle)
        if allParameters == nil {
            sqlite3_clear_bindings(handle)
            if observesBinds { connection.trace?.forgetValues(of: handle) }
        }
        boundParameters = 0
        bindFailure = nil
    }

    /// Binds NULL to the parameters not bound since the last reset.
    private func bindNullToUnboundParameters() {
        guard let allParameters else { return }
        var unbound = allParameters & ~boundParameters
        while unbound != 0 {
            let bit = unbound.trailingZeroBitCount
            checkBind(sqlite3_bind_null(handle, Int32(bit + 1)), at: Int32(bit + 1), .null)
            unbound &= unbound - 1
        }
    }

    /// Binds `value` at the 1-based `index`.
    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let number): bindInt64(number, at: index)
        case .real(let number): bindDouble(number, at: index)
        case .text(let text): bindText(text, at: index)
        case .blob(let data): bindBlob(data, at: index)
        }
    }

    /// Binds text (from the statement's copy when short, else copied by SQLite).
    func bindText(_ text: String, at index: Int32) {
        var utf8 = text
        utf8.withUTF8 { buffer in
            if let copy = boundCopy(of: UnsafeRawBufferPointer(buffer), at: index) {
                checkBind(sqlite3_bind_text64(handle, index, copy.assumingMemoryBound(to: CChar.self), UInt64(buffer.count), nil, UInt8(SQLITE_UTF8)), at: index, .text(text))
            } else if let base = buffer.baseAddress {
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                    checkBind(sqlite3_bind_text64(handle, index, chars, UInt64(buffer.count), sqliteTransient, UInt8(SQLITE_UTF8)), at: index, .text(text))
                }
            } else {
                checkBind(sqlite3_bind_text(handle, index, "", 0, sqliteTransient), at: index, .text(text))
            }
        }
    }

    /// Binds NULL.
    func bindNull(at index: Int32) {
        checkBind(sqlite3_bind_null(handle, index), at: index, .null)
    }

    /// Binds a 64-bit integer.
    func bindInt64(_ value: Int64, at index: Int32) {
        checkBind(sqlite3_bind_int64(handle, index, value), at: index, .integer(value))
    }

    /// Binds a double. NaN is refused (SQLite would store NULL): the next `step()` throws.
    func bindDouble(_ value: Double, at index: Int32) {
        if value.isNaN {
            noteNaN(at: index)
            return
        }
        checkBind(sqlite3_bind_double(handle, index, value), at: index, .real(value))
    }

    /// Binds raw bytes as a blob (from the statement's copy when short, else copied by SQLite).
    func bindBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        if let copy = boundCopy(of: bytes, at: index) {
            checkBind(sqlite3_bind_blob64(handle, index, copy, UInt64(bytes.count), nil), at: index, .blob(Data(bytes)))
        } else {
            checkBind(sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), sqliteTransient), at: index, .blob(Data(bytes)))
        }
    }

    /// Binds a blob (from the statement's copy when short, else copied by SQLite). An empty blob
    /// binds as a zero-length blob, not NULL.
    func bindBlob(_ data: Data, at index: Int32) {
        if data.isEmpty {
            checkBind(sqlite3_bind_zeroblob(handle, index, 0), at: index, .blob(Data()))
            return
        }
        data.withUnsafeBytes { bindBytes($0, at: index) }
    }

    /// Steps once: true when a row is available, false when done.
    /// Throws `SQLiteError` for any other result.
    @discardableResult
    func step() throws -> Bool {
        if boundParameters != allParameters { bindNullToUnboundParameters() }
        if let bindFailure { throw bindFailure }
        if observesBinds { try connection.injectFault(.step, sql: sql) }
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code: result, sql: sql)
        }
    }

    /// The rows the last `INSERT`, `UPDATE` or `DELETE` of the statement's connection changed.
    var changes: Int { Int(sqlite3_changes64(sqlite3_db_handle(handle))) }

    /// The number of result columns.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The value of the 0-based `column` of the current row.
    func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(text(at: column))
        default: return .blob(blob(at: column))
        }
    }

    /// Whether the column is NULL.
    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// SQLite holds every value it is given (a NaN is refused at `step()`).
    var bindingProblem: (position: Int32, reason: String)? { nil }
    var refusesBoundValues: Bool { false }

    /// The column as a 64-bit integer, converted as SQLite converts (text's leading number, a
    /// real truncated): never nil.
    func int64(at column: Int32) -> Int64? { sqlite3_column_int64(handle, column) }

    /// The column as a double, converted as SQLite converts: never nil.
    func double(at column: Int32) -> Double? { sqlite3_column_double(handle, column) }

    /// The column's value, to read with `sqlite3_value_*`: a column read that takes several calls
    /// (text and its length, a type check then the bytes) finds the column once. Each
    /// `sqlite3_column_*` call finds the column again and checks the statement for an allocation
    /// failure, about 50 instructions, where a `sqlite3_value_*` call on the found value is 5 to
    /// 15 (docs/Benchmarks.md, "Reads"). The value is SQLite's "unprotected" one, safe to read on
    /// the thread that steps the statement: a connection is opened without its mutex
    /// (`SQLITE_OPEN_NOMUTEX`) and used by one thread at a time. It stays valid until the next
    /// `step()` or `reset()`; reading it as text converts it in place, as `sqlite3_column_text` does.
    @inline(__always)
    private func columnValue(_ column: Int32) -> OpaquePointer? {
        sqlite3_column_value(handle, column)
    }

    /// The column as text.
    func text(at column: Int32) -> String {
        let value = columnValue(column)
        guard let pointer = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column's UTF-8 text in place (any value as SQLite's text of it; nil when NULL).
    func textBytes(at column: Int32) -> UnsafeBufferPointer<UInt8>? {
        let value = columnValue(column)
        guard let pointer = sqlite3_value_text(value) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value)))
    }

    /// The column as a UUID when it is a 16-byte blob (read without copying into `Data`).
    func uuid(at column: Int32) -> UUID? {
        let value = columnValue(column)
        guard sqlite3_value_type(value) == SQLITE_BLOB, sqlite3_value_bytes(value) == 16,
              let pointer = sqlite3_value_blob(value) else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: 16)) }
        return UUID(uuid: bytes)
    }

    /// The column as bytes.
    func blob(at column: Int32) -> Data {
        let value = columnValue(column)
        guard let pointer = sqlite3_value_blob(value) else { return Data() }
        return Data(bytes: pointer, count: Int(sqlite3_value_bytes(value)))
    }
}
