import CLibPQ
import Foundation

/// A prepared statement on one `PostgresConnection`, shaped like SQLite's `Statement`: bind, then
/// `step()` through the rows and read columns of the current row. Owned by its connection's cache;
/// reset before every use.
///
/// The server prepares it (named, every parameter type left for the server to infer) on first
/// execution, and describes it, in one round trip (`PostgresConnection.prepareAndDescribe`), or,
/// when its casts fix its parameter types, in the execution's round trip (`startPreparingInFlight`,
/// docs/PostgreSQL.md, "Preparing with the first execution"): parameters are then sent in the form of the type the server
/// inferred (see `PostgresParameters`), and results come back binary when every column has a type
/// decoded here, else as text. Rows are read one at a time (libpq's single-row mode), so a huge
/// result never sits whole in memory; `PostgresConnection.rows` reads in one piece instead.
package final class PostgresStatement {
    /// The SQL as written (with `?` placeholders).
    package let sql: String
    /// The SQL as sent to the server (with `$1…$n`).
    package let serverSQL: String
    /// The parameter types the SQL's casts fix, when they fix every one
    /// (`PostgresPlaceholders.castTypes`); nil when the server must infer one.
    let castTypes: [PostgresType]?
    /// Whether the first execution on a connection may prepare the statement in its own round trip
    /// (`startPreparingInFlight`): set by the store for statements that only read, which may run
    /// again when a result column is one read only as text.
    var mayPrepareInFlight = false
    /// Whether the execution sent went with the statement's preparation and description.
    private var preparingInFlight = false
    /// The server name the statement is being prepared under in flight.
    private var inFlightName = ""
    /// The name it is prepared under (followed by the connection generation it was prepared in).
    let name: String
    /// The name of the server's prepared statement in the current generation.
    private var preparedName = ""
    unowned let connection: PostgresConnection

    /// The connection generation it was prepared in (-1: not yet).
    private var preparedGeneration = -1
    /// The parameter types the server inferred.
    package private(set) var parameterTypes: [PostgresType] = []
    /// The result column types.
    package private(set) var columnTypes: [PostgresType] = []
    /// The result column names.
    package private(set) var columnNames: [String] = []
    /// Whether results come as binary (every column type decodable) or text.
    private var binaryResults = true

    private var bindings: [SQLValue] = []
    private var bindingError: PostgresError?
    /// Whether the current execution was sent.
    private var started = false
    /// The result holding the current row(s), and the current row in it.
    private var result: OpaquePointer?
    private var row: Int32 = 0
    private var rowCount: Int32 = 0
    /// Read the next execution's rows one by one (true) or in one piece.
    var readsRowByRow = true
    /// Rows inserted, updated or deleted by the last execution.
    package private(set) var affectedRowCount = 0
    /// When the current execution started, for its connection's tracer (docs/Runtime.md, "Seeing the SQL").
    private var traceStart: UInt64 = 0

    init(sql: String, name: String, connection: PostgresConnection) {
        self.sql = sql
        (serverSQL, castTypes) = PostgresPlaceholders.rewriteWithCastTypes(sql)
        self.name = name
        self.connection = connection
    }

    deinit { if let result { PQclear(result) } }

    /// The number of result columns (known once executed).
    package var columnCount: Int32 { Int32(columnTypes.count) }

    /// Ends the current execution (reading and dropping any rows left) and clears the bindings.
    package func reset() {
        finish()
        // Let go of, not emptied in place: the values may be the caller's array (`bind(_:)`), which
        // emptying here would copy.
        bindings = []
        bindingError = nil
        affectedRowCount = 0
    }

    /// Reads and drops what is left of the current execution.
    func finish() {
        if let result {
            PQclear(result)
            self.result = nil
        }
        if started {
            var rowCount = 0
            if preparingInFlight {
                if let kept = readInFlight().kept {
                    rowCount = PostgresConnection.rowCount(of: kept)
                    PQclear(kept)
                }
            } else {
                while let next = PQgetResult(connection.handle) {
                    rowCount = PostgresConnection.rowCount(of: next)
                    PQclear(next)
                }
            }
            started = false
            connection.noteCommandEnded()
            if let tracer = connection.tracer { trace(tracer, rowCount: rowCount) }
        }
        if connection.activeStatement === self { connection.activeStatement = nil }
    }

    /// Binds `value` at the 1-based `index` (checked against the parameter's type at `step()`).
    package func bind(_ value: SQLValue, at index: Int32) {
        let position = Int(index) - 1
        guard position >= 0 else {
            if bindingError == nil { bindingError = PostgresError(kind: .invalidValue, message: "cannot bind parameter \(index): parameters are numbered from 1", sql: sql) }
            return
        }
        if bindings.count <= position { bindings.append(contentsOf: repeatElement(.null, count: position + 1 - bindings.count)) }
        bindings[position] = value
    }

    /// Binds every value in order, starting at index 1: the statement holds `values` (the array,
    /// not a copy of its elements) until the next bind or `dropBindings()`.
    package func bind(_ values: [SQLValue]) {
        bindings = values
    }

    /// Lets go of the bound values once sent, so the array `bind(_:)` was given is its owner's
    /// alone again (emptied in place for its next values, not copied).
    func dropBindings() {
        bindings = []
    }

    /// Prepares and describes the statement on the server, unless done on this connection session.
    private func prepareIfNeeded() throws {
        guard preparedGeneration != connection.generation else { return }
        let serverName = "\(name)_\(connection.generation)"
        let description = try connection.prepareAndDescribe(name: serverName, serverSQL: serverSQL, sql: sql)
        defer { PQclear(description) }
        learn(description, name: serverName)
    }

    /// Takes the parameter and result types of the statement prepared as `name` from its
    /// description: prepared on this connection session from now on.
    private func learn(_ description: OpaquePointer, name: String) {
        parameterTypes = (0..<PQnparams(description)).map { PostgresType(rawValue: PQparamtype(description, $0)) }
        columnTypes = (0..<PQnfields(description)).map { PostgresType(rawValue: PQftype(description, $0)) }
        columnNames = (0..<PQnfields(description)).map { String(cString: PQfname(description, $0)) }
        binaryResults = columnTypes.allSatisfy { PostgresType.binaryReadable.contains($0) }
        keptResultColumns = nil
        preparedGeneration = connection.generation
        preparedName = name
    }

    /// Sends the statement's preparation, its description and its execution (binary results) in
    /// one round trip: in pipeline mode, before one synchronization point. The parameter types are
    /// the casts' (`castTypes`, declared to the server), so encoding the values waits for nothing.
    /// `receiveAllRows` (or `finish`) reads the three results (`readInFlight`). docs/PostgreSQL.md,
    /// "Preparing with the first execution".
    private func startPreparingInFlight(_ types: [PostgresType]) throws {
        let connection = self.connection
        parameterTypes = types
        try encodeParameters()
        let handle = connection.handle
        let serverName = "\(name)_\(connection.generation)"
        let oids = types.map(\.rawValue)
        guard PQenterPipelineMode(handle) == 1, PQsendPrepare(handle, serverName, serverSQL, Int32(oids.count), oids) == 1,
              PQsendDescribePrepared(handle, serverName) == 1,
              parameters.withArrays(sendingInPlace: sentInPlace, { values, lengths, formats in
                  PQsendQueryPrepared(handle, serverName, Int32(parameters.count), values, lengths, formats, 1)
              }) == 1,
              PQpipelineSync(handle) == 1 else {
            let error = connection.error(from: nil, sql: sql)
            if PQpipelineStatus(handle) != PQ_PIPELINE_OFF { _ = PQexitPipelineMode(handle) }
            connection.noteCommandEnded()
            doneWithParameters()
            throw error
        }
        doneWithParameters()
        connection.statementsParsed += 1
        preparingInFlight = true
        inFlightName = serverName
        started = true
        connection.activeStatement = self
    }

    /// Reads what `startPreparingInFlight` sent: the preparation's result, the description's (the
    /// statement's types: prepared on this connection from then on, even when the execution
    /// fails), the execution's, then the synchronization point; leaves pipeline mode. Returns the
    /// execution's rows and the first failure: a failed preparation's as `PQprepare` reports it
    /// (the description and the execution then do not run).
    private func readInFlight() -> (kept: OpaquePointer?, failure: PostgresError?) {
        let connection = self.connection
        let handle = connection.handle
        preparingInFlight = false
        defer { if PQpipelineStatus(handle) != PQ_PIPELINE_OFF { _ = PQexitPipelineMode(handle) } }
        var kept: OpaquePointer?
        // 0 the preparation, 1 the description, 2 the execution.
        let failure = connection.readPipelineResults(sql: sql, unfinished: "the server did not finish preparing and running a statement") { command, status, result in
            if command == 1 && status == PGRES_COMMAND_OK {
                learn(result, name: inFlightName)
                return .read
            }
            guard command == 2 && (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY) else { return .unread }
            affectedRowCount = PostgresConnection.affectedRows(result)
            if status == PGRES_TUPLES_OK && kept == nil {
                kept = result
                return .kept
            }
            return .read
        }
        return (kept, failure)
    }

    /// The parameter types the server inferred, preparing the statement first when needed (outside
    /// a pipeline: the results sent so far are read first).
    /// - Throws: the failure of a statement sent before, the error of preparing.
    func describedParameterTypes() throws -> [PostgresType] {
        if preparedGeneration != connection.generation {
            try connection.prepareForCommand(sql: sql)
            try prepareIfNeeded()
        }
        return parameterTypes
    }

    /// The SQL a failure in pipeline mode names instead of `sql`: the single-row insert whose rows
    /// this statement writes together (`PostgresRowBatch`).
    var reportsAs: String?

    /// Sends the execution with the bound values; `inFlight`: its result is read in one piece
    /// (`receiveAllRows`), and a statement not prepared on this connection whose parameter types
    /// its casts fix is prepared in the same round trip.
    private func start(inFlight: Bool = false) throws {
        // One strong reference for the function: each read of the `unowned` property retains and
        // releases the connection (about 80 instructions; a lookup read it 9 times a fetch).
        let connection = self.connection
        if connection.tracer != nil { traceStart = StatementTracer.now() }
        try connection.prepareForCommand(sql: sql)
        if let bindingError { throw bindingError }
        if inFlight, preparedGeneration != connection.generation, let castTypes {
            return try startPreparingInFlight(castTypes)
        }
        try prepareIfNeeded()
        try encodeParameters()
        let handle = connection.handle
        let sent = parameters.withArrays(sendingInPlace: sentInPlace) { values, lengths, formats in
            PQsendQueryPrepared(handle, preparedName, Int32(parameters.count), values, lengths, formats, binaryResults ? 1 : 0)
        }
        doneWithParameters()
        guard sent == 1 else {
            connection.noteCommandEnded()
            throw connection.error(from: nil, sql: sql)
        }
        if readsRowByRow { PQsetSingleRowMode(handle) }
        started = true
        connection.activeStatement = self
    }

    /// Sends the execution with the bound values in pipeline mode, inside the connection's open
    /// transaction (`PostgresConnection.canPipeline`): its result is read later, with the others of
    /// the batch (`PostgresConnection.drainPipeline()`). A statement not yet prepared on this
    /// connection is prepared first, outside the pipeline (after reading the results so far).
    /// docs/PostgreSQL.md, "Batched writes".
    /// - Throws: a value that cannot be bound (`.invalidValue`), the failure of a statement sent
    ///   before when the pipeline had to be read, the error of preparing, a broken connection.
    func sendInPipeline() throws {
        let traceStart = connection.tracer != nil ? StatementTracer.now() : 0
        if let bindingError { throw bindingError }
        if preparedGeneration != connection.generation {
            try connection.prepareForCommand(sql: sql)
            try prepareIfNeeded()
        }
        try encodeParameters()
        do { try connection.enterPipeline() } catch {
            doneWithParameters()
            throw error
        }
        let handle = connection.handle
        let sent = parameters.withArrays(sendingInPlace: sentInPlace) { values, lengths, formats in
            PQsendQueryPrepared(handle, preparedName, Int32(parameters.count), values, lengths, formats, binaryResults ? 1 : 0)
        }
        doneWithParameters()
        guard sent == 1 else { throw connection.error(from: nil, sql: sql) }
        var command = PipelinedCommand(sql: reportsAs ?? sql)
        if let tracer = connection.tracer {
            command.trace = (serverSQL, traceStart, tracer.capturesValues ? bindings : nil)
        }
        connection.notePipelined(command)
    }

    /// The bound values encoded for the server (`encodeParameters()`), in arrays kept from one
    /// execution to the next and refilled where they are: an execution allocates and frees no
    /// arrays (four a lookup, about 1,000 instructions), and, written and read in place, they are
    /// neither moved out and back nor retained around the send (taken out of a spare and given
    /// back, about 600 instructions a lookup's execution). Used by the one context running the
    /// statement: no run-time exclusivity check.
    @exclusivity(unchecked) private var parameters = PostgresParameters(capacity: 0)

    /// The most a statement keeps of its parameters' arrays between executions: a row batch's
    /// megabytes are not held for the next.
    static let keptParameterBytes = 64 << 10

    /// After `parameters` were sent, or could not be encoded or sent: libpq has copied them by
    /// then, so values sent from their own storage are let go of, and large arrays too.
    private func doneWithParameters() {
        if !sentInPlace.isEmpty { sentInPlace.removeAll() }  // sent: not held until the next execution
        if parameters.reservedBytes > Self.keptParameterBytes { parameters = PostgresParameters(capacity: 0) }
    }

    /// The values of the last `encodeParameters()` sent from their own storage, by their index
    /// in `PostgresParameters.appendInPlace` (until they are sent). Read at every execution, by
    /// the one context using the statement: no run-time exclusivity check.
    @exclusivity(unchecked) private var sentInPlace: [Data] = []

    /// Puts the bound values into `parameters`, in the wire form of the parameter types the server
    /// inferred.
    private func encodeParameters() throws {
        guard bindings.count <= parameterTypes.count else {
            throw PostgresError(kind: .invalidValue, message: "\(bindings.count) values bound to a statement with \(parameterTypes.count) parameters", sql: sql)
        }
        if !sentInPlace.isEmpty { sentInPlace.removeAll() }
        parameters.removeAll()
        parameters.reserve(parameterTypes.count)
        // Bytes are copied into one buffer reserved at once, not grown as they come; those of
        // `inPlaceBytes` or more that a parameter takes as they are (a row batch's arrays,
        // docs/PostgreSQL.md, "Batched writes") are not copied at all: libpq reads them where they
        // are (`PostgresParameters.appendInPlace`).
        var blobBytes = 0
        for binding in bindings {
            if case .blob(let data) = binding, data.count < PostgresParameters.inPlaceBytes { blobBytes += data.count }
        }
        if blobBytes > 0 { parameters.reserveBytes(blobBytes) }
        do {
            for (offset, type) in parameterTypes.enumerated() {
                if offset < bindings.count, case .blob(let data) = bindings[offset],
                   parameters.appendInPlace(index: sentInPlace.count, count: data.count, type: type) {
                    sentInPlace.append(data)
                    continue
                }
                try parameters.append(offset < bindings.count ? bindings[offset] : .null, type: type, number: offset + 1)
            }
        } catch {
            doneWithParameters()
            var error = error
            error.sql = sql
            throw error
        }
    }

    /// Steps to the next row: true when a row is available, false when done. The first call
    /// executes the statement.
    /// - Throws: `PostgresError`: a value that cannot be bound (`.invalidValue`), the server's error
    ///   (`.server`, with its SQLSTATE), a broken connection (`.connectionLost`).
    @discardableResult
    package func step() throws -> Bool {
        if let result {
            if row + 1 < rowCount {
                row += 1
                return true
            }
            PQclear(result)
            self.result = nil
        } else if !started {
            try start()
        }
        let handle = connection.handle
        while started {
            guard let next = PQgetResult(handle) else {
                started = false
                connection.activeStatement = nil
                connection.noteCommandEnded()
                if let tracer = connection.tracer { trace(tracer, rowCount: affectedRowCount) }
                return false
            }
            let status = PQresultStatus(next)
            if status == PGRES_SINGLE_TUPLE || (status == PGRES_TUPLES_OK && PQntuples(next) > 0) {
                // The whole result at once: its rows are the statement's (row by row, the last result says).
                if status == PGRES_TUPLES_OK { affectedRowCount = Int(PQntuples(next)) }
                result = next
                row = 0
                rowCount = PQntuples(next)
                return true
            }
            switch status {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                affectedRowCount = PostgresConnection.affectedRows(next)
                PQclear(next)
            default:
                let error = connection.error(from: next, sql: sql)
                PQclear(next)
                finish()
                throw error
            }
        }
        return false
    }

    /// Executes the statement with the bound values and reads its whole result at once, leaving
    /// the statement and its connection free for other commands while the rows are read.
    /// - Throws: what `step()` throws.
    func executeAll() throws -> PostgresRows {
        do {
            return try executeAllOnce()
        } catch let error as PostgresError where error.isStalePlan {
            // The table changed since the statement was prepared (another connection migrated it):
            // prepare it again. Outside a transaction, at once; inside one (now aborted), on its
            // next use, after the rollback.
            connection.forgetPreparedStatements()
            guard !connection.isInTransaction else { throw error }
            return try executeAllOnce()
        }
    }

    private func executeAllOnce() throws -> PostgresRows {
        try sendForAllRows()
        return try receiveAllRows()
    }

    /// Sends the execution with the bound values, its result to be read in one piece by
    /// `receiveAllRows()`: the server runs it while the caller does something else (a batch of
    /// `enumerate` read ahead, docs/Runtime.md, "Batches"). Another command on the connection, or
    /// giving it back to its pool, reads and drops the result.
    /// - Throws: what `step()` throws on sending.
    func sendForAllRows() throws {
        finish()
        let rowByRow = readsRowByRow
        readsRowByRow = false
        defer { readsRowByRow = rowByRow }
        try start(inFlight: mayPrepareInFlight)
    }

    /// Reads the whole result of the execution `sendForAllRows()` sent (waiting for it), leaving the
    /// statement and its connection free for other commands.
    /// - Throws: what `step()` throws.
    func receiveAllRows() throws -> PostgresRows {
        guard started else {
            throw PostgresError(kind: .invalidValue, message: "no result to read: the execution was not sent, or its result was dropped", sql: sql)
        }
        let connection = self.connection  // One strong reference for the function (`start()`).
        if preparingInFlight { return try receiveInFlight() }
        let handle = connection.handle
        var kept: OpaquePointer?
        var failure: PostgresError?
        while let next = PQgetResult(handle) {
            let status = PQresultStatus(next)
            switch status {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                affectedRowCount = PostgresConnection.affectedRows(next)
                if status == PGRES_TUPLES_OK && kept == nil {
                    kept = next
                } else {
                    PQclear(next)
                }
            default:
                if failure == nil { failure = connection.error(from: next, sql: sql) }
                PQclear(next)
            }
        }
        started = false
        if connection.activeStatement === self { connection.activeStatement = nil }
        connection.noteCommandEnded()
        if let tracer = connection.tracer { trace(tracer, rowCount: kept.map { Int(PQntuples($0)) } ?? affectedRowCount) }
        if let failure {
            if let kept { PQclear(kept) }
            throw failure
        }
        return PostgresRows(result: kept, columns: resultColumns(), affectedRowCount: affectedRowCount)
    }

    /// The result columns' table for `PostgresRows`, made once for the statement's column types
    /// and result form (`learn` drops it when they are learnt again).
    private var keptResultColumns: PostgresRows.Columns?

    private func resultColumns() -> PostgresRows.Columns {
        if let kept = keptResultColumns { return kept }
        let made = PostgresRows.Columns(types: columnTypes, binary: binaryResults)
        keptResultColumns = made
        return made
    }

    /// `receiveAllRows()` of an execution sent with the statement's preparation.
    private func receiveInFlight() throws -> PostgresRows {
        let connection = self.connection
        let (kept, failure) = readInFlight()
        started = false
        if connection.activeStatement === self { connection.activeStatement = nil }
        connection.noteCommandEnded()
        if let tracer = connection.tracer { trace(tracer, rowCount: kept.map { Int(PQntuples($0)) } ?? affectedRowCount) }
        if let failure {
            if let kept { PQclear(kept) }
            throw failure
        }
        guard preparedGeneration == connection.generation else {
            if let kept { PQclear(kept) }
            throw PostgresError(kind: .connectionLost, message: "the server did not describe a prepared statement", sql: sql)
        }
        if !binaryResults {
            // A result column read only as text came binary: the statement only reads
            // (`mayPrepareInFlight`), so it runs again, prepared now, with text results.
            if let kept { PQclear(kept) }
            try sendForAllRows()
            return try receiveAllRows()
        }
        return PostgresRows(result: kept, columns: resultColumns(), affectedRowCount: affectedRowCount)
    }

    /// Reports the execution that ended to `tracer`: the SQL as the server runs it, the values when
    /// it shows them.
    private func trace(_ tracer: StatementTracer, rowCount: Int) {
        tracer.record(sql: serverSQL, values: tracer.capturesValues ? bindings : nil, start: traceStart, rowCount: rowCount)
    }

    /// Runs to completion, ignoring rows.
    /// - Throws: what `step()` throws.
    package func run() throws {
        while try step() {}
    }

    /// The raw bytes of the 0-based `column` of the current row (empty when NULL or no row).
    func bytes(at column: Int32) -> UnsafeRawBufferPointer {
        guard let result, let pointer = PQgetvalue(result, row, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: Int(PQgetlength(result, row, column)))
    }

    private func type(at column: Int32) -> PostgresType {
        Int(column) < columnTypes.count ? columnTypes[Int(column)] : .unknown
    }

    /// The value of the 0-based `column` of the current row: integers (and booleans, as 0 or 1) as
    /// `.integer`, floating point as `.real`, bytea and uuid (16 bytes) as `.blob`, numeric as its
    /// exact decimal text, every other type as `.text`.
    package func value(at column: Int32) -> SQLValue {
        if isNull(at: column) { return .null }
        let type = type(at: column)
        return binaryResults ? PostgresDecoding.binary(bytes(at: column), type: type) : PostgresDecoding.text(bytes(at: column), type: type)
    }

    /// The name of the 0-based `column`.
    package func columnName(at column: Int32) -> String {
        Int(column) < columnNames.count ? columnNames[Int(column)] : ""
    }

    /// Whether the column is NULL (also true when there is no current row).
    package func isNull(at column: Int32) -> Bool {
        guard let result else { return true }
        return PQgetisnull(result, row, column) != 0
    }

    /// The column as a 64-bit integer (`PostgresDecoding.int64`, the decoder `PostgresRows` uses
    /// too): nil when it is not one (text such as "12.5"); 0 when NULL; a double is truncated.
    package func int64(at column: Int32) -> Int64? {
        if isNull(at: column) { return 0 }
        return PostgresDecoding.int64(bytes(at: column), type: type(at: column), binary: binaryResults)
    }

    /// The column as a double: nil when it is not a number; 0 when NULL.
    package func double(at column: Int32) -> Double? {
        if isNull(at: column) { return 0 }
        return PostgresDecoding.double(bytes(at: column), type: type(at: column), binary: binaryResults)
    }

    /// The column as text (numbers in their decimal form, bytes decoded as UTF-8; "" when NULL).
    package func text(at column: Int32) -> String {
        if isNull(at: column) { return "" }
        return PostgresDecoding.string(bytes(at: column), type: type(at: column), binary: binaryResults)
    }

    /// The column as bytes (text as its UTF-8; empty when NULL).
    package func blob(at column: Int32) -> Data {
        if isNull(at: column) { return Data() }
        return PostgresDecoding.blob(bytes(at: column), type: type(at: column), binary: binaryResults)
    }

    /// The column as a UUID when it is a `uuid` or a 16-byte `bytea`.
    package func uuid(at column: Int32) -> UUID? {
        if isNull(at: column) { return nil }
        return PostgresDecoding.uuid(bytes(at: column), type: type(at: column), binary: binaryResults)
    }
}
