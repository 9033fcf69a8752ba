import CSQLite
import Foundation

/// The few SQLite C API helpers the hand-written side uses: a connection configured like the
/// runtime's (WAL, `synchronous=FULL`, foreign keys on) and column and parameter accessors.
final class HandConnection {
    let handle: OpaquePointer
    /// The store file.
    let url: URL

    /// Opens (creating if needed) the store file at `url`.
    init(url: URL) throws {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(url.path, &pointer, flags, nil) == SQLITE_OK, let pointer else {
            if let pointer { sqlite3_close_v2(pointer) }
            throw HandSQLiteError(message: "cannot open \(url.path)")
        }
        handle = pointer
        self.url = url
        sqlite3_busy_timeout(handle, 5000)
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = FULL")
    }

    /// Statements kept prepared by `kept(_:)`, by their SQL.
    private var keptStatements: [String: OpaquePointer] = [:]

    deinit {
        for statement in keptStatements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// A statement prepared once per connection and kept (the caller resets it after use, and
    /// does not finalize it): what an app that runs a query again keeps, as ModelStore's
    /// connections keep theirs.
    func kept(_ sql: String) throws -> OpaquePointer {
        if let statement = keptStatements[sql] { return statement }
        let statement = try prepare(sql)
        keptStatements[sql] = statement
        return statement
    }

    /// Runs SQL without parameters.
    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    /// A prepared statement (finalized by the caller with `sqlite3_finalize`).
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw error(sql) }
        return statement
    }

    /// Steps a statement that returns no row, then resets it.
    func runAndReset(_ statement: OpaquePointer) throws {
        guard sqlite3_step(statement) == SQLITE_DONE else { throw error(String(cString: sqlite3_sql(statement))) }
        sqlite3_reset(statement)
    }

    func error(_ sql: String) -> HandSQLiteError {
        HandSQLiteError(message: String(cString: sqlite3_errmsg(handle)) + " in " + sql)
    }
}

/// An SQLite error of the hand-written side.
struct HandSQLiteError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The slots short text and blobs are bound from, parameter n's at slot n - 1, with
/// `SQLITE_STATIC`: SQLite reads them in place instead of allocating a copy per bind, as the
/// runtime's statements bind from buffers of their own (docs/Benchmarks.md, "Writes"), so this
/// side stays the limit. Safe for this code's statements: each is bound completely right before
/// it is stepped, and bound again before it is stepped again, so no slot is written while a
/// statement that may still read it runs.
nonisolated(unsafe) private let boundCopies = UnsafeMutableRawPointer.allocate(byteCount: boundCopySlots * longestBoundCopy, alignment: 8)
private let boundCopySlots = 16
private let longestBoundCopy = 256

/// `bytes` copied into parameter `index`'s slot; nil (bind with `SQLITE_TRANSIENT`) when longer
/// than a slot or past the slots.
private func boundCopy(_ bytes: UnsafeRawBufferPointer, _ index: Int32) -> UnsafeRawPointer? {
    guard index >= 1, index <= boundCopySlots, bytes.count <= longestBoundCopy, let base = bytes.baseAddress else { return nil }
    let slot = boundCopies + Int(index - 1) * longestBoundCopy
    slot.copyMemory(from: base, byteCount: bytes.count)
    return UnsafeRawPointer(slot)
}

/// Binds `text` at the 1-based `index` (nil binds NULL).
func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String?) {
    guard var text else {
        sqlite3_bind_null(statement, index)
        return
    }
    text.withUTF8 { buffer in
        if let copy = boundCopy(UnsafeRawBufferPointer(buffer), index) {
            _ = sqlite3_bind_text(statement, index, copy.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil)
        } else if let base = buffer.baseAddress {
            _ = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { sqlite3_bind_text(statement, index, $0, Int32(buffer.count), transientDestructor) }
        } else {
            _ = sqlite3_bind_text(statement, index, "", 0, transientDestructor)
        }
    }
}

/// Binds `bytes` as a blob at the 1-based `index`.
func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer) {
    if let copy = boundCopy(bytes, index) {
        _ = sqlite3_bind_blob(statement, index, copy, Int32(bytes.count), nil)
    } else {
        _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), transientDestructor)
    }
}

/// Binds a UUID as its 16 bytes.
func bindUUID(_ statement: OpaquePointer, _ index: Int32, _ uuid: UUID) {
    withUnsafeBytes(of: uuid.uuid) { bindBlob(statement, index, $0) }
}

// Text and blob columns are read through `sqlite3_column_value`, found once per column, as the
// runtime reads them (docs/Benchmarks.md, "Reads"): each `sqlite3_column_*` call finds the column
// again, so the text-and-length pair cost two finds.

/// The text of a column (nil for NULL).
func columnText(_ statement: OpaquePointer, _ column: Int32) -> String? {
    let value = sqlite3_column_value(statement, column)
    guard let pointer = sqlite3_value_text(value) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
}

/// The bytes of a text column, without copying (valid until the next step).
func columnBytes(_ statement: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
    let value = sqlite3_column_value(statement, column)
    guard let pointer = sqlite3_value_text(value) else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value)))
}

/// A 16-byte blob column as a UUID.
func columnUUID(_ statement: OpaquePointer, _ column: Int32) throws -> UUID {
    let value = sqlite3_column_value(statement, column)
    guard sqlite3_value_bytes(value) == 16, let pointer = sqlite3_value_blob(value) else {
        throw HandSQLiteError(message: "identifier is not a 16-byte blob")
    }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: 16)) }
    return UUID(uuid: uuid)
}

/// A REAL column as a date (seconds since 2001, as the runtime stores dates).
func columnDate(_ statement: OpaquePointer, _ column: Int32) -> Date {
    Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, column))
}
