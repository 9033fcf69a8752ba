import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore
import StoreTestSupport

/// `PostgresConnectionPool` under concurrency: never more than N connections, each lent to one
/// caller at a time, waiting callers served, a timeout when all stay busy.
@Suite struct PostgreSQLPoolTests {
    /// Counts callers inside `withConnection` at once, and the most seen; collects texts.
    final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var inside = 0
        private(set) var most = 0
        private var holders: Set<ObjectIdentifier> = []
        private(set) var sharedConnection = false

        func enter(_ connection: PostgresConnection) {
            lock.lock()
            inside += 1
            most = max(most, inside)
            if !holders.insert(ObjectIdentifier(connection)).inserted { sharedConnection = true }
            lock.unlock()
        }

        func leave(_ connection: PostgresConnection) {
            lock.lock()
            inside -= 1
            holders.remove(ObjectIdentifier(connection))
            lock.unlock()
        }

        private(set) var errors: [String] = []

        func record(_ text: String) {
            lock.lock()
            errors.append(text)
            lock.unlock()
        }
    }

    /// Runs `body(worker)` on `count` threads at once; the errors they threw.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let done = DispatchGroup()
        let errors = Gauge()
        for worker in 0..<count {
            done.enter()
            Thread {
                defer { done.leave() }
                do { try body(worker) } catch { errors.record("\(error)") }
            }.start()
        }
        if done.wait(timeout: .now() + 120) == .timedOut { errors.record("threads still running after 120 s") }
        return errors.errors
    }

    @Test func manyThreadsShareFewConnections() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let pool = PostgresConnectionPool(url: database.url, maximumConnections: 3, waitTimeout: 60)
        try pool.withConnection { try $0.execute("CREATE TABLE hits (worker int, n int, backend int)") }
        let gauge = Gauge()
        let workers = 12, perWorker = 40
        let errors = Self.onThreads(workers) { worker in
            for n in 0..<perWorker {
                try pool.withConnection { connection in
                    gauge.enter(connection)
                    defer { gauge.leave(connection) }
                    try connection.transaction {
                        try connection.run("INSERT INTO hits VALUES (?, ?, pg_backend_pid())", [.integer(Int64(worker)), .integer(Int64(n))])
                        if n % 10 == 0 { try connection.execute("SELECT pg_sleep(0.005)") }
                    }
                }
            }
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(gauge.most <= 3)
        #expect(!gauge.sharedConnection, "a connection was lent to two callers at once")
        #expect(pool.openConnectionCount <= 3)
        let rows = try pool.withConnection { try $0.rows("SELECT count(*), count(DISTINCT (worker, n)), count(DISTINCT backend) FROM hits") }
        #expect(rows.count == 1)
        #expect(rows[0][0] == .integer(Int64(workers * perWorker)))
        #expect(rows[0][1] == .integer(Int64(workers * perWorker)))
        guard case .integer(let backends) = rows[0][2] else { return }
        #expect(backends >= 1 && backends <= 3)
    }

    /// Three callers hold the pool's three connections at the same time: each waits inside
    /// `withConnection` until all three are inside (which never happens if the pool lent fewer).
    struct NotAllInside: Error {}

    @Test func allConnectionsAreLentAtOnce() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let pool = PostgresConnectionPool(url: database.url, maximumConnections: 3, waitTimeout: 10)
        let inside = DispatchGroup()
        for _ in 0..<3 { inside.enter() }
        let backends = Gauge()
        let errors = Self.onThreads(3) { _ in
            try pool.withConnection { connection in
                backends.record("\(connection.backendPID)")
                inside.leave()
                guard inside.wait(timeout: .now() + 10) == .success else { throw NotAllInside() }
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(Set(backends.errors).count == 3)
        #expect(pool.openConnectionCount == 3)
    }

    @Test func waitingCallerTimesOutWhenAllStayBusy() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let pool = PostgresConnectionPool(url: database.url, maximumConnections: 1, waitTimeout: 0.3)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
        }
        holder.start()
        holding.wait()
        let start = Date()
        let error = try #require(throws: PostgresError.self) { try pool.withConnection { _ in } }
        let waited = Date().timeIntervalSince(start)
        #expect(error.kind == .poolTimeout)
        #expect(error.message.contains("all 1 connections"))
        #expect(waited >= 0.25 && waited < 5, "waited \(waited) s")
        release.signal()
        // Once given back, the connection is lent again.
        let deadline = Date(timeIntervalSinceNow: 5)
        var served = false
        while !served, Date() < deadline {
            served = (try? pool.withConnection { try $0.rows("SELECT 1") == [[.integer(1)]] }) ?? false
        }
        #expect(served)
        #expect(pool.openConnectionCount == 1)
    }

    @Test func aTransactionLeftOpenIsRolledBackWhenGivenBack() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let pool = PostgresConnectionPool(url: database.url, maximumConnections: 1)
        try pool.withConnection { connection in
            try connection.execute("CREATE TABLE t (v int)")
            try connection.begin()
            try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
        }
        let rows = try pool.withConnection { connection throws -> [[SQLValue]] in
            #expect(!connection.isInTransaction)
            return try connection.rows("SELECT count(*) FROM t")
        }
        #expect(rows == [[.integer(0)]])
    }

    @Test func aFailedConnectionAttemptFreesItsPlace() throws {
        let pool = PostgresConnectionPool(url: try PostgresURL("postgresql:///x?host=/tmp/modelstore-no-server-here"), maximumConnections: 1, waitTimeout: 0.2)
        for _ in 0..<3 {
            let error = try #require(throws: PostgresError.self) { try pool.withConnection { _ in } }
            #expect(error.kind == .connectionFailed, "not a pool timeout: the failed attempt gave its place back")
        }
        #expect(pool.openConnectionCount == 0)
    }

    @Test func aBrokenIdleConnectionIsReplacedOnItsNextUse() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let pool = PostgresConnectionPool(url: database.url, maximumConnections: 1)
        let first = try pool.withConnection { $0.backendPID }
        try database.terminateBackend(first)
        let second = try pool.withConnection { connection throws -> Int32 in
            #expect(try connection.rows("SELECT 1") == [[.integer(1)]])
            return connection.backendPID
        }
        #expect(second != first)
    }
}
