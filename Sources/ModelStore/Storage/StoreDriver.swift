import Foundation

// The storage seam. Everything above it (contexts, fetches, saves, schema preparation) builds SQL
// through a `SQLDialect` and runs it through a `StoreConnection`; everything below it is one
// kind of store: SQLite (Storage/SQLite) or PostgreSQL (Storage/PostgreSQL). Generated code never
// sees this layer.
//
// SQL text given to a connection always uses `?` placeholders; a driver whose server spells them
// otherwise (PostgreSQL's `$1`) rewrites them when it prepares the statement.

/// One kind of store, opened for one container: it makes the connections the container's contexts
/// use, and knows the SQL spelling and the write discipline of its store.
protocol StoreDriver: AnyObject, Sendable {
    /// How this store spells SQL.
    var dialect: any SQLDialect { get }

    /// A new connection for a context. SQLite: a connection of the context's own; PostgreSQL: a
    /// handle that borrows a pooled connection for each operation or transaction.
    ///
    /// - Throws: the store's error when it cannot be opened or reached.
    func makeConnection() throws -> any StoreConnection

    /// Runs `body` while holding the container's write lock where the store needs writers of one
    /// process serialized (SQLite has one writer at a time and its busy handler can starve); other
    /// stores run `body` directly.
    func withWriteLock<T>(_ body: () throws -> T) rethrows -> T

    /// Checks that the store can hold `schema`'s tables and columns (PostgreSQL: names that stay
    /// distinct in 63 bytes).
    ///
    /// - Throws: `ModelStoreError.invalidSchema` naming what the store cannot hold.
    func check(_ schema: StoredSchema) throws

    /// Whether the calling thread is inside `withWriteLock` (a save asked for on that thread then
    /// must not wait for the lock: it would wait for itself).
    var isWriteLockHeldByCurrentThread: Bool { get }

    /// Takes the connection of a context that ended (`connection`, set to nil), to hand it to a
    /// later `makeConnection()` when it is idle and nothing else holds it (SQLite); other stores,
    /// or a connection that cannot be reused, let it go (closed).
    func keepForReuse(_ connection: inout (any StoreConnection)?)
}

extension StoreDriver {
    func check(_ schema: StoredSchema) throws {}

    /// Stores that reuse no connection: it is let go of.
    func keepForReuse(_ connection: inout (any StoreConnection)?) {
        connection = nil
    }

    /// Stores without a write lock: never held.
    var isWriteLockHeldByCurrentThread: Bool { false }
}

/// A connection to a store, used by one context (one thread or task) at a time.
protocol StoreConnection: AnyObject {
    /// How this connection's store spells SQL.
    var dialect: any SQLDialect { get }

    /// Runs SQL text that takes no parameters (it may hold several statements).
    ///
    /// - Throws: the store's error (`SQLiteError`, `PostgresError`) naming the SQL.
    func execute(_ sql: String) throws

    /// A prepared statement for `sql` (`?` placeholders), from the connection's cache, reset and
    /// with no bindings.
    ///
    /// - Throws: the store's error when the SQL does not prepare.
    func statement(_ sql: String) throws -> any StoreStatement

    /// `statement(sql)` for a `sql` that only reads (a plain fetch's or count's `SELECT`, which
    /// locks no rows and calls no function that writes), found by `id` (which names `sql` and
    /// nothing else for the connection's container: `FastCacheEntry.statementID`) rather than by
    /// hashing the text. A store that routes reads takes it as a read without scanning the text.
    func readStatement(_ sql: String, id: Int) throws -> any StoreStatement

    /// Opens a write transaction (`SQLDialect.beginWriteTransaction`).
    func beginWriteTransaction() throws
    /// Commits the open transaction.
    func commit() throws
    /// Rolls back the open transaction; never throws (a connection that cannot roll back is closed
    /// by its driver, which the store treats as a rollback).
    func rollback()

    /// The key of the row the last plain `INSERT` added, for stores that report it without a
    /// `RETURNING` clause (SQLite); nil where inserts must return their key (`SQLDialect.insertsReturnKey`).
    var lastInsertedKey: Int64? { get }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed (rows changed by
    /// foreign-key actions not counted): a save checks that each row it updates or deletes is
    /// still there.
    var changes: Int { get }
    /// Makes closing this connection leave the store as it is (a refused open): no checkpoint.
    func leaveFilesAsTheyAreOnClose()

    // MARK: Batched writes (docs/PostgreSQL.md, "Batched writes")

    /// Whether `send` batches statements now: PostgreSQL inside a write transaction (libpq's
    /// pipeline mode), so a save's rows cost one round trip per batch, not per row. False for
    /// SQLite, whose statements run in the process: a save runs them one at a time.
    var sendsInBatches: Bool { get }

    /// Sends `statement` as bound; its result is read by `receiveSent()`, in the order sent (the
    /// caller may reset and bind the statement again at once). Only while `sendsInBatches`.
    ///
    /// - Throws: a value that cannot be bound, the failure of a statement sent before (when the
    ///   batch had to be read to prepare this one), a broken connection.
    func send(_ statement: any StoreStatement) throws

    /// The number of statements sent whose results are not read.
    var sentCount: Int { get }

    /// Reads the results of every statement sent since the last call, in the order sent, and the
    /// first failure (the statements after it were not run, and the transaction is aborted: the
    /// caller rolls back). The caller handles the results before the failure first, so a save
    /// reports the first thing that went wrong, as when it runs statements one at a time.
    func receiveSent() -> SentResults

    /// Reads outside a transaction go where `source` says (nil: the configuration's default), on a
    /// store with standbys (docs/Scaling.md, "Read routing").
    func routeReads(from source: ModelConfiguration.ReadSource?)

    /// Whether `error` is the server's refusal of a statement it ran (a constraint, a check, a
    /// trigger), as opposed to a value refused before sending, a lost connection or a misuse.
    func failedOnTheServer(_ error: any Error) -> Bool

    /// The rows of an entity's insert (`insert`, its single-row statement, with its table, the
    /// entity's name for `"$type"` and the quoted value columns) written together, several rows per
    /// statement, with keys from `reserveKeys`; with `typeName` nil, rows of a table without
    /// `"$pk"` and `"$type"` (the history's changes), keys ignored. With `existing`, a row is
    /// written only while the row of `existing.table` whose key is its value of column
    /// `existing.column` is stored (`insert` binds that key last). Nil where each row is its own
    /// statement (SQLite, outside a batched save). docs/PostgreSQL.md, "Batched writes".
    ///
    /// - Throws: the store's error when the insert does not prepare.
    func rowBatch(forInsert insert: String, table: String, typeName: String?, columns: [String],
                  onlyIfRowOf existing: (table: String, column: Int)?) throws -> (any RowBatch)?

    /// `count` new keys of `table`, ascending, as `count` single-row inserts would have taken them.
    ///
    /// - Throws: the store's error.
    func reserveKeys(in table: String, count: Int) throws -> [Int64]

    /// The rows of a partial update (`update`, its single-row statement: the quoted `columns` of
    /// `table` set from its first parameters, the row's key bound last) changed together, several
    /// rows per statement (a statement's result counts the rows it changed; `RowBatch.storedKeys`
    /// finds the missing ones when it changed fewer than it was sent). Nil where each row is its
    /// own statement (SQLite, outside a batched save, a column type sent only alone).
    /// docs/PostgreSQL.md, "Batched writes".
    ///
    /// - Throws: the store's error when the update does not prepare.
    func rowBatch(forUpdate update: String, table: String, columns: [String]) throws -> (any RowBatch)?

    // MARK: Reads sent ahead (docs/Runtime.md, "Batches")

    /// Sends the read `sql` with `bindings` before it is run, so the store works on it while the
    /// caller does something else; the next statement run with the same SQL and values takes its
    /// rows, unless a write began or committed since (then it runs again). A store whose
    /// statements run in the process (SQLite) sends nothing.
    func readAhead(_ sql: String, _ bindings: [SQLValue])

    /// Drops a read sent ahead and not taken (its result is read and dropped).
    func dropReadAhead()

    /// Runs `statement` (bound, no row stepped yet) where the store reads a whole result at once,
    /// and gives its number of rows and the integer in `column` of its last row (nil: no rows);
    /// the rows are then stepped through as usual. Nil, running nothing, where rows are read one
    /// at a time (SQLite). An enumeration learns from it where its next batch starts, and sends
    /// that batch ahead before this one's models are made (docs/Runtime.md, "Batches").
    /// - Throws: what the statement's first `step()` throws.
    func wholeResult(of statement: any StoreStatement, integerAt column: Int32) throws -> (rows: Int, last: Int64?)?
}

extension StoreConnection {
    func readAhead(_ sql: String, _ bindings: [SQLValue]) {}

    func dropReadAhead() {}

    func wholeResult(of statement: any StoreStatement, integerAt column: Int32) throws -> (rows: Int, last: Int64?)? { nil }
}

/// Rows written several per statement: an entity's inserted rows (`StoreConnection.rowBatch(forInsert:…)`),
/// a partial update's changed rows (`StoreConnection.rowBatch(forUpdate:…)`).
protocol RowBatch: AnyObject {
    /// The rows added since the last `take()`.
    var count: Int { get }
    /// Whether it holds as many rows as one statement takes.
    var isFull: Bool { get }
    /// A statement to bind a row into instead of the single-row statement, its values written
    /// straight into the rows (the caller then adds the row with `add(key:from:)` and resets it).
    /// It takes binds only: it never runs.
    var rowStatement: any StoreStatement { get }
    /// Adds the row bound to `statement` (`rowStatement`, or the single-row statement) with the
    /// key `key` (the reserved key of an inserted row, the key of an updated row; ignored for rows
    /// of a table without keys).
    ///
    /// - Throws: a value the store cannot take (the row is not added), as the single-row statement
    ///   would refuse it.
    func add(key: Int64, from statement: any StoreStatement) throws
    /// The statement writing the rows added since the last call, bound, for `StoreConnection.send`
    /// (the caller resets it once sent); the batch is then empty. An update's result's `changes`
    /// are the rows it changed.
    ///
    /// - Throws: the store's error when the statement cannot be made.
    func take() throws -> any StoreStatement
    /// Which of `keys` are keys of rows its table holds, read at once in the save's transaction
    /// (outside a batch: the caller read its results first). After an update changed fewer rows
    /// than it was sent, the keys it sent that are not among them are the rows it did not find
    /// (another connection deleted them); those it found stay locked by it, so they are among them.
    ///
    /// - Throws: the store's error.
    func storedKeys(among keys: [Int64]) throws -> Set<Int64>
}

/// The results of the statements a connection sent in a batch (`StoreConnection.receiveSent()`).
struct SentResults {
    /// One per statement run, in the order sent (the statements after a failure have none).
    let results: [SentResult]
    /// The first statement that failed, if any.
    let failure: (any Error)?
}

/// What a statement sent in a batch returned: the first column of its first row as an integer
/// (an insert's `RETURNING` key; nil when it returned no row), and the rows it inserted, updated
/// or deleted.
struct SentResult {
    let key: Int64?
    let changes: Int
}

extension StoreConnection {
    /// Connections without a cache by id look the statement up by its text.
    func readStatement(_ sql: String, id: Int) throws -> any StoreStatement { try statement(sql) }

    /// Runs `sql` with `bindings`, ignoring any rows.
    func run(_ sql: String, _ bindings: [SQLValue] = []) throws {
        let statement = try statement(sql)
        statement.bind(bindings)
        defer { statement.reset() }
        try statement.run()
    }

    /// Runs a query and returns every row as values.
    func rows(_ sql: String, _ bindings: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try statement(sql)
        statement.bind(bindings)
        defer { statement.reset() }
        var rows: [[SQLValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return rows
    }

    /// Runs `body` inside a write transaction; commits, or rolls back and rethrows on error.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try beginWriteTransaction()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }
}

/// A prepared statement of a `StoreConnection`: bind (1-based parameter indexes), step through
/// the rows, read columns (0-based), reset. Owned by its connection's cache. Each store
/// (Storage/SQLite, Storage/PostgreSQL) has one; everything above `Storage/` reads and binds
/// through this protocol only (docs/Architecture.md, "The storage seam").
///
/// Reads and binds are typed, as GRDB's `StatementColumnConvertible` reads SQLite's columns: a
/// value's fast path (`SQLStorable.read(from:at:)`, `bind(to:at:)`) calls the one for its type,
/// without making a `SQLValue`. Code that loops over a statement's rows is generic over the
/// statement type and runs through `withConcreteStatement` (StatementDispatch.swift), so each
/// store's copy of the loop calls its reads directly.
///
/// A hook of generated code's runtime (SPI `ModelStoreGenerated`): generated code itself never
/// calls it, `RowDecoder` and `RowEncoder` do.
@_spi(ModelStoreGenerated) public protocol StoreStatement: AnyObject {
    /// The SQL text it was prepared from (with `?` placeholders).
    var sql: String { get }
    /// Resets the statement and clears its bindings, ready for a new execution.
    func reset()
    /// Steps once: true when a row is available, false when done.
    ///
    /// - Throws: the store's error (a failed bind, a constraint, a lost connection…).
    func step() throws -> Bool
    /// The number of result columns.
    var columnCount: Int32 { get }
    /// The first value bound since the last reset that the store cannot hold as it is: its
    /// `bind` index and why (nil: none; SQLite holds every value).
    var bindingProblem: (position: Int32, reason: String)? { get }
    /// Whether there is a `bindingProblem`, asked per row by a save without copying it (a copy of
    /// its text was a retain and a release a row).
    var hasBindingProblem: Bool { get }
    /// Whether the store can refuse a bound value at all (`bindingProblem`): false where it holds
    /// every value (SQLite), so `save()` does not ask per row.
    var refusesBoundValues: Bool { get }

    // MARK: Binds (1-based parameter index)

    /// Binds `value`. A value the store cannot hold exactly (a NaN) is refused: the next `step()` throws.
    func bind(_ value: SQLValue, at index: Int32)
    /// Binds NULL.
    func bindNull(at index: Int32)
    /// Binds a 64-bit integer.
    func bindInt64(_ value: Int64, at index: Int32)
    /// Binds a double; NaN is refused (the next `step()` throws).
    func bindDouble(_ value: Double, at index: Int32)
    /// Binds text.
    func bindText(_ text: String, at index: Int32)
    /// Binds bytes as a blob (copied before the call returns).
    func bindBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32)
    /// Binds a blob; an empty one is a zero-length blob, not NULL.
    func bindBlob(_ data: Data, at index: Int32)

    // MARK: Reads (0-based column of the current row)

    /// Whether the column is NULL.
    func isNull(at column: Int32) -> Bool
    /// The column as a 64-bit integer: nil when the store holds something that is not one (text
    /// that is not an integer: docs/Runtime.md, "Reading stored values"). NULL reads as 0: test
    /// `isNull` first.
    func int64(at column: Int32) -> Int64?
    /// The column as a double: nil when the store holds something that is not a number. NULL reads as 0.
    func double(at column: Int32) -> Double?
    /// The column as text (numbers in their decimal form, bytes decoded as UTF-8; "" when NULL).
    func text(at column: Int32) -> String
    /// The column's UTF-8 text in place, without a copy: valid until the next step or reset. Nil
    /// when NULL, and where the store does not hold the value as text (PostgreSQL: a number, bytes);
    /// SQLite gives any value as its text, as `text(at:)`.
    func textBytes(at column: Int32) -> UnsafeBufferPointer<UInt8>?
    /// The column as bytes (text as its UTF-8; empty when NULL).
    func blob(at column: Int32) -> Data
    /// The column as a UUID when it holds one in the store's form (16 bytes); nil otherwise.
    func uuid(at column: Int32) -> UUID?
    /// The column as a value.
    func value(at column: Int32) -> SQLValue

    // MARK: Cells (a fetch's rows)

    /// Whether the store decodes a row's columns into cells at once (`loadCells`), for a fetch to
    /// read its models' values from without a call per column: where a typed read is a long way
    /// into the store (PostgreSQL: libpq's getters and the type's decoding behind the protocol's
    /// dynamic call), not where it is one call into the store's library (SQLite).
    static var loadsCells: Bool { get }
    /// Decodes `count` result columns of the current row, `columns`, into cells, and gives the
    /// cells by result column (a column not asked for holds `other`): valid until the next step
    /// or reset. Nil where the store does not load cells.
    func loadCells(_ columns: UnsafePointer<Int32>, count: Int) -> UnsafePointer<StoreCell>?
}

/// A statement that only takes binds and never has a row (a batch's row of values, a
/// tombstone's encoder): its reads are these, written once.
protocol RowlessStatement: StoreStatement {}

extension RowlessStatement {
    func isNull(at column: Int32) -> Bool { true }
    func int64(at column: Int32) -> Int64? { nil }
    func double(at column: Int32) -> Double? { nil }
    func text(at column: Int32) -> String { "" }
    func textBytes(at column: Int32) -> UnsafeBufferPointer<UInt8>? { nil }
    func blob(at column: Int32) -> Data { Data() }
    func uuid(at column: Int32) -> UUID? { nil }
    func value(at column: Int32) -> SQLValue { .null }
}

extension StoreStatement {
    var refusesBoundValues: Bool { true }
    static var loadsCells: Bool { false }
    func loadCells(_ columns: UnsafePointer<Int32>, count: Int) -> UnsafePointer<StoreCell>? { nil }
    var hasBindingProblem: Bool { bindingProblem != nil }

    /// Binds every value in order, starting at index 1.
    func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    /// Runs to completion, ignoring rows.
    func run() throws {
        while try step() {}
    }

    /// The column as an integer the store keeps itself (a row's key, a token, a count).
    ///
    /// - Throws: `StoredValueError` naming the column, its value and the SQL when it is not an integer.
    func integer(at column: Int32) throws -> Int64 {
        if let value = int64(at: column) { return value }
        throw StoredValueError(column: column, value: value(at: column), expected: "an integer", sql: sql)
    }
}

/// A column of the store's own (a key, a token) that does not hold what the store wrote there.
struct StoredValueError: Error, CustomStringConvertible {
    let column: Int32
    let value: SQLValue
    let expected: String
    let sql: String

    var description: String {
        "column \(column) holds \(SQLValue.shortDescription(value)), not \(expected), in the result of: \(sql)"
    }
}

extension StoreConnection {
    func leaveFilesAsTheyAreOnClose() {}

    /// Stores that run statements one at a time: never batching.
    var sendsInBatches: Bool { false }
    /// Runs the statement at once (callers send only while `sendsInBatches`).
    func send(_ statement: any StoreStatement) throws { try statement.run() }
    var sentCount: Int { 0 }
    func receiveSent() -> SentResults { SentResults(results: [], failure: nil) }
    /// A store without standbys reads where it writes.
    func routeReads(from source: ModelConfiguration.ReadSource?) {}
    /// Stores that run statements one at a time never retry a save: no error is asked about.
    func failedOnTheServer(_ error: any Error) -> Bool { false }
    /// One row per statement.
    func rowBatch(forInsert insert: String, table: String, typeName: String?, columns: [String],
                  onlyIfRowOf existing: (table: String, column: Int)?) throws -> (any RowBatch)? { nil }
    func reserveKeys(in table: String, count: Int) throws -> [Int64] {
        throw ModelStoreError.invalidSchema("this store takes no reserved keys")
    }
    func rowBatch(forUpdate update: String, table: String, columns: [String]) throws -> (any RowBatch)? { nil }
}
