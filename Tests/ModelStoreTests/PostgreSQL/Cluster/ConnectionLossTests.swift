import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

/// A server stopped by an immediate shutdown (SIGQUIT, what `ThrowawayReplicaSet.stop` sends and
/// what a standby going away looks like) warns each client with a 57P01 notice and closes; libpq
/// then reports "server closed the connection unexpectedly" with no SQLSTATE and the connection's
/// status still OK. Such a failure must read as a lost connection (which the read router retries on
/// another host, docs/Scaling.md), never as the server refusing the statement.
@Suite(.serialized)
struct ConnectionLossTests {
    @Test func aStatementCutOffByAnImmediateShutdownReportsTheConnectionLost() throws {
        let set = try ThrowawayReplicaSet(.init(standbys: 0))
        defer { set.remove() }
        let connection = try set.nodes[0].connect()
        let watcher = try set.nodes[0].connect()
        let backend = connection.backendPID
        let finished = DispatchSemaphore(value: 0)
        let failures = LockedList<Error>()
        // Used by the thread until it signals, then by the test.
        let handedOver = HandedOver(connection)
        Thread.detachNewThread {
            defer { finished.signal() }
            do { _ = try handedOver.connection.rows("SELECT pg_sleep(?)", [.real(30)]) } catch { failures.append(error) }
        }
        // Stop the server once the statement runs (not before: then it would not be cut off).
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            let active = try watcher.rows("SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND state = 'active' AND wait_event = 'PgSleep'",
                                          [.integer(Int64(backend))])
            if active == [[.integer(1)]] { break }
            usleep(5_000)
        }
        set.stop(0)
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let error = try #require(failures.items.first as? PostgresError)
        #expect(error.kind == .connectionLost, "\(error)")
        #expect(!connection.isConnected)
    }

    /// Inside a transaction nothing is read before a statement is sent (a lost connection there
    /// must fail, not reconnect): the statement is written to a socket the server has closed.
    @Test func aStatementSentAfterTheServerWentAwayInsideATransactionReportsTheConnectionLost() throws {
        let set = try ThrowawayReplicaSet(.init(standbys: 0))
        defer { set.remove() }
        let connection = try set.nodes[0].connect()
        try connection.execute("BEGIN")
        #expect(try connection.rows("SELECT ?::bigint + 1", [.integer(41)]) == [[.integer(42)]])
        set.stop(0)
        let error = try #require(throws: PostgresError.self) { try connection.rows("SELECT ?::bigint + 2", [.integer(41)]) }
        #expect(error.kind == .connectionLost, "\(error)")
        #expect(!connection.isConnected)
    }

    @Test func anIdleConnectionTheServerWarnedOfItsShutdownIsNotUsedAsIfOpen() throws {
        let set = try ThrowawayReplicaSet(.init(standbys: 0))
        defer { set.remove() }
        let connection = try set.nodes[0].connect()
        #expect(try connection.rows("SELECT ?::bigint + 1", [.integer(41)]) == [[.integer(42)]])
        set.stop(0)
        #expect(!connection.isConnected)
        // Opened again before the statement, which fails to connect: the server is gone.
        let error = try #require(throws: PostgresError.self) { try connection.rows("SELECT ?::bigint + 1", [.integer(41)]) }
        #expect(error.kind == .connectionLost || error.kind == .connectionFailed, "\(error)")
    }
}

/// A connection one thread uses at a time: the thread until it signals, then the test.
private struct HandedOver: @unchecked Sendable {
    let connection: PostgresConnection
    init(_ connection: PostgresConnection) { self.connection = connection }
}
