import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

/// What a transaction cut off by a lost connection reports (docs/Scaling.md, "Failover"): not
/// applied when the loss is known before COMMIT is sent, of unknown outcome only after.
@Suite struct CommitOutcomeTests {
    @Test func aConnectionLostBeforeCommitSaysNothingWasApplied() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (v bigint)")
        try connection.begin()
        try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
        try database.terminateBackend(connection.backendPID)
        #expect { try connection.commit() } throws: {
            ($0 as? PostgresError)?.kind == .connectionLost && "\($0)".contains("before COMMIT was sent") && "\($0)".contains("nothing of it was applied")
        }
        try connection.rollback()
        #expect(try database.connect().rows("SELECT count(*) FROM t") == [[.integer(0)]])
        // The connection works again, and so does the next transaction.
        try connection.transaction { try connection.run("INSERT INTO t VALUES (?)", [.integer(2)]) }
        #expect(try database.connect().rows("SELECT v FROM t") == [[.integer(2)]])
    }

    @Test func aConnectionLostAfterCommitWasSentSaysTheOutcomeIsUnknown() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        // A deferred trigger makes COMMIT take 5 s: the backend is terminated meanwhile.
        try connection.execute("""
            CREATE TABLE t (v bigint);
            CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow();
            """)
        try connection.begin()
        try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
        let pid = connection.backendPID
        let killer = Thread {
            usleep(300_000)
            try? database.terminateBackend(pid)
        }
        killer.start()
        let started = Date()
        #expect { try connection.commit() } throws: {
            ($0 as? PostgresError)?.kind == .commitOutcomeUnknown && "\($0)".contains("may or may not have been applied")
        }
        #expect(Date().timeIntervalSince(started) < 4)
        try connection.rollback()
        try connection.execute("SELECT 1")
    }
}
