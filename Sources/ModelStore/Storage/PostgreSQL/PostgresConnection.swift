import CLibPQ
import Foundation

/// One PostgreSQL connection (libpq) with a cache of prepared statements. Used by one thread at a
/// time, like SQLite's `Connection`; `PostgresConnectionPool` shares several between threads.
///
/// Statements are written with `?` placeholders (numbered `$1…$n` when prepared, see
/// `PostgresPlaceholders`) and values are always bound, never spliced into SQL text.
///
/// A connection that broke while idle (server restarted, backend terminated, socket closed) is
/// noticed before the next statement and opened again; one that breaks inside a transaction makes
/// that transaction's calls throw `.connectionLost` (the server rolled it back) until it is
/// rolled back, and is opened again after.
package final class PostgresConnection {
    /// Where it connects to.
    package let url: PostgresURL
    /// libpq's handle (`PGconn *`).
    package let handle: OpaquePointer
    private var statements: [String: PostgresStatement] = [:]
    /// The same statements, by the ids of `statement(_:id:)` (a pool belongs to one container,
    /// whose cache hands the ids out: one id, one text). Used by one thread at a time.
    @exclusivity(unchecked) private var statementsByID = StatementsByID<PostgresStatement>()
    private var statementCount = 0
    /// Bumped each time the connection is opened again: statements prepared before are prepared anew.
    private(set) var generation = 0
    /// Statements sent to the server to prepare (`Parse`): once per statement and connection
    /// session (read by the tests).
    var statementsParsed = 0
    /// The statement whose results are being read; they are drained before another command.
    var activeStatement: PostgresStatement?
    /// Whether the last command left a transaction open (what the server said, remembered when the
    /// connection breaks: a broken transaction must not silently go on in a new session).
    private var transactionOpen = false
    /// Whether the server said it is ending the session: a FATAL message outside a command (a
    /// terminated backend says so just before it closes the connection), or a notice of any
    /// severity with a shutdown's SQLSTATE (an immediate shutdown warns each client, 57P01, then
    /// closes), or libpq could no longer read from the socket. The connection is then opened again
    /// before the next command.
    private var serverEndedSession = false
    /// The statements sent in pipeline mode whose results are not read yet (docs/PostgreSQL.md,
    /// "Batched writes"); empty: not in pipeline mode.
    private var pipelined: [PipelinedCommand] = []
    /// Results read from the pipeline (`drainPipeline()`) and not yet taken (`takePipelineResults()`).
    private var pipelineResults: [SentResult] = []
    /// The first failure among the pipelined statements (the ones after it did not run).
    private(set) var pipelineFailure: PostgresError?
    /// On a standby: the replay position (`pg_last_wal_replay_lsn()`) it last reported; replay only
    /// moves forward, so a read needing no more skips asking again (`PostgresReadRouter`).
    var knownReplayLSN: UInt64 = 0
    /// Where the statements this connection runs are reported (its pool's; nil: no tracing, one
    /// check per statement). docs/Runtime.md, "Seeing the SQL".
    var tracer: StatementTracer?

    /// The seconds a connection attempt may take when the URL gives no `connect_timeout`.
    package static let defaultConnectTimeout = 10

    /// Opens a connection to `url`, waiting at most its `connect_timeout` (else
    /// `connectTimeout`) seconds.
    /// - Throws: `PostgresError` of kind `.connectionFailed` (server unreachable or not answering in
    ///   time), `.authenticationFailed` (wrong password, unknown role, refused by pg_hba.conf) or
    ///   `.databaseMissing`.
    package init(url: PostgresURL, connectTimeout: Int = PostgresConnection.defaultConnectTimeout) throws {
        self.url = url
        var parameters = url.connectionParameters
        if url.options["connect_timeout"] == nil { parameters.append(("connect_timeout", String(max(connectTimeout, 1)))) }
        if url.options["fallback_application_name"] == nil { parameters.append(("fallback_application_name", "ModelStore")) }
        guard let handle = Self.connect(parameters) else {
            throw PostgresError(kind: .connectionFailed, message: "cannot connect to PostgreSQL (\(url.target)): out of memory")
        }
        self.handle = handle
        // Every stored property is set: deinit runs (and closes the handle) when this throws.
        guard PQstatus(handle) == CONNECTION_OK else { throw Self.connectionError(handle, url: url) }
        // Notices are not printed; a FATAL one, or one saying the server shuts down, marks the
        // connection as going away.
        PQsetNoticeReceiver(handle, { context, result in
            guard let context, let result else { return }
            let severity = PQresultErrorField(result, Int32(UInt8(ascii: "V")))
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C")))
            let fatal = severity.map { strcmp($0, "FATAL") == 0 || strcmp($0, "PANIC") == 0 } ?? false
            guard fatal || sqlState.map({ PostgresConnection.isShutdownState(String(cString: $0)) }) == true else { return }
            Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue().serverEndedSession = true
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Parses `url` and opens a connection to it.
    /// - Throws: `PostgresError` (`.invalidURL`, or what `init(url:connectTimeout:)` throws).
    package convenience init(_ url: String, connectTimeout: Int = PostgresConnection.defaultConnectTimeout) throws {
        try self.init(url: PostgresURL(url), connectTimeout: connectTimeout)
    }

    deinit {
        activeStatement = nil
        statements.removeAll()
        statementsByID.removeAll()
        PQfinish(handle)
    }

    private static func connect(_ parameters: [(keyword: String, value: String)]) -> OpaquePointer? {
        withCArrays(parameters) { keywords, values in PQconnectdbParams(keywords, values, 0) }
    }

    /// Calls `body` with libpq's NULL-terminated keyword and value arrays for `parameters`.
    private static func withCArrays<T>(_ parameters: [(keyword: String, value: String)],
                                       _ body: ([UnsafePointer<CChar>?], [UnsafePointer<CChar>?]) -> T) -> T {
        let keywords = parameters.map { strdup($0.keyword) }
        let values = parameters.map { strdup($0.value) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        return body(keywords.map { UnsafePointer($0) } + [nil], values.map { UnsafePointer($0) } + [nil])
    }

    /// Whether a server answers at `url` and accepts connections (libpq's `PQpingParams`: no login,
    /// so no password or database is needed), waiting at most `timeout` seconds.
    package static func isAcceptingConnections(_ url: PostgresURL, timeout: Int = 2) -> Bool {
        let parameters = url.connectionParameters.filter { $0.keyword != "connect_timeout" } + [("connect_timeout", String(max(timeout, 1)))]
        return withCArrays(parameters) { keywords, values in PQpingParams(keywords, values, 0) } == PQPING_OK
    }

    /// A clear error for a failed connection attempt, classified from libpq's message.
    static func connectionError(_ handle: OpaquePointer, url: PostgresURL) -> PostgresError {
        let raw = String(cString: PQerrorMessage(handle))
        let message = raw.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let text = "cannot connect to PostgreSQL (\(url.target)): \(message)"
        if message.contains("password authentication failed") || message.contains("no password supplied") || message.contains("authentication failed") {
            return PostgresError(kind: .authenticationFailed, sqlState: "28P01", message: text)
        }
        if message.range(of: #"role ".*" does not exist"#, options: .regularExpression) != nil || message.contains("no pg_hba.conf entry") {
            return PostgresError(kind: .authenticationFailed, sqlState: "28000", message: text)
        }
        if message.range(of: #"database ".*" does not exist"#, options: .regularExpression) != nil {
            return PostgresError(kind: .databaseMissing, sqlState: "3D000", message: text)
        }
        return PostgresError(kind: .connectionFailed, message: text)
    }

    /// The server's version as a number (150018 for 15.18).
    package var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// The process id of the server backend serving this connection.
    package var backendPID: Int32 { PQbackendPID(handle) }

    /// Whether a transaction is open (also when the connection broke inside one).
    package var isInTransaction: Bool {
        switch PQtransactionStatus(handle) {
        case PQTRANS_INTRANS, PQTRANS_INERROR, PQTRANS_ACTIVE: return true
        case PQTRANS_IDLE: return false
        default: return transactionOpen
        }
    }

    /// Whether the connection is usable as far as can be told without a round trip: it reads what
    /// the server sent while idle (a backend being terminated says so before closing the socket).
    package var isConnected: Bool {
        if activeStatement == nil { readPendingInput() }
        return PQstatus(handle) == CONNECTION_OK && !serverEndedSession
    }

    /// Reads and drops anything the server sent while the connection was idle (notices,
    /// notifications, the farewell of a terminated backend); a closed socket makes the status bad.
    private func readPendingInput() {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return }
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        var rounds = 0
        while rounds < 8, poll(&poller, 1, 0) > 0 {
            rounds += 1
            guard PQconsumeInput(handle) != 0 else {
                // The socket failed or closed; libpq does not always mark the status bad for it.
                serverEndedSession = true
                return
            }
            _ = PQisBusy(handle)
            while let notification = PQnotifies(handle) { PQfreemem(notification) }
        }
    }

    /// Opens the connection again (same parameters); prepared statements are prepared again on use.
    /// - Throws: `PostgresError` as `init(url:connectTimeout:)` does.
    package func reconnect() throws {
        activeStatement = nil
        pipelined.removeAll()
        pipelineResults.removeAll()
        pipelineFailure = nil
        PQreset(handle)
        generation += 1
        transactionOpen = false
        serverEndedSession = false
        knownReplayLSN = 0
        guard PQstatus(handle) == CONNECTION_OK else { throw Self.connectionError(handle, url: url) }
    }

    /// Forgets every statement prepared on this connection (`DEALLOCATE ALL`): they are prepared
    /// again on their next use. After a schema change (`ALTER TABLE`…) a prepared query whose
    /// result columns changed type cannot run again (SQLSTATE 0A000, "cached plan must not change
    /// result type"), and inside a transaction that error would abort it.
    /// - Throws: `PostgresError`.
    func discardPreparedStatements() throws {
        try execute("DEALLOCATE ALL")
        generation += 1
    }

    /// Makes every statement prepare again on its next use, under a new name (without telling the
    /// server, whose old statements stay until `DEALLOCATE` or the end of the session).
    func forgetPreparedStatements() {
        generation += 1
    }

    /// Called before every command: reads the results of statements sent in pipeline mode,
    /// finishes the statement being read, and outside a transaction opens a broken connection again.
    /// - Throws: the failure of a pipelined statement (the transaction is aborted: what comes next
    ///   would fail for that reason); `PostgresError` `.connectionLost` when the connection broke
    ///   inside a transaction, or the error of reconnecting.
    func prepareForCommand(sql: String?) throws {
        if !pipelined.isEmpty { drainPipeline() }
        // Kept until the batch's results are taken or the transaction rolled back: a caller that
        // ignores this error does not hide the first failure from the save.
        if let pipelineFailure { throw pipelineFailure }
        if let activeStatement { activeStatement.finish() }
        if transactionOpen {
            guard PQstatus(handle) == CONNECTION_OK, !serverEndedSession else {
                throw PostgresError(kind: .connectionLost, message: "the connection to PostgreSQL was lost inside a transaction, which the server rolled back: nothing of it was applied; roll back before going on", sql: sql)
            }
            return
        }
        readPendingInput()
        if PQstatus(handle) != CONNECTION_OK || serverEndedSession { try reconnect() }
    }

    /// Notes the transaction state after a command.
    func noteCommandEnded() {
        switch PQtransactionStatus(handle) {
        case PQTRANS_INTRANS, PQTRANS_INERROR, PQTRANS_ACTIVE: transactionOpen = true
        case PQTRANS_IDLE: transactionOpen = false
        default: break  // connection broken: keep what was known
        }
    }

    /// Whether `sqlState` says the server ended the session: administrator or crash shutdown, or
    /// the server starting or stopping (57P01, 57P02, 57P03).
    static func isShutdownState(_ sqlState: String) -> Bool {
        sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
    }

    /// The error of a failed result (nil result: the connection's message).
    func error(from result: OpaquePointer?, sql: String?) -> PostgresError {
        func field(_ code: UInt8) -> String? {
            guard let result, let pointer = PQresultErrorField(result, Int32(code)) else { return nil }
            return String(cString: pointer)
        }
        let sqlState = field(UInt8(ascii: "C"))
        let message = field(UInt8(ascii: "M"))
            ?? (result.flatMap { PQresultErrorMessage($0) }).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? String(cString: PQerrorMessage(handle))
        let detail = [field(UInt8(ascii: "D")), field(UInt8(ascii: "H")).map { "hint: \($0)" }].compactMap { $0 }.joined(separator: "; ")
        let trimmed = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        // libpq's own failures carry no SQLSTATE. Cut off by an immediate shutdown, libpq reports
        // "server closed the connection unexpectedly" with the status still OK: whether the socket
        // can still be read tells a lost connection from a client-side error.
        if sqlState == nil, PQstatus(handle) == CONNECTION_OK, !serverEndedSession, PQconsumeInput(handle) == 0 {
            serverEndedSession = true
        }
        let lost = PQstatus(handle) != CONNECTION_OK || serverEndedSession || sqlState.map(Self.isShutdownState) == true
        // A transaction cut off before its COMMIT was sent is rolled back by the server (`commit()`
        // reports a COMMIT cut off as of unknown outcome instead).
        let outcome = lost && transactionOpen ? " (the server rolled the transaction back: nothing of it was applied)" : ""
        return PostgresError(kind: lost ? .connectionLost : .server, sqlState: sqlState, message: trimmed + outcome,
                             detail: detail.isEmpty ? nil : detail, sql: sql)
    }

    /// Runs SQL text that takes no parameters (may hold several statements; results are dropped).
    /// - Throws: `PostgresError` (`.server` with the SQLSTATE, `.connectionLost`, …).
    package func execute(_ sql: String) throws {
        _ = try executeForTag(sql)
    }

    /// Runs `sql` with no parameters and returns the last command's tag (`COMMIT`, `ROLLBACK`, …).
    @discardableResult
    func executeForTag(_ sql: String) throws -> String {
        try prepareForCommand(sql: sql)
        let start = tracer != nil ? StatementTracer.now() : 0
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        noteCommandEnded()
        if let tracer { tracer.record(sql: sql, values: [], start: start, rowCount: Self.rowCount(of: result)) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return String(cString: PQcmdStatus(result))
        default:
            throw error(from: result, sql: sql)
        }
    }

    /// A prepared statement for `sql` (written with `?` placeholders), from the cache, reset and with
    /// no bindings. The server prepares it on first execution.
    /// - Throws: `PostgresError` when the statement cannot be prepared.
    package func statement(_ sql: String) throws -> PostgresStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        statementCount += 1
        let statement = PostgresStatement(sql: sql, name: "modelstore_\(statementCount)", connection: self)
        statements[sql] = statement
        return statement
    }

    /// `statement(sql)`, found by `id` (which names `sql` and nothing else for the connection's
    /// container: `StoreConnection.readStatement(_:id:)`) rather than by hashing the text: a context's
    /// first use of a plain query's statement finds the pooled connection's by it.
    /// - Throws: `PostgresError` when the statement cannot be prepared.
    func statement(_ sql: String, id: Int) throws -> PostgresStatement {
        try statementsByID.statement(id, reset: { $0.reset() }) { try statement(sql) }
    }

    /// Runs `sql` with `bindings`, ignoring any rows; returns the number of rows it inserted,
    /// updated or deleted.
    /// - Throws: `PostgresError`.
    @discardableResult
    package func run(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int {
        let statement = try statement(sql)
        statement.bind(bindings)
        defer { statement.reset() }
        try statement.run()
        return statement.affectedRowCount
    }

    /// Runs a query and returns every row as values (read in one piece: use `statement(_:)` and
    /// `step()` to read a large result row by row).
    /// - Throws: `PostgresError`.
    package func rows(_ sql: String, _ bindings: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try statement(sql)
        statement.bind(bindings)
        statement.readsRowByRow = false
        defer {
            statement.reset()
            statement.readsRowByRow = true
        }
        var rows: [[SQLValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return rows
    }

    /// The rows a result returned, or (none returned) the rows its command changed.
    static func rowCount(of result: OpaquePointer?) -> Int {
        guard let result else { return 0 }
        if PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) > 0 { return Int(PQntuples(result)) }
        return affectedRows(result)
    }

    /// Starts a transaction (`BEGIN`, PostgreSQL's default isolation, READ COMMITTED, unless given).
    /// - Throws: `PostgresError`.
    package func begin(_ isolation: String? = nil) throws {
        do {
            try execute(isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN")
        } catch var error as PostgresError where error.kind == .connectionLost {
            // Nothing had begun: say so, as for a transaction cut off before COMMIT (docs/Scaling.md, "Failover").
            error.message += " (the transaction had not begun: nothing of it was applied)"
            throw error
        }
    }

    /// Commits the open transaction.
    /// - Throws: `PostgresError` when the commit fails, or when an earlier error aborted the
    ///   transaction (SQLSTATE 25P02: the server rolls it back, nothing of it is applied);
    ///   `.connectionLost` when the connection is found broken before `COMMIT` is sent (nothing
    ///   applied); `.commitOutcomeUnknown` when it broke after `COMMIT` was sent and before the
    ///   answer (applied or not: nobody can tell from here; docs/Scaling.md, "Failover").
    package func commit() throws {
        if !pipelined.isEmpty { drainPipeline() }
        if let failure = pipelineFailure {
            try? rollback()
            throw failure
        }
        if let activeStatement { activeStatement.finish() }
        if PQtransactionStatus(handle) == PQTRANS_INERROR {
            try? rollback()
            throw PostgresError(kind: .server, sqlState: "25P02",
                                message: "the transaction was aborted by an earlier error and has been rolled back", sql: "COMMIT")
        }
        // A server that went away while the transaction was idle has said so (a FATAL message, or
        // the socket closed): then COMMIT is not sent and the outcome is known.
        readPendingInput()
        guard PQstatus(handle) == CONNECTION_OK, !serverEndedSession else {
            throw PostgresError(kind: .connectionLost, message: "the connection to PostgreSQL was lost before COMMIT was sent: the server rolled the transaction back, nothing of it was applied", sql: "COMMIT")
        }
        let tag: String
        do {
            tag = try executeForTag("COMMIT")
        } catch let error as PostgresError where error.kind == .connectionLost {
            let cause = error.message.replacingOccurrences(of: " (the server rolled the transaction back: nothing of it was applied)", with: "")
            throw PostgresError(kind: .commitOutcomeUnknown, sqlState: error.sqlState,
                                message: "the connection to PostgreSQL was lost after COMMIT was sent (\(cause)): the transaction may or may not have been applied",
                                sql: "COMMIT")
        }
        guard tag == "COMMIT" else {
            throw PostgresError(kind: .server, sqlState: "25P02",
                                message: "the transaction was aborted by an earlier error and has been rolled back", sql: "COMMIT")
        }
    }

    /// Rolls back the open transaction. On a broken connection it only forgets the transaction
    /// (the server rolled it back when the connection broke).
    /// - Throws: `PostgresError` when the server refuses.
    package func rollback() throws {
        discardPipeline()
        if PQstatus(handle) != CONNECTION_OK || serverEndedSession {
            transactionOpen = false
            activeStatement = nil
            return
        }
        do {
            try execute("ROLLBACK")
        } catch let error as PostgresError where error.kind == .connectionLost {
            // Broken while rolling back: the server rolls back a transaction whose session ends.
            transactionOpen = false
            activeStatement = nil
        }
    }

    // MARK: Pipeline mode (docs/PostgreSQL.md, "Batched writes")

    /// Whether statements may be sent in pipeline mode now: inside a transaction that is open and
    /// sound (outside one, the statements of a pipeline would form a transaction of their own).
    var canPipeline: Bool {
        transactionOpen && PQstatus(handle) == CONNECTION_OK && pipelineFailure == nil
    }

    /// The number of statements sent in pipeline mode whose results are not read.
    var pipelinedCount: Int { pipelined.count }

    /// Enters pipeline mode unless in it, finishing the statement being read first.
    /// - Throws: `PostgresError` when libpq refuses (the connection is not idle or broke).
    func enterPipeline() throws {
        guard pipelined.isEmpty else { return }
        if let activeStatement { activeStatement.finish() }
        guard PQpipelineStatus(handle) == PQ_PIPELINE_OFF else { return }
        guard PQenterPipelineMode(handle) == 1 else { throw error(from: nil, sql: nil) }
    }

    /// Prepares `serverSQL` as the server's statement `name` (every parameter type left for the
    /// server to infer) and describes it, in one round trip: both sent in pipeline mode before one
    /// synchronization point (`PQprepare` then `PQdescribePrepared` waited for the server twice).
    /// Called outside a pipeline, after `prepareForCommand`. Returns the description (the caller
    /// clears it). docs/PostgreSQL.md, "Binding: the server's inferred types decide the format".
    /// - Throws: the server's error of preparing `sql` (as `PQprepare` gave it), or of describing
    ///   it; `.connectionLost` when the connection broke.
    func prepareAndDescribe(name: String, serverSQL: String, sql: String) throws -> OpaquePointer {
        defer {
            if PQpipelineStatus(handle) != PQ_PIPELINE_OFF { _ = PQexitPipelineMode(handle) }
            noteCommandEnded()
        }
        guard PQenterPipelineMode(handle) == 1, PQsendPrepare(handle, name, serverSQL, 0, nil) == 1,
              PQsendDescribePrepared(handle, name) == 1, PQpipelineSync(handle) == 1 else {
            throw error(from: nil, sql: sql)
        }
        statementsParsed += 1
        // The prepare's result and a NULL, the description's and a NULL, then the synchronization
        // point (a failed prepare makes the description's `PGRES_PIPELINE_ABORTED`).
        var description: OpaquePointer?
        let failure = readPipelineResults(sql: sql, unfinished: "the server did not finish preparing a statement") { command, status, result in
            guard status == PGRES_COMMAND_OK && command == 1 && description == nil else { return .unread }
            description = result
            return .kept
        }
        if let failure {
            if let description { PQclear(description) }
            throw failure
        }
        guard let description else {
            throw PostgresError(kind: .connectionLost, message: "the server did not describe a prepared statement", sql: sql)
        }
        return description
    }

    /// What the caller of `readPipelineResults` did with a result.
    enum PipelineResultUse {
        /// It keeps the result, and clears it later.
        case kept
        /// It read what it needed: the result is cleared.
        case read
        /// Not read: the result is cleared, a failure's error noted.
        case unread
    }

    /// Reads the results of the (at most three) commands sent in pipeline mode before one
    /// synchronization point, through that point, for `prepareAndDescribe` and a statement
    /// prepared with its first execution: each goes to `take` with its command's position (0 the
    /// first; each command's results end with a NULL) and status. Returns the first failure: a
    /// result left unread whose status is neither `PGRES_COMMAND_OK` nor `PGRES_PIPELINE_ABORTED`
    /// (the commands after a failed one are aborted), or, when the connection broke or the results
    /// end before the synchronization point, its error or `.connectionLost` saying `unfinished`.
    func readPipelineResults(sql: String, unfinished: String,
                             _ take: (_ command: Int, ExecStatusType, OpaquePointer) -> PipelineResultUse) -> PostgresError? {
        var failure: PostgresError?
        var command = 0
        var nullsInARow = 0
        while true {
            guard let result = PQgetResult(handle) else {
                nullsInARow += 1
                if PQstatus(handle) != CONNECTION_OK || nullsInARow > 1 || command > 2 {
                    return failure ?? (PQstatus(handle) != CONNECTION_OK ? error(from: nil, sql: sql)
                        : PostgresError(kind: .connectionLost, message: unfinished, sql: sql))
                }
                command += 1
                continue
            }
            nullsInARow = 0
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC {
                PQclear(result)
                return failure
            }
            switch take(command, status, result) {
            case .kept: continue
            case .read: break
            case .unread:
                if status != PGRES_COMMAND_OK && status != PGRES_PIPELINE_ABORTED && failure == nil {
                    failure = error(from: result, sql: sql)
                }
            }
            PQclear(result)
        }
    }

    /// Notes a statement sent in pipeline mode (`PostgresStatement.sendInPipeline()`).
    func notePipelined(_ command: PipelinedCommand) {
        pipelined.append(command)
    }

    /// Ends the pipeline: sends a synchronization point, reads every pipelined statement's result
    /// into `pipelineResults` (the first failure into `pipelineFailure`; the statements after it
    /// were not run) and leaves pipeline mode. The one place where a batch's results are read.
    func drainPipeline() {
        guard !pipelined.isEmpty else { return }
        let commands = pipelined
        pipelined.removeAll(keepingCapacity: true)
        defer {
            if PQpipelineStatus(handle) != PQ_PIPELINE_OFF { _ = PQexitPipelineMode(handle) }
            noteCommandEnded()
        }
        func fail(_ failure: PostgresError) {
            if pipelineFailure == nil { pipelineFailure = failure }
        }
        guard PQpipelineSync(handle) == 1 else {
            fail(error(from: nil, sql: commands.first?.sql))
            return
        }
        pipelineResults.reserveCapacity(pipelineResults.count + commands.count)
        // Each command's results end with a NULL; the synchronization point ends the pipeline.
        var index = 0
        var nullsInARow = 0
        while true {
            guard let result = PQgetResult(handle) else {
                if PQstatus(handle) != CONNECTION_OK {
                    fail(error(from: nil, sql: index < commands.count ? commands[index].sql : nil))
                    return
                }
                nullsInARow += 1
                // Past the last command with no synchronization point: the connection is unusable.
                if index >= commands.count || nullsInARow > 1 {
                    fail(PostgresError(kind: .connectionLost, message: "the server did not finish a pipeline of \(commands.count) statements", sql: nil))
                    return
                }
                index += 1
                continue
            }
            nullsInARow = 0
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { return }
            let command = index < commands.count ? commands[index] : nil
            switch status {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                var key: Int64?
                if status == PGRES_TUPLES_OK, PQntuples(result) > 0, PQnfields(result) > 0, PQgetisnull(result, 0, 0) == 0,
                   let pointer = PQgetvalue(result, 0, 0) {
                    let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(PQgetlength(result, 0, 0)))
                    key = PostgresDecoding.int64(bytes, type: PostgresType(rawValue: PQftype(result, 0)), binary: PQfformat(result, 0) == 1)
                }
                pipelineResults.append(SentResult(key: key, changes: Self.affectedRows(result)))
                // Traced when its result is read: a batched statement's duration runs from its
                // sending to the reading of its result.
                if let tracer, let trace = command?.trace {
                    tracer.record(sql: trace.serverSQL, values: trace.values, start: trace.start, rowCount: Self.rowCount(of: result))
                }
            case PGRES_PIPELINE_ABORTED:
                break
            default:
                let failure = error(from: result, sql: command?.sql)
                if failure.isStalePlan { forgetPreparedStatements() }
                fail(failure)
            }
        }
    }

    /// The rows a command inserted, updated or deleted (its tag's count, 0 for a command without
    /// one), parsed without a `String`. A count beyond `Int.max` (the tag's is unsigned 64-bit)
    /// gives `Int.max`.
    static func affectedRows(_ result: OpaquePointer) -> Int {
        guard let text = PQcmdTuples(result) else { return 0 }
        var count = 0
        var pointer = text
        while case let digit = pointer.pointee, digit >= 0x30, digit <= 0x39 {
            let (tens, overflow) = count.multipliedReportingOverflow(by: 10)
            let (next, overflowAgain) = tens.addingReportingOverflow(Int(digit - 0x30))
            if overflow || overflowAgain { return .max }
            count = next
            pointer += 1
        }
        return count
    }

    /// The results read from the pipeline since the last call, in the order the statements were
    /// sent, and the first failure (after the results of the statements before it); both cleared.
    func takePipelineResults() -> (results: [SentResult], failure: PostgresError?) {
        drainPipeline()
        defer {
            pipelineResults.removeAll(keepingCapacity: true)
            pipelineFailure = nil
        }
        return (pipelineResults, pipelineFailure)
    }

    /// Reads and drops whatever the pipeline holds (a rollback follows).
    private func discardPipeline() {
        drainPipeline()
        pipelineResults.removeAll()
        pipelineFailure = nil
    }

    /// Runs `body` inside `BEGIN … COMMIT`; rolls back and rethrows when anything in it throws, so
    /// nothing of a failed transaction is applied.
    /// - Throws: what `body` throws, or `PostgresError` from `BEGIN`/`COMMIT`.
    @discardableResult
    package func transaction<T>(_ isolation: String? = nil, _ body: () throws -> T) throws -> T {
        try begin(isolation)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if isInTransaction { try? rollback() }
            throw error
        }
    }
}

/// A statement sent in pipeline mode: its SQL (`?` placeholders), named in its error.
struct PipelinedCommand {
    let sql: String
    /// For the connection's tracer, when it has one (docs/Runtime.md, "Seeing the SQL"): the SQL
    /// as the server runs it, when it was sent, and its values when the trace shows them.
    var trace: (serverSQL: String, start: UInt64, values: [SQLValue]?)? = nil
}
