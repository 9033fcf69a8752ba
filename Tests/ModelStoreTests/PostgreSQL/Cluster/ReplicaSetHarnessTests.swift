import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

/// The test harness itself: a primary and two streaming standbys (`ThrowawayReplicaSet`) replicate,
/// lag on demand, survive a killed primary through a promotion, and leave nothing behind.
@Suite(.serialized)
struct ReplicaSetHarnessTests {
    @Test func aPrimaryAndTwoStandbysReplicateLagOnDemandAndFailOver() throws {
        let set = try ThrowawayReplicaSet(.init(standbys: 2))
        let folders = set.nodes.map(\.folder)
        try set.createDatabase("app")
        #expect(try set.nodes.map { try $0.isStandby() } == [false, true, true])

        let primary = try set.nodes[0].connect(database: "app")
        try primary.execute("CREATE TABLE t (v bigint)")
        try primary.run("INSERT INTO t VALUES (?)", [.integer(1)])
        try set.waitForReplay()
        for standby in set.nodes.dropFirst() {
            let connection = try standby.connect(database: "app")
            #expect(try connection.rows("SELECT v FROM t") == [[.integer(1)]])
            #expect(throws: PostgresError.self) { try connection.run("INSERT INTO t VALUES (2)") }
        }

        // A standby with recovery_min_apply_delay does not show a commit before the delay is over.
        try set.setApplyDelay(2, milliseconds: 600)
        try primary.run("INSERT INTO t VALUES (?)", [.integer(2)])
        let delayed = try set.nodes[2].connect(database: "app")
        let started = Date()
        try set.waitForReplay(from: 0, timeout: 10)
        #expect(Date().timeIntervalSince(started) >= 0.5)
        #expect(try delayed.rows("SELECT count(*) FROM t") == [[.integer(2)]])
        try set.setApplyDelay(2, milliseconds: 0)

        // The primary dies; node 1 becomes the primary and takes writes.
        set.kill(0)
        #expect(!set.nodes[0].isRunning)
        try set.promote(1)
        let promoted = try set.nodes[1].connect(database: "app")
        try promoted.run("INSERT INTO t VALUES (?)", [.integer(3)])
        #expect(try promoted.rows("SELECT count(*) FROM t") == [[.integer(3)]])
        #expect(try set.nodes[1].isStandby() == false)

        set.remove()
        for folder in folders { #expect(!FileManager.default.fileExists(atPath: folder)) }
    }
}
