import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

/// A read a hot standby cancels for a conflict with recovery runs again on the primary
/// (docs/Scaling.md, "Recovery conflicts").
@Suite(.serialized)
struct RecoveryConflictTests {
    /// Waits until `condition` holds, 30 s at most.
    static func waitFor(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: 30)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut(what: what) }
            usleep(5_000)
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { "not within 30 s: \(what)" }
    }

    /// The sessions of database `app` on `connection`'s server that wait for a lock.
    static func lockWaiters(_ connection: PostgresConnection) throws -> Int64 {
        guard case .integer(let count)? = try connection.rows(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = 'app' AND wait_event_type = 'Lock'").first?.first else { return -1 }
        return count
    }

    /// Made deterministic with a lock: the standby's replay holds the primary's exclusive lock on
    /// `"Trip"`, so a fetch there waits for it, holding the snapshot it took before transaction D's
    /// delete (of rows of another table) committed. D commits and the primary vacuums the rows away;
    /// the standby (`max_standby_streaming_delay = 0`, `hot_standby_feedback = off`) cancels the
    /// waiting fetch at once when it replays that vacuum: 40001, "canceling statement due to
    /// conflict with recovery". The fetch must then run on the primary (where it waits for the same
    /// lock until the test releases it) and return every trip; the context keeps the standby.
    @Test(.timeLimit(.minutes(2)))
    func aReadCancelledByRecoveryRunsAgainOnThePrimary() throws {
        let set = try ThrowawayReplicaSet(.init(standbys: 1, databases: ["app"]))
        defer { set.remove() }
        try set.setSetting(1, "max_standby_streaming_delay", "0")
        try set.setSetting(1, "hot_standby_feedback", "off")
        let primary = try set.nodes[0].connect(database: "app")
        let standby = try set.nodes[1].connect(database: "app")

        let container = try ClusterStoreTests.container(set.storeURL(database: "app", query: "read_from=standby"))
        let router = try ClusterStoreTests.router(container)
        let writer = ModelContext(container)
        for name in ["a", "b", "c"] { writer.insert(ClusterStoreTests.trip(name)) }
        try writer.save()
        try primary.execute("CREATE TABLE junk (v int) WITH (autovacuum_enabled = off); INSERT INTO junk SELECT generate_series(1, 1000)")
        try set.waitForReplay()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).count == 3)
        #expect(router.readCounts == [set.nodes[1].folder: 1])

        // D deletes (its transaction id is the oldest one running), then B locks "Trip" (LOCK takes
        // no snapshot, so B holds back no vacuum); the standby replays both, its replay now holding the lock.
        let d = try set.nodes[0].connect(database: "app")
        try d.execute("BEGIN; DELETE FROM junk")
        let b = try set.nodes[0].connect(database: "app")
        try b.execute(#"BEGIN; LOCK TABLE "Trip" IN ACCESS EXCLUSIVE MODE"#)
        var released = false
        defer { if !released { try? b.execute("ROLLBACK") } }
        try set.waitForReplay()

        let done = DispatchSemaphore(value: 0)
        let again = DispatchSemaphore(value: 0)
        let outcome = LockedList<Result<Int, Error>>()
        Thread.detachNewThread {
            defer { done.signal() }
            let reader = ModelContext(container)
            outcome.append(Result { try reader.fetch(FetchDescriptor<Trip>()).count })
            done.signal()
            // The standby is fine: the context's next read runs there again.
            _ = again.wait(timeout: .now() + 30)
            outcome.append(Result { try reader.fetchCount(FetchDescriptor<Trip>()) })
        }
        try Self.waitFor("the fetch waits for the lock on the standby") { try Self.lockWaiters(standby) == 1 }
        try d.execute("COMMIT")
        try primary.execute("VACUUM junk")
        // Cancelled on the standby, the fetch runs again on the primary: it waits there for B.
        try Self.waitFor("the fetch waits for the lock on the primary") { try Self.lockWaiters(primary) == 1 }
        #expect(try Self.lockWaiters(standby) == 0)
        try b.execute("ROLLBACK")
        released = true
        #expect(done.wait(timeout: .now() + 30) == .success)
        let counted = try #require(outcome.items.first)
        #expect(try counted.get() == 3)
        #expect(router.readCounts == [set.nodes[1].folder: 1, "primary": 1])
        #expect(set.nodes[1].logTail().contains("canceling statement due to conflict with recovery"))
        again.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(try outcome.items.last?.get() == 3)
        #expect(router.readCounts == [set.nodes[1].folder: 2, "primary": 1])
    }
}
