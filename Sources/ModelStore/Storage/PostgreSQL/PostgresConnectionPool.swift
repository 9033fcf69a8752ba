import Foundation

/// A small pool of connections to one server, owned by one store: `withConnection` lends a
/// connection to one caller at a time, opening up to `maximumConnections` as needed and keeping
/// them open for the next caller; a caller finding all of them busy waits (up to `waitTimeout`).
///
/// Thread-safe. A connection comes back as it should be lent: a transaction left open by the
/// borrower is rolled back, and a broken connection is opened again on its next use (see
/// `PostgresConnection`). Calls of `withConnection` must not nest on one thread when the pool may
/// be exhausted: the inner call would wait for the outer one.
package final class PostgresConnectionPool: @unchecked Sendable {
    /// Where the connections go.
    package let url: PostgresURL
    /// The most connections open at once.
    package let maximumConnections: Int
    /// The longest a caller waits for a free connection.
    package let waitTimeout: TimeInterval
    /// The seconds a connection attempt may take when the URL gives no `connect_timeout`.
    package let connectTimeout: Int

    // Guarded by `condition`: read and written only with it held, so not checked for exclusive
    // access at run time as well (the checks of a statement's borrow and give-back, about 150
    // instructions a lookup).
    private let condition = NSCondition()
    @exclusivity(unchecked) private var idle: [PostgresConnection] = []
    @exclusivity(unchecked) private var openCount = 0
    /// Writes begun or committed through the store's contexts (`noteWrite()`), guarded by `condition`.
    @exclusivity(unchecked) private var writeCount = 0
    /// Where the pool's connections report their statements (set before the pool is used; nil: no tracing).
    var tracer: StatementTracer?

    /// A pool of at most `maximumConnections` (at least 1) connections to `url`. Opens none yet.
    package init(url: PostgresURL, maximumConnections: Int = 4, waitTimeout: TimeInterval = 30,
                connectTimeout: Int = PostgresConnection.defaultConnectTimeout) {
        self.url = url
        self.maximumConnections = max(1, maximumConnections)
        self.waitTimeout = waitTimeout
        self.connectTimeout = connectTimeout
    }

    /// The connections open now (lent or idle).
    package var openConnectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }

    /// The connections open and not lent now.
    var idleConnectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return idle.count
    }

    /// Runs `body` with a connection of the pool, lent to this caller alone until `body` returns.
    /// - Throws: `PostgresError` `.poolTimeout` when no connection became free within
    ///   `waitTimeout`, the error of opening a connection, or what `body` throws.
    package func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try borrow()
        defer { giveBack(connection) }
        return try body(connection)
    }

    /// Lends a connection to this caller alone until it is given back with `giveBack(_:)` (for a
    /// transaction that spans several calls, as a store's contexts run them).
    /// - Throws: `PostgresError` `.poolTimeout` when no connection became free within
    ///   `waitTimeout`, or the error of opening a connection.
    func borrow() throws -> PostgresConnection {
        // The clock is read only to wait: most calls find a connection idle (a lookup's borrow).
        var deadline: Date?
        condition.lock()
        while true {
            if let connection = idle.popLast() {
                condition.unlock()
                return connection
            }
            if openCount < maximumConnections {
                openCount += 1
                condition.unlock()
                do {
                    let connection = try PostgresConnection(url: url, connectTimeout: connectTimeout)
                    connection.tracer = tracer
                    return connection
                } catch {
                    condition.lock()
                    openCount -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            let until = deadline ?? Date(timeIntervalSinceNow: waitTimeout)
            deadline = until
            if !condition.wait(until: until) {
                // One last look: a connection may have come back just as the wait timed out.
                if let connection = idle.popLast() {
                    condition.unlock()
                    return connection
                }
                condition.unlock()
                throw PostgresError(kind: .poolTimeout, message: "all \(maximumConnections) connections to PostgreSQL (\(url.target)) stayed busy for \(waitTimeout) seconds")
            }
        }
    }

    /// Counts a write begun or committed by any context of the store: a read sent ahead before it
    /// is not used after it (`PostgresStoreConnection.readAhead`).
    func noteWrite() {
        condition.lock()
        writeCount &+= 1
        condition.unlock()
    }

    /// The writes counted so far by `noteWrite()`.
    var writes: Int {
        condition.lock()
        defer { condition.unlock() }
        return writeCount
    }

    /// Lends a connection as `borrow()` does, but only when that leaves another one to lend at
    /// once (idle, or a place to open one), so the caller never waits nor makes another wait: a
    /// read sent ahead (`PostgresStoreConnection.readAhead`) holds it while its caller works.
    /// Nil otherwise, and when opening one fails.
    func borrowIfSpare() -> PostgresConnection? {
        condition.lock()
        guard idle.count + (maximumConnections - openCount) >= 2 else {
            condition.unlock()
            return nil
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        condition.unlock()
        guard let connection = try? PostgresConnection(url: url, connectTimeout: connectTimeout) else {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            return nil
        }
        connection.tracer = tracer
        return connection
    }

    /// Takes back a connection lent by `borrow()`, rolling back any transaction left open.
    func giveBack(_ connection: PostgresConnection) {
        if let active = connection.activeStatement { active.finish() }
        if connection.isInTransaction { try? connection.rollback() }
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    /// Closes the idle connections (a server restart, or a quiet time); lent ones stay open and come
    /// back to the pool. New ones open as needed.
    package func closeIdleConnections() {
        condition.lock()
        let closing = idle
        idle.removeAll()
        openCount -= closing.count
        condition.signal()
        condition.unlock()
        _ = closing
    }
}
