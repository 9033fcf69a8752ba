import Foundation

/// A PostgreSQL store opened for one container: a small pool of connections its contexts share.
///
/// A context's `PostgresStoreConnection` borrows a pooled connection for each statement it runs
/// outside a transaction, and keeps one from `BEGIN` to `COMMIT` or `ROLLBACK`; so many contexts
/// (threads, actors) share a few server connections, and their saves run in parallel, each in its
/// own transaction. There is no process-wide write lock: PostgreSQL locks the rows a transaction
/// writes, and a second save of the same row waits for the first to commit, then overwrites it
/// (last writer wins, as on SQLite where saves take turns).
final class PostgresDriver: StoreDriver, @unchecked Sendable {
    let dialect: any SQLDialect = PostgresDialect()
    /// The container's connections to the primary (thread-safe).
    let pool: PostgresConnectionPool
    /// Where contexts read (docs/Scaling.md).
    let router: PostgresReadRouter

    /// A driver for the database `url` names, with a pool of at most `maximumConnections` (a
    /// context finding all of them busy waits up to `waitTimeout` seconds), and as many per standby
    /// when reads go to standbys (`readFrom`, else the URL's `read_from`).
    ///
    /// A URL of several hosts without `target_session_attrs` gets `read-write` unless the store
    /// is read-only: a container's saves must reach the primary, wherever it is now (libpq's
    /// default, `any`, would take the first server that answers, maybe a standby).
    ///
    /// - Throws: `PostgresError` `.invalidURL` when the URL cannot be used.
    init(url: URL, maximumConnections: Int, waitTimeout: TimeInterval = 30, readOnly: Bool = false,
         readFrom: ModelConfiguration.ReadSource? = nil, standbyCatchUpTimeout: TimeInterval = 1, tracer: StatementTracer? = nil) throws {
        var address = try PostgresURL(url: url)
        let source = readFrom ?? address.storeOptions["read_from"].flatMap(ModelConfiguration.ReadSource.init(rawValue:)) ?? .primary
        router = PostgresReadRouter(url: address, source: source, catchUpTimeout: max(standbyCatchUpTimeout, 0),
                                    maximumConnections: maximumConnections, waitTimeout: waitTimeout)
        let hostCount = address.options["host"].map { $0.split(separator: ",", omittingEmptySubsequences: false).count } ?? address.hosts.count
        if hostCount > 1, !readOnly, address.options["target_session_attrs"] == nil {
            address.options["target_session_attrs"] = "read-write"
        }
        if readOnly {
            // Every session of the pool refuses writes (`allowsSave: false`).
            let setting = "-c default_transaction_read_only=on"
            address.options["options"] = address.options["options"].map { $0 + " " + setting } ?? setting
        }
        pool = PostgresConnectionPool(url: address, maximumConnections: maximumConnections, waitTimeout: waitTimeout)
        pool.tracer = tracer
        for standby in router.standbys { standby.tracer = tracer }
        if !readOnly { try pool.withConnection(Self.createCollations) }
    }

    /// Creates the collation `localizedStandard` sorts with, when the database has none visible
    /// (docs/PostgreSQL.md, "Sort order"). Another container may create it at the same moment: its
    /// error is ignored when the collation is there after all.
    static func createCollations(on connection: PostgresConnection) throws {
        let name = PostgresDialect.localizedStandardCollation
        let exists = "SELECT 1 FROM pg_collation WHERE collname = \(SQLQuote.literal(name)) AND pg_collation_is_visible(oid)"
        guard try connection.rows(exists).isEmpty else { return }
        do {
            try connection.execute("CREATE COLLATION IF NOT EXISTS \(SQLQuote.identifier(name)) \(PostgresDialect.localizedStandardCollationDefinition)")
        } catch {
            if try connection.rows(exists).isEmpty { throw error }
        }
    }

    func makeConnection() throws -> any StoreConnection { PostgresStoreConnection(pool: pool, router: router) }

    /// Runs `body` at once: PostgreSQL serializes writes row by row itself.
    func withWriteLock<T>(_ body: () throws -> T) rethrows -> T { try body() }

    /// PostgreSQL keeps the first 63 bytes of a table or column name: two names of the schema
    /// that would become one are refused (index and constraint names are shortened distinctly).
    func check(_ schema: StoredSchema) throws {
        var problems: [String] = []
        func check(_ names: [String], _ place: String) {
            var seen: [String: String] = [:]
            for name in names {
                let kept = Self.truncated(name)
                if let other = seen[kept], other != name {
                    problems.append("\(place) \"\(other)\" and \"\(name)\" are the same name to PostgreSQL, which keeps the first 63 bytes")
                }
                seen[kept] = name
            }
        }
        check(schema.tables.map(\.name) + [StorageNames.metadataTable, HistoryTables.transactions, HistoryTables.changes, HistoryTables.counter], "tables")
        for table in schema.tables {
            check([StorageNames.primaryKey, StorageNames.type] + table.columns.map(\.name), "columns of \(table.name):")
        }
        if !problems.isEmpty { throw ModelStoreError.invalidSchema(problems.joined(separator: "; ")) }
    }

    /// `name` cut to the bytes PostgreSQL keeps (whole characters, as it cuts).
    static func truncated(_ name: String) -> String {
        guard name.utf8.count > PostgresDialect.maximumNameBytes else { return name }
        var kept = ""
        for scalar in name.unicodeScalars {
            if kept.utf8.count + String(scalar).utf8.count > PostgresDialect.maximumNameBytes { break }
            kept.unicodeScalars.append(scalar)
        }
        return kept
    }
}

/// A context's connection to a PostgreSQL store: statements borrow a pooled connection for one
/// execution (reading the whole result, so the connection goes back before the rows are read),
/// a write transaction keeps its connection until it ends. Used by one context (one thread) at a
/// time, like any `StoreConnection`.
final class PostgresStoreConnection: StoreConnection {
    let pool: PostgresConnectionPool
    let router: PostgresReadRouter
    /// Where this connection's reads go; nil: the primary. Only a context sets it (its
    /// `readFrom`, else the container's): the container's own connections (schema, migrations,
    /// `erase`) keep to the primary.
    var readFrom: ModelConfiguration.ReadSource?
    /// The standby this connection last read from: its next reads try it first (docs/Scaling.md, "Which standby").
    private var standby: Int?
    var dialect: any SQLDialect { PostgresDialect() }
    /// The connection of the open transaction.
    private(set) var held: PostgresConnection?
    private var statements: [String: PostgresStoreStatement] = [:]
    /// The same statements, by the ids of `readStatement(_:id:)` (read by every plain fetch; one
    /// context uses the connection at a time: not checked for exclusive access at run time).
    @exclusivity(unchecked) private var statementsByID = StatementsByID<PostgresStoreStatement>()
    /// Called with the SQL text (`?` placeholders) of each statement as it is sent to the server
    /// (as SQLite's `sqlite3_trace_v2` statement hook): tests count queries through it.
    var trace: ((String) -> Void)?

    init(pool: PostgresConnectionPool, router: PostgresReadRouter) {
        self.pool = pool
        self.router = router
    }

    deinit {
        dropReadAhead()
        if let held { pool.giveBack(held) }
    }

    /// Runs `body` on the transaction's connection, or on one borrowed for the call.
    ///
    /// - Throws: `PostgresError` `.poolTimeout` or the error of opening a connection; what `body` throws.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if ahead != nil { dropReadAhead() }
        if let held { return try body(held) }
        let connection = try pool.borrow()
        defer { pool.giveBack(connection) }
        return try body(connection)
    }

    /// As `withConnection`, for a statement that only reads when `isRead`: outside a transaction it
    /// runs where `readFrom` says (docs/Scaling.md, "Read routing").
    func withConnection<T>(reading isRead: Bool, _ body: (PostgresConnection) throws -> T) throws -> T {
        if ahead != nil {
            if isRead { settleReadAhead() } else { dropReadAhead() }
        }
        // A write outside a transaction is committed when it returns: reads sent ahead before it
        // are not used after it.
        defer { if !isRead && held == nil { pool.noteWrite() } }
        if held == nil, isRead, let source = readFrom, source != .primary {
            return try router.read(source, primary: pool, preferred: &standby) { connection in
                try Self.namingSchemaChanges(on: connection, body)
            }
        }
        if let held { return try body(held) }
        let connection = try pool.borrow()
        defer { pool.giveBack(connection) }
        return try Self.namingSchemaChanges(on: connection, body)
    }

    /// Runs the read `body`; when the server says a table or column it names does not exist
    /// (42P01, 42703), the store's schema changed after the container opened it (it checked the
    /// schema then): another process migrated it, while this one runs the older code. The error
    /// then says so, with the version the store now records on that server (docs/Scaling.md,
    /// "History, upserts and migrations on a cluster").
    static func namingSchemaChanges<T>(on connection: PostgresConnection, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try body(connection)
        } catch var error as PostgresError where error.kind == .server && (error.sqlState == "42703" || error.sqlState == "42P01") {
            // A store that records no schema (not opened by a container) is not one that changed.
            guard let stored = try? StoreMigrator.storedDescription(fromRows: connection.rows(StoreMigrator.storedDescriptionQuery)) else { throw error }
            let version = stored.schemaVersion.map { "version \($0)" } ?? "another schema"
            error.message += " (the store's schema changed after this container opened it: it now records \(version); "
                + "another process migrated it, and this code is for an older version)"
            throw error
        }
    }

    /// Runs `sql`; after a schema change (`CREATE`, `ALTER`, `DROP`) the connection's prepared
    /// statements are prepared again on their next use (see `discardPreparedStatements`).
    func execute(_ sql: String) throws {
        trace?(sql)
        defer { if held == nil { pool.noteWrite() } }
        try withConnection { connection in
            try connection.execute(sql)
            if Self.changesSchema(sql) { try connection.discardPreparedStatements() }
        }
    }

    private static func changesSchema(_ sql: String) -> Bool {
        let head = sql.prefix(7).uppercased()
        return head.hasPrefix("ALTER ") || head.hasPrefix("DROP ") || head.hasPrefix("CREATE ")
    }

    func statement(_ sql: String) throws -> any StoreStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        let statement = PostgresStoreStatement(sql: sql, owner: self)
        statements[sql] = statement
        return statement
    }

    func readStatement(_ sql: String, id: Int) throws -> any StoreStatement {
        // Not looked up or kept by its text (hashing it cost about 2 k instructions at a context's
        // first plain query of a predicate): asked for by its text, the same SQL gets a statement
        // of its own, and both find the pooled connection's prepared statement. A read by the
        // seam's contract: not scanned by `onlyReads` (1.5 k instructions for a count's text, at
        // each context's first use of it; checked in debug builds).
        statementsByID.statement(id, reset: { $0.reset() }) { PostgresStoreStatement(sql: sql, owner: self, id: id) }
    }

    func beginWriteTransaction() throws {
        precondition(held == nil, "a PostgreSQL transaction is already open on this context's connection")
        dropReadAhead()
        let connection = try pool.borrow()
        do {
            try connection.begin()
        } catch {
            pool.giveBack(connection)
            throw error
        }
        held = connection
    }

    /// Commits; the connection goes back to the pool whether the commit succeeded or not (a failed
    /// `COMMIT` ends the transaction: PostgreSQL rolled it back).
    func commit() throws {
        guard let connection = held else { return }
        defer {
            release()
            pool.noteWrite()
        }
        try connection.commit()
        // Read-your-writes: standby reads of any context of the container wait for this position.
        if router.tracksCommits { router.noteCommit(on: connection) }
    }

    func rollback() {
        guard let connection = held else { return }
        try? connection.rollback()
        release()
    }

    private func release() {
        guard let connection = held else { return }
        held = nil
        pool.giveBack(connection)
    }

    /// Inserts return their keys (`RETURNING "$pk"`).
    var lastInsertedKey: Int64? { nil }

    // MARK: Batched writes (docs/PostgreSQL.md, "Batched writes")

    /// Whether saves send their rows in batches (true; tests turn it off to compare a save's
    /// outcome with the same save one statement at a time).
    var batchesWrites = true

    /// Inside a write transaction whose connection is sound: statements go out in pipeline mode.
    var sendsInBatches: Bool { batchesWrites && held?.canPipeline == true }

    /// Sends `statement` in the transaction's pipeline; outside a transaction (no batching) it
    /// runs at once and its result waits for `receiveSent()` all the same.
    func send(_ statement: any StoreStatement) throws {
        guard let statement = statement as? PostgresStoreStatement else { return try statement.run() }
        if let held, held.canPipeline {
            trace?(statement.sql)
            try statement.send(on: held)
        } else {
            let key = try statement.step() ? statement.int64(at: 0) : nil
            try statement.run()
            unbatched.append(SentResult(key: key, changes: statement.affectedRowCount))
        }
    }

    /// The batches read so far (tests check that saves were batched).
    private(set) var batchCount = 0

    /// Results of statements `send` ran at once.
    private var unbatched: [SentResult] = []

    var sentCount: Int { (held?.pipelinedCount ?? 0) + unbatched.count }

    func routeReads(from source: ModelConfiguration.ReadSource?) {
        readFrom = source ?? router.defaultSource
    }

    func failedOnTheServer(_ error: any Error) -> Bool {
        (error as? PostgresError)?.kind == .server
    }

    func receiveSent() -> SentResults {
        guard let held else {
            defer { unbatched.removeAll() }
            return SentResults(results: unbatched, failure: nil)
        }
        if held.pipelinedCount > 0 { batchCount += 1 }
        let (results, failure) = held.takePipelineResults()
        if unbatched.isEmpty { return SentResults(results: results, failure: failure) }
        defer { unbatched.removeAll() }
        return SentResults(results: unbatched + results, failure: failure)
    }

    /// The rows the last statement run through this connection inserted, updated or deleted.
    var changes: Int = 0

    // MARK: Reads sent ahead (docs/Runtime.md, "Batches")

    /// A read sent before it is asked for: its connection (lent to it alone until its rows are
    /// read), its statement there, the store's write count when it was sent, and its rows once read.
    private struct ReadAhead {
        let sql: String
        let bindings: [SQLValue]
        let writes: Int
        var connection: PostgresConnection?
        var statement: PostgresStatement?
        var rows: PostgresRows?
    }

    private var ahead: ReadAhead?
    /// Reads sent ahead, and those whose rows the statement they were sent for took (tests check
    /// that enumerate's batches overlap).
    private(set) var readsSentAhead = 0
    private(set) var readsTakenAhead = 0

    /// Sends the read `sql` with `bindings` now, on a connection of the pool, so the server runs it
    /// while the caller works; the next statement of this connection with the same SQL and values
    /// takes its rows (`takeReadAhead`). Sent only outside a transaction, on the primary, and when
    /// the pool has another connection to lend at once (`borrowIfSpare`); otherwise, or when
    /// sending fails, nothing is sent and the statement runs as usual.
    func readAhead(_ sql: String, _ bindings: [SQLValue]) {
        dropReadAhead()
        guard held == nil, readFrom == nil || readFrom == .primary, PostgresStoreStatement.onlyReads(sql),
              let connection = pool.borrowIfSpare() else { return }
        // Counted before sending: a write that commits from now on makes the rows stale.
        let writes = pool.writes
        do {
            let statement = try connection.statement(sql)
            statement.bind(bindings)
            try statement.sendForAllRows()
            trace?(sql)
            ahead = ReadAhead(sql: sql, bindings: bindings, writes: writes, connection: connection, statement: statement)
            readsSentAhead += 1
        } catch {
            // Giving it back reads and drops anything sent.
            pool.giveBack(connection)
        }
    }

    /// The rows of the read sent ahead, when it is `sql` with `bindings` and no write began on this
    /// connection nor committed in the store since it was sent; nil otherwise (the read is dropped:
    /// the caller runs it again), and when reading it failed (running it again reports the error as
    /// a statement run at once does, with its retries).
    func takeReadAhead(_ sql: String, _ bindings: [SQLValue]) -> PostgresRows? {
        guard let pending = ahead else { return nil }
        // Another read: it settles this one when it borrows its connection (`withConnection`).
        guard pending.sql == sql && pending.bindings == bindings else { return nil }
        guard pending.writes == pool.writes else {
            dropReadAhead()
            return nil
        }
        settleReadAhead()
        let rows = ahead?.rows
        ahead = nil
        if rows != nil { readsTakenAhead += 1 }
        return rows
    }

    /// Reads the rows of the read sent ahead into memory and gives its connection back (before
    /// another statement runs: that one borrows its own). A failure drops it.
    private func settleReadAhead() {
        guard let pending = ahead, let connection = pending.connection, let statement = pending.statement else { return }
        defer { pool.giveBack(connection) }
        do {
            ahead?.rows = try statement.receiveAllRows()
            ahead?.connection = nil
            ahead?.statement = nil
        } catch {
            if let error = error as? PostgresError, error.isStalePlan { connection.forgetPreparedStatements() }
            ahead = nil
        }
    }

    func wholeResult(of statement: any StoreStatement, integerAt column: Int32) throws -> (rows: Int, last: Int64?)? {
        try (statement as? PostgresStoreStatement)?.wholeResult(integerAt: column)
    }

    /// Drops the read sent ahead, if any: its connection goes back to the pool, which reads and
    /// drops its result, so no result stays pending there.
    func dropReadAhead() {
        guard let pending = ahead else { return }
        ahead = nil
        if let connection = pending.connection { pool.giveBack(connection) }
    }
}

/// A statement of a `PostgresStoreConnection`: bindings are kept until the first `step()`, which
/// runs it on a connection (the transaction's, or a borrowed one) and reads every row at once;
/// the following steps read the rows from memory.
final class PostgresStoreStatement: StoreStatement {
    let sql: String
    private unowned let owner: PostgresStoreConnection
    // One connection's, on one thread at a time: no run-time exclusivity checks per bind, nor per
    // value read (docs/Benchmarks.md, "No run-time exclusivity checks on per-row state").
    @exclusivity(unchecked) private var bindings: [SQLValue] = []
    @exclusivity(unchecked) private var rows: PostgresRows? {
        didSet {
            rowsReference = rows.map { Unmanaged.passUnretained($0) }
            if let rows, Int(rows.columnCount) > cellCapacity { makeCells(Int(rows.columnCount)) }
        }
    }
    /// `rows`, read without a retain and a release per value (about 25 instructions a column of a
    /// row, 11 % of a fetch all's client instructions): `rows` keeps it alive, and no read of a
    /// value runs while `rows` changes (`reset`, `execute`).
    @exclusivity(unchecked) private var rowsReference: Unmanaged<PostgresRows>?
    @exclusivity(unchecked) private var row: Int32 = -1
    /// The server statement last used, and its connection (found again without hashing the SQL).
    /// The connection by identity, not by a weak reference: a weak reference gives the connection
    /// a side table, and then every retain and release of it takes the slow path (about 80
    /// instructions for each read of `PostgresStatement.connection`, a dozen a lookup). The
    /// identity cannot name another connection: `prepared` holds its connection `unowned`, which
    /// keeps that connection's memory allocated, so no other object gets its address.
    private var preparedOn: ObjectIdentifier?
    private var prepared: PostgresStatement?

    /// Whether the statement only reads (a `SELECT` without row locks), so it may run on a standby.
    let isRead: Bool

    /// The id `PostgresStoreConnection.readStatement(_:id:)` made it for (nil: asked for by its
    /// text), which finds a pooled connection's statement without hashing the text.
    private let id: Int?

    /// A statement asked for by its text (`id` nil), whose text says whether it only reads, or a
    /// read asked for by `id` (`StoreConnection.readStatement(_:id:)`).
    init(sql: String, owner: PostgresStoreConnection, id: Int? = nil) {
        self.sql = sql
        self.owner = owner
        self.id = id
        if id != nil {
            assert(Self.onlyReads(sql), "readStatement(_:id:) for a statement that writes: \(sql)")
            isRead = true
        } else {
            isRead = Self.onlyReads(sql)
        }
    }

    /// The pooled connection's statement for this one's text.
    private func pooled(on connection: PostgresConnection) throws -> PostgresStatement {
        if let id { return try connection.statement(sql, id: id) }
        return try connection.statement(sql)
    }

    /// `SELECT …` that locks no rows (`FOR UPDATE`, `FOR SHARE`) and calls no function that writes
    /// (docs/Scaling.md, "Read routing"). Keywords in any ASCII case; one pass over the UTF-8 bytes
    /// (each new statement of a context asks, so a lookup's first fetch pays it).
    static func onlyReads(_ sql: String) -> Bool {
        var sql = sql
        return sql.withUTF8 { bytes in
            guard startsWith(bytes, at: 0, Self.select) else { return false }
            // Each marker holds a byte that is rare in a select, at a fixed place: the space after
            // `FOR`, the parenthesis of `NEXTVAL(` and `SETVAL(`, the underscore of `PG_ADVISORY`.
            // One compare a byte finds them, and the letter before it (any case: `| 0x20` makes an
            // ASCII letter lower case) must be the marker's (`R`, `L`, `G`) before the marker is
            // checked around it: a select has many spaces, few after an R (a count's text, about
            // 100 bytes, took 3.5 k instructions without that test). (A marker cannot start inside
            // the `SELECT ` checked above, so none is missed before it.)
            for index in Self.select.count..<bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "):
                    if bytes[index - 1] | 0x20 == UInt8(ascii: "r"), Self.rowLocks.contains(where: { startsWith(bytes, at: index - 3, $0) }) { return false }
                case UInt8(ascii: "("):
                    if bytes[index - 1] | 0x20 == UInt8(ascii: "l"),
                       startsWith(bytes, at: index - 7, Self.nextval) || startsWith(bytes, at: index - 6, Self.setval) { return false }
                case UInt8(ascii: "_"):
                    if bytes[index - 1] | 0x20 == UInt8(ascii: "g"), startsWith(bytes, at: index - 2, Self.advisory) { return false }
                default: break
                }
            }
            return true
        }
    }

    private static let select = Array("SELECT ".utf8)
    /// The markers of a statement that writes (upper case): the row locks, each starting `FOR `,
    /// and the functions that write.
    private static let rowLocks = ["FOR UPDATE", "FOR SHARE", "FOR NO KEY UPDATE", "FOR KEY SHARE"].map { Array($0.utf8) }
    private static let nextval = Array("NEXTVAL(".utf8)
    private static let setval = Array("SETVAL(".utf8)
    private static let advisory = Array("PG_ADVISORY".utf8)

    /// Whether `bytes` holds `marker` (upper case) at `index` (false for an index before the
    /// first byte), ignoring the case of ASCII letters.
    private static func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ marker: [UInt8]) -> Bool {
        guard index >= 0, bytes.count - index >= marker.count else { return false }
        for (offset, expected) in marker.enumerated() {
            let byte = bytes[index + offset]
            let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
            if upper != expected { return false }
        }
        return true
    }

    func reset() {
        bindingProblem = nil
        bindings.removeAll(keepingCapacity: true)
        rows = nil
        row = -1
    }

    /// The first bound text holding U+0000, which PostgreSQL text cannot hold (docs/PostgreSQL.md,
    /// "What differs from the SQLite store"): `save()` names its property.
    private(set) var bindingProblem: (position: Int32, reason: String)?

    func bind(_ value: SQLValue, at index: Int32) {
        let position = Int(index) - 1
        guard position >= 0 else { return }
        if bindingProblem == nil, case .text(let text) = value, Self.holdsNUL(text) {
            bindingProblem = (index, "the text holds the character U+0000 (NUL), which PostgreSQL text cannot hold")
        }
        // Values are bound in order after a reset: appended without growing the array first.
        if position == bindings.count {
            bindings.append(value)
            return
        }
        if bindings.count < position { bindings.append(contentsOf: repeatElement(.null, count: position - bindings.count)) }
        if position == bindings.count { bindings.append(value) } else { bindings[position] = value }
    }

    /// Whether `text` holds U+0000 (`memchr` over its UTF-8 bytes where they are contiguous).
    static func holdsNUL(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, 0, bytes.count) != nil
        } ?? text.utf8.contains(0)
    }

    func step() throws -> Bool {
        if rowsReference == nil { try execute(on: owner) }
        guard let rows = rowsReference else { return false }
        row += 1
        return row < rows._withUnsafeGuaranteedRef { $0.rowCount }
    }

    /// Runs the statement if it has not run, without stepping to a row, and gives its number of
    /// rows and the integer in `column` of the last one (`StoreConnection.wholeResult`).
    func wholeResult(integerAt column: Int32) throws -> (rows: Int, last: Int64?) {
        if rowsReference == nil { try execute(on: owner) }
        guard let rows, rows.rowCount > 0 else { return (0, nil) }
        return (Int(rows.rowCount), rows.int64(row: rows.rowCount - 1, column: column))
    }

    /// Runs the statement on a connection of `owner` (passed once: each read of the `unowned`
    /// property retains and releases it, about 80 instructions: `PostgresStatement.start()`).
    private func execute(on owner: PostgresStoreConnection) throws {
        if let taken = owner.takeReadAhead(sql, bindings) {
            rows = taken
            row = -1
            owner.changes = taken.affectedRowCount
        } else {
            owner.trace?(sql)
            rows = try owner.withConnection(reading: isRead) { connection in
                let statement: PostgresStatement
                if let prepared, preparedOn == ObjectIdentifier(connection) {
                    statement = prepared
                    statement.reset()
                } else {
                    statement = try pooled(on: connection)
                    statement.mayPrepareInFlight = isRead
                    prepared = statement
                    preparedOn = ObjectIdentifier(connection)
                }
                statement.bind(bindings)
                defer { statement.dropBindings() }
                return try statement.executeAll()
            }
            row = -1
            owner.changes = rows?.affectedRowCount ?? 0
        }
    }

    var columnCount: Int32 { rows?.columnCount ?? 0 }

    /// Rows inserted, updated or deleted by the last execution.
    var affectedRowCount: Int { rows?.affectedRowCount ?? 0 }

    func isNull(at column: Int32) -> Bool {
        guard let rows = rowsReference else { return true }
        return rows._withUnsafeGuaranteedRef { $0.isNull(row: row, column: column) }
    }

    /// Nil when the value is not an integer (`PostgresDecoding.int64`); 0 when there is no row.
    func int64(at column: Int32) -> Int64? {
        guard let rows = rowsReference else { return 0 }
        return rows._withUnsafeGuaranteedRef { $0.int64(row: row, column: column) }
    }

    /// Nil when the value is not a number; 0 when there is no row.
    func double(at column: Int32) -> Double? {
        guard let rows = rowsReference else { return 0 }
        return rows._withUnsafeGuaranteedRef { $0.double(row: row, column: column) }
    }

    func text(at column: Int32) -> String {
        guard let rows = rowsReference else { return "" }
        return rows._withUnsafeGuaranteedRef { $0.text(row: row, column: column) }
    }

    func textBytes(at column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let rows = rowsReference else { return nil }
        return rows._withUnsafeGuaranteedRef { $0.textBytes(row: row, column: column) }
    }

    func blob(at column: Int32) -> Data {
        guard let rows = rowsReference else { return Data() }
        return rows._withUnsafeGuaranteedRef { $0.blob(row: row, column: column) }
    }

    func uuid(at column: Int32) -> UUID? {
        guard let rows = rowsReference else { return nil }
        return rows._withUnsafeGuaranteedRef { $0.uuid(row: row, column: column) }
    }

    func value(at column: Int32) -> SQLValue {
        guard let rows = rowsReference else { return .null }
        return rows._withUnsafeGuaranteedRef { $0.value(row: row, column: column) }
    }

    /// A typed read here is the protocol's dynamic call, then libpq's getters and the type's
    /// decoding: a fetch's rows are loaded into cells instead (`PostgresRows.loadCells`).
    static var loadsCells: Bool { true }

    /// The current row's cells (`loadCells`), by result column: kept from one execution to the
    /// next (a lookup's fetch allocates none), grown to each result's columns when `rows` is set
    /// (not per row), freed in `deinit`.
    @exclusivity(unchecked) private var cells: UnsafeMutablePointer<StoreCell>?
    @exclusivity(unchecked) private var cellCapacity = 0

    deinit { cells?.deallocate() }

    func loadCells(_ columns: UnsafePointer<Int32>, count: Int) -> UnsafePointer<StoreCell>? {
        guard let rows = rowsReference, let cells else { return nil }
        return rows._withUnsafeGuaranteedRef { $0.loadCells(row: row, columns: columns, count: count, into: cells) }
    }

    private func makeCells(_ count: Int) {
        cells?.deallocate()
        cellCapacity = count
        cells = .allocate(capacity: count)
        cells!.initialize(repeating: .other, count: count)
    }

    // Typed binds: kept as values until the first `step()` sends them (PostgresParameters encodes
    // each in the form of its parameter's type).

    /// The values bound so far (by parameter index − 1).
    var boundValues: [SQLValue] { bindings }

    /// The SQL its failures name when it writes the rows of another statement (`PostgresRowBatch`).
    var reportsAs: String?

    /// Sends the statement as bound in `connection`'s pipeline (`PostgresStoreConnection.send`).
    func send(on connection: PostgresConnection) throws {
        let statement: PostgresStatement
        if let prepared, preparedOn == ObjectIdentifier(connection) {
            statement = prepared
            statement.reset()
        } else {
            statement = try pooled(on: connection)
            prepared = statement
            preparedOn = ObjectIdentifier(connection)
        }
        statement.bind(bindings)
        defer { statement.dropBindings() }
        statement.reportsAs = reportsAs
        try statement.sendInPipeline()
    }

    func bindNull(at index: Int32) { bind(.null, at: index) }

    func bindInt64(_ value: Int64, at index: Int32) { bind(.integer(value), at: index) }

    func bindDouble(_ value: Double, at index: Int32) { bind(.real(value), at: index) }

    func bindText(_ text: String, at index: Int32) { bind(.text(text), at: index) }

    func bindBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32) { bind(.blob(Data(bytes)), at: index) }

    func bindBlob(_ data: Data, at index: Int32) { bind(.blob(data), at: index) }
}

extension ModelContainer {
    /// The reads its contexts routed so far on a PostgreSQL store, by standby host, or `"primary"`
    /// for those a standby could not take (docs/Scaling.md, "Read routing"); empty for a SQLite
    /// store or a container that reads from the primary only. For benchmarks and tests.
    package var postgresReadCounts: [String: Int] {
        (driver as? PostgresDriver)?.router.readCounts ?? [:]
    }
}
