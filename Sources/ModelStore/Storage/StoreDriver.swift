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
}

extension StoreDriver {
    func check(_ schema: StoredSchema) throws {}

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
}

extension StoreConnection {
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
/// the rows, read columns (0-based), reset. Owned by its connection's cache.
@usableFromInline protocol StoreStatement: AnyObject {
    /// The SQL text it was prepared from (with `?` placeholders).
    var sql: String { get }
    /// Resets the statement and clears its bindings, ready for a new execution.
    func reset()
    /// Binds `value` at the 1-based `index`. A value the store cannot hold exactly (a NaN) is
    /// refused: the next `step()` throws.
    func bind(_ value: SQLValue, at index: Int32)
    /// Steps once: true when a row is available, false when done.
    ///
    /// - Throws: the store's error (a failed bind, a constraint, a lost connection…).
    func step() throws -> Bool
    /// The number of result columns.
    var columnCount: Int32 { get }
    /// Whether the column of the current row is NULL.
    func isNull(at column: Int32) -> Bool
    /// The column as a 64-bit integer.
    func int64(at column: Int32) -> Int64
    /// The column as text.
    func text(at column: Int32) -> String
    /// The column as a value.
    func value(at column: Int32) -> SQLValue
    /// The first value bound since the last reset that the store cannot hold as it is: its
    /// `bind` index and why (nil: none; SQLite holds every value).
    var bindingProblem: (position: Int32, reason: String)? { get }
}

extension StoreStatement {
    @usableFromInline var bindingProblem: (position: Int32, reason: String)? { nil }

    /// Binds every value in order, starting at index 1.
    func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    /// Runs to completion, ignoring rows.
    func run() throws {
        while try step() {}
    }
}

extension StoreConnection {
    func leaveFilesAsTheyAreOnClose() {}
}
