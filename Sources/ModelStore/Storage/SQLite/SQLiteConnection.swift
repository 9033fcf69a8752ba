import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements. Used by one thread at a time.
final class SQLiteConnection: StoreConnection {
    /// The underlying handle.
    let handle: OpaquePointer
    var dialect: any SQLDialect { SQLiteDialect() }
    private var statements: [String: SQLiteStatement] = [:]
    /// The same statements, by the ids of `readStatement(_:id:)` (read by every plain fetch; one
    /// context uses the connection at a time: not checked for exclusive access at run time).
    @exclusivity(unchecked) private var statementsByID = StatementsByID<SQLiteStatement>()
    /// Test hook: fails the n-th step, bind or commit (see `FaultInjection.swift`); nil in normal use.
    var faultInjector: FaultInjector? {
        didSet { for statement in statements.values { statement.observesBinds = observesBinds } }
    }
    /// The statement trace of a container with a tracer (SQLiteTrace.swift); nil: none, and SQLite
    /// has no trace hook on this connection.
    let trace: SQLiteTrace?
    /// Whether statements report each bind (`SQLiteStatement.observesBinds`).
    var observesBinds: Bool { faultInjector != nil || trace?.tracer.capturesValues == true }

    /// Opens (creating if needed) the database at `path` (a file path or a `file:` URI) and
    /// configures it: foreign keys on, WAL (files), `synchronous=FULL` (files), busy timeout; with
    /// `tracer`, every statement it runs from then on is reported to it.
    init(path: String, isFile: Bool, busyTimeoutMilliseconds: Int32 = 5000, readOnly: Bool = false, tracer: StatementTracer? = nil) throws {
        var pointer: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &pointer, flags, nil)
        guard result == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let pointer { sqlite3_close_v2(pointer) }
            throw SQLiteError(code: result, extendedCode: result, message: message, sql: nil)
        }
        handle = pointer
        trace = tracer.map(SQLiteTrace.init)
        trace?.register(on: handle)
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // Outside any transaction: inside one SQLite silently ignores it.
        try execute("PRAGMA foreign_keys = ON")
        try SQLiteFunctions.register(on: handle)
        if isFile && !readOnly {
            try switchToWriteAheadLog(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try execute("PRAGMA synchronous = FULL")
        }
    }

    /// `PRAGMA journal_mode = WAL`, tried again while it meets SQLITE_BUSY within the busy timeout
    /// (counted from the first try). Connections switching the same new file at the same moment
    /// each hold its shared lock while asking for the exclusive one; SQLite then answers all but
    /// one SQLITE_BUSY at once, without waiting in the busy handler (waiting could deadlock), and
    /// the one that won is done a moment later (docs/Runtime.md, "Storage layout").
    /// A try after the first waits in the busy handler only for what is left of the timeout.
    private func switchToWriteAheadLog(busyTimeoutMilliseconds: Int32) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(busyTimeoutMilliseconds))
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        var pause: useconds_t = 1_000
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                return
            } catch let error as SQLiteError where error.code == SQLITE_BUSY && clock.now < deadline {
                usleep(pause)
                pause = min(pause * 2, 50_000)
                sqlite3_busy_timeout(handle, Int32(max((deadline - clock.now) / .milliseconds(1), 0)))
            }
        }
    }

    /// Whether another context can take this connection over as it is (`SQLiteDriver.keepForReuse`):
    /// no transaction open, no statement mid-result, no fault injected, its files not to be left
    /// as they are on close.
    var isIdle: Bool {
        guard sqlite3_get_autocommit(handle) != 0, faultInjector == nil, !leavesFilesOnClose else { return false }
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { return false }
            statement = sqlite3_next_stmt(handle, current)
        }
        return true
    }

    /// Set by `leaveFilesAsTheyAreOnClose()`.
    private var leavesFilesOnClose = false

    /// Makes closing this connection leave the store's files as they are (a refused open, #26
    /// item 13): SQLite's last connection would otherwise checkpoint the write-ahead log into
    /// the main file and remove the log (docs/Migrations.md, "Refused").
    func leaveFilesAsTheyAreOnClose() {
        leavesFilesOnClose = true
        _ = modelstore_sqlite3_no_checkpoint_on_close(handle)
    }

    deinit {
        statementsByID.removeAll()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Builds an error from the connection's last message.
    func error(code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code & 0xFF, extendedCode: sqlite3_extended_errcode(handle),
                    message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs SQL text that takes no parameters (may hold several statements).
    func execute(_ sql: String) throws {
        if faultInjector != nil, sql == "COMMIT" { try injectFault(.commit, sql: sql) }
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(code: result, sql: sql) }
    }

    /// A prepared statement for `sql`, from the cache, reset and with no bindings.
    func statement(_ sql: String) throws -> any StoreStatement { try sqliteStatement(sql) }

    func readStatement(_ sql: String, id: Int) throws -> any StoreStatement {
        try statementsByID.statement(id, reset: { $0.reset() }) { try sqliteStatement(sql) }
    }

    /// A prepared statement for `sql` as SQLite's own type (the hot paths bind and read through it
    /// directly), from the cache, reset: a parameter not bound before its first `step()` is NULL.
    func sqliteStatement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var pointer: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard result == SQLITE_OK, let pointer else { throw error(code: result, sql: sql) }
        let statement = SQLiteStatement(handle: pointer, sql: sql, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    func beginWriteTransaction() throws { try execute("BEGIN IMMEDIATE") }

    func commit() throws { try execute("COMMIT") }

    func rollback() {
        // Fails only when no transaction is open (SQLite already rolled it back, e.g. after a full disk).
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    var lastInsertedKey: Int64? { sqlite3_last_insert_rowid(handle) }

    var changes: Int { Int(sqlite3_changes64(handle)) }
}
