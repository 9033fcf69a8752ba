import CLibPQ
import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore
import StoreTestSupport

/// `PostgresConnection` against a real server: connection errors, server errors with their
/// SQLSTATE, statements and their cache, transactions that never half-apply, reconnection.
@Suite struct PostgreSQLConnectionTests {
    @Test func unreachableSocketFolder() throws {
        let folder = "/tmp/modelstore-no-server-" + UUID().uuidString
        let start = Date()
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection("postgresql://u:hunter2@/db?host=\(folder)")
        }
        #expect(error.kind == .connectionFailed)
        #expect(error.message.contains(folder), "\(error)")
        #expect(error.message.contains("No such file or directory"), "\(error)")
        #expect(!error.description.contains("hunter2"))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func unreachableHostTimesOut() throws {
        // 192.0.2.0/24 is TEST-NET-1: nothing answers there, so only the timeout ends the attempt
        // (or the network says at once that it is unreachable).
        let start = Date()
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection("postgresql://u@192.0.2.1:5432/db?connect_timeout=2")
        }
        #expect(error.kind == .connectionFailed, "\(error)")
        #expect(error.message.contains("192.0.2.1"), "\(error)")
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func missingDatabase() throws {
        let server = try PostgresTestServer.shared()
        var url = server.url
        url.database = "no_such_database_here"
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error.kind == .databaseMissing, "\(error)")
        #expect(error.sqlState == "3D000")
        #expect(error.message.contains("database \"no_such_database_here\" does not exist"), "\(error)")
    }

    @Test func unknownRole() throws {
        let server = try PostgresTestServer.shared()
        var url = server.url
        url.user = "no_such_role_here"
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error.kind == .authenticationFailed, "\(error)")
        #expect(error.message.contains("no_such_role_here"), "\(error)")
    }

    /// Needs a server that asks for passwords: the throwaway one does for its password group.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MODELSTORE_TEST_POSTGRES_URL"] == nil))
    func wrongPassword() throws {
        let server = try PostgresTestServer.shared()
        let admin = try server.adminConnection()
        let role = "pw_" + UUID().uuidString.prefix(8).lowercased()
        try admin.execute("CREATE ROLE \(role) LOGIN PASSWORD 'right-one' IN ROLE \(PostgresTestServer.passwordGroup)")
        defer { try? admin.execute("DROP ROLE \(role)") }
        var url = server.url
        url.user = role
        url.password = "wrong-one"
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error.kind == .authenticationFailed, "\(error)")
        #expect(error.message.contains("password authentication failed for user \"\(role)\""), "\(error)")
        #expect(!error.description.contains("wrong-one") && !error.description.contains("right-one"))
        url.password = nil
        let missing = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(missing.kind == .authenticationFailed, "\(missing)")
        url.password = "right-one"
        let connection = try PostgresConnection(url: url)
        #expect(try connection.rows("SELECT current_user") == [[.text(role)]])
    }

    @Test func serverErrorsCarryTheirSQLState() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE item (id bigint PRIMARY KEY, name text NOT NULL)")
        try connection.run("INSERT INTO item VALUES (?, ?)", [.integer(1), .text("a")])
        let duplicate = try #require(throws: PostgresError.self) {
            try connection.run("INSERT INTO item VALUES (?, ?)", [.integer(1), .text("b")])
        }
        #expect(duplicate.kind == .server)
        #expect(duplicate.sqlState == "23505")
        #expect(duplicate.message.contains("duplicate key value violates unique constraint"))
        #expect(duplicate.detail?.contains("Key (id)=(1) already exists") == true)
        #expect(duplicate.sql == "INSERT INTO item VALUES (?, ?)")
        #expect(duplicate.description.contains("23505") && duplicate.description.contains("(in: INSERT INTO item"))

        let missing = try #require(throws: PostgresError.self) { try connection.rows("SELECT * FROM nowhere") }
        #expect(missing.sqlState == "42P01")
        let syntax = try #require(throws: PostgresError.self) { try connection.execute("SELEC 1") }
        #expect(syntax.sqlState == "42601")
        let notNull = try #require(throws: PostgresError.self) {
            try connection.run("INSERT INTO item VALUES (?, ?)", [.integer(2), .null])
        }
        #expect(notNull.sqlState == "23502")
        // The connection is fine after each error.
        #expect(try connection.rows("SELECT count(*) FROM item") == [[.integer(1)]])
    }

    @Test func parametersWhoseTypeTheServerCannotInferNeedACast() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let error = try #require(throws: PostgresError.self) { try connection.rows("SELECT ? IS NULL", [.null]) }
        #expect(error.sqlState == "42P18", "\(error)")  // could not determine data type of parameter $1
        #expect(try connection.rows("SELECT ?::bigint IS NULL, CAST(? AS text) IS NULL", [.null, .text("x")]) == [[.integer(1), .integer(0)]])
    }

    /// A statement is prepared and described in one round trip (pipeline mode): the parameter and
    /// result types it learns are those libpq's one-at-a-time `PQprepare` and `PQdescribePrepared`
    /// give on another connection, a failed prepare is the same error, inside a transaction or
    /// not, and the connection leaves pipeline mode and goes on.
    @Test func preparingInOneRoundTripLearnsWhatPreparingAloneDoes() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let oracle = try database.connect()
        try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text, amount numeric, at double precision, key uuid, data bytea, flag boolean)")
        func described(_ sql: String, on handle: OpaquePointer, name: String) -> (parameters: [UInt32], columns: [UInt32], error: String?) {
            let prepared = PQprepare(handle, name, PostgresPlaceholders.rewrite(sql).sql, 0, nil)
            defer { PQclear(prepared) }
            guard PQresultStatus(prepared) == PGRES_COMMAND_OK else {
                return ([], [], PQresultErrorField(prepared, Int32(UInt8(ascii: "C"))).map { String(cString: $0) })
            }
            let description = PQdescribePrepared(handle, name)
            defer { PQclear(description) }
            return ((0..<PQnparams(description)).map { PQparamtype(description, $0) }, (0..<PQnfields(description)).map { PQftype(description, $0) }, nil)
        }
        let statements = [
            "SELECT id, name, amount, at, key, data, flag FROM t WHERE id = ? AND name = ? AND amount > ? AND at < ? AND key = ? AND data = ? AND flag = ?",
            "INSERT INTO t (id, name, amount, at, key, data, flag) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            "UPDATE t SET name = ? WHERE id = ANY(?::bigint[])",
            "SELECT count(*), max(name) FROM t",
        ]
        for (index, sql) in statements.enumerated() {
            let expected = described(sql, on: oracle.handle, name: "oracle_\(index)")
            #expect(expected.error == nil, "\(sql)")
            let statement = try connection.statement(sql)
            #expect(try statement.describedParameterTypes().map(\.rawValue) == expected.parameters, "\(sql)")
            #expect(statement.columnTypes.map(\.rawValue) == expected.columns, "\(sql)")
            #expect(PQpipelineStatus(connection.handle) == PQ_PIPELINE_OFF)
        }
        // Failures: a missing table, a parameter whose type cannot be inferred, a syntax error;
        // outside and inside a transaction (which the failure aborts, as a failed PQprepare does).
        for sql in ["SELECT * FROM nowhere WHERE id = ?", "SELECT ? IS NULL", "SELEC ?"] {
            let expected = try #require(described(sql, on: oracle.handle, name: "oracle_failing").error)
            let failure = try #require(throws: PostgresError.self) { try connection.rows(sql, [.integer(1)]) }
            #expect(failure.sqlState == expected, "\(sql): \(failure)")
            #expect(failure.sql == sql)
            #expect(PQpipelineStatus(connection.handle) == PQ_PIPELINE_OFF)
            #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])
            try connection.execute("BEGIN")
            let inside = try #require(throws: PostgresError.self) { try connection.rows(sql, [.integer(1)]) }
            #expect(inside.sqlState == expected, "\(sql): \(inside)")
            #expect(throws: PostgresError.self) { try connection.rows("SELECT 1") }  // the transaction is aborted
            try connection.execute("ROLLBACK")
            #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])
        }
    }

    /// A statement whose casts fix every parameter type is prepared, described and run in one
    /// round trip on its first execution on a connection (docs/PostgreSQL.md, "Preparing with the
    /// first execution"): the same rows and types as preparing first, parsed once per connection,
    /// a server error in it (a missing table, a type mismatch, a failure while running) reported as
    /// preparing first reports it, naming the statement, inside a transaction or not; the
    /// connection leaves pipeline mode and goes on.
    @Test func aStatementWhoseCastsFixItsTypesIsPreparedWithItsFirstExecution() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let oracle = try database.connect()
        try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text, at double precision, key uuid, day date)")
        try connection.run("INSERT INTO t VALUES (1, 'a', 1.5, NULL, '2024-01-02'), (2, 'b', -0.0, gen_random_uuid(), NULL), (3, NULL, 3, NULL, '2025-03-04')")
        func inFlight(_ sql: String, _ bindings: [SQLValue], on connection: PostgresConnection = connection) throws -> [[SQLValue]] {
            let statement = try connection.statement(sql)
            statement.mayPrepareInFlight = true
            statement.bind(bindings)
            defer { statement.reset() }
            let rows = try statement.executeAll()
            #expect(PQpipelineStatus(connection.handle) == PQ_PIPELINE_OFF)
            return (0..<rows.rowCount).map { row in (0..<rows.columnCount).map { rows.value(row: row, column: $0) } }
        }
        let cases: [(sql: String, bindings: [SQLValue])] = [
            ("SELECT id, name, at, key FROM t WHERE id > CAST(? AS bigint) AND at < CAST(? AS double precision) ORDER BY id", [.integer(0), .real(10)]),
            ("SELECT count(*) FROM (SELECT id FROM t WHERE name <> CAST(? AS text)) AS x", [.text("b")]),
            ("SELECT id FROM t WHERE id = ANY(?::bigint[]) ORDER BY id", [.blob(PostgresColumnArrays.int8Array([1, 3]))]),
            ("SELECT count(*), max(name) FROM t", []),
            // A column read only as text (`date`): run again with text results.
            ("SELECT id, day FROM t WHERE id >= CAST(? AS bigint) ORDER BY id", [.integer(2)]),
        ]
        for (sql, bindings) in cases {
            #expect(try connection.statement(sql).castTypes != nil, "\(sql)")
            let parsed = connection.statementsParsed
            let rows = try inFlight(sql, bindings)
            #expect(connection.statementsParsed == parsed + 1, "\(sql)")
            #expect(rows == (try oracle.rows(sql, bindings)), "\(sql)")
            let statement = try connection.statement(sql)
            #expect(statement.parameterTypes == (try oracle.statement(sql).describedParameterTypes()), "\(sql)")
            #expect(statement.columnTypes == (try oracle.statement(sql)).columnTypes, "\(sql)")
            // Used again: not parsed again.
            #expect(try inFlight(sql, bindings) == rows, "\(sql)")
            #expect(connection.statementsParsed == parsed + 1, "\(sql)")
        }
        // Failures: a missing table, a type mismatch; outside and inside a transaction (which the
        // failure aborts, as preparing first does).
        for sql in ["SELECT * FROM nowhere WHERE id = CAST(? AS bigint)", "SELECT id FROM t WHERE name = CAST(? AS bigint)"] {
            let expected = try #require(throws: PostgresError.self) { try oracle.rows(sql, [.integer(1)]) }
            let failure = try #require(throws: PostgresError.self) { try inFlight(sql, [.integer(1)]) }
            #expect(failure.sqlState == expected.sqlState && failure.message == expected.message, "\(sql): \(failure)")
            #expect(failure.sql == sql)
            #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(3)]])
            try connection.execute("BEGIN")
            let inside = try #require(throws: PostgresError.self) { try inFlight(sql, [.integer(1)]) }
            #expect(inside.sqlState == expected.sqlState, "\(sql): \(inside)")
            #expect(throws: PostgresError.self) { try connection.rows("SELECT 1") }  // the transaction is aborted
            try connection.execute("ROLLBACK")
            #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(3)]])
        }
        // A failure while running (the preparation succeeded): prepared all the same, not parsed again.
        let division = "SELECT 10 / CAST(? AS bigint)"
        let parsed = connection.statementsParsed
        let failure = try #require(throws: PostgresError.self) { try inFlight(division, [.integer(0)]) }
        #expect(failure.sqlState == "22012" && failure.sql == division, "\(failure)")
        #expect(try inFlight(division, [.integer(5)]) == [[.integer(2)]])
        #expect(connection.statementsParsed == parsed + 1)
        // Sent and left unread: the next command reads it, and the statement is prepared.
        let sent = try connection.statement(cases[0].sql)
        let read = try connection.statement("SELECT name FROM t WHERE id = CAST(? AS bigint)")
        read.mayPrepareInFlight = true
        read.bind([.integer(1)])
        try read.sendForAllRows()
        #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(3)]])
        let before = connection.statementsParsed
        read.reset()
        read.bind([.integer(2)])
        #expect(try read.executeAll().value(row: 0, column: 0) == .text("b"))
        #expect(connection.statementsParsed == before)
        _ = sent
        // Parameters whose types no cast fixes are prepared and described first, as before.
        #expect(try connection.statement("SELECT id FROM t WHERE id = ?").castTypes == nil)
        #expect(try inFlight("SELECT id FROM t WHERE id = ?", [.integer(3)]) == [[.integer(3)]])
    }

    @Test func statementsAreCachedAndRebindable() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE n (v bigint); CREATE INDEX ON n (v)")  // several statements
        for value in 0..<50 { try connection.run("INSERT INTO n VALUES (?)", [.integer(Int64(value))]) }
        let first = try connection.statement("SELECT v FROM n WHERE v >= ? ORDER BY v")
        first.bind([.integer(45)])
        var seen: [Int64?] = []
        while try first.step() { seen.append(first.int64(at: 0)) }
        #expect(seen == [45, 46, 47, 48, 49])
        let again = try connection.statement("SELECT v FROM n WHERE v >= ? ORDER BY v")
        #expect(again === first)
        again.bind(.integer(48), at: 1)
        #expect(try again.step())
        #expect(again.int64(at: 0) == 48)
        // Left mid-way: the next command drains it.
        #expect(try connection.rows("SELECT count(*) FROM n") == [[.integer(50)]])
        #expect(try connection.run("DELETE FROM n WHERE v < ?", [.integer(10)]) == 10)
        #expect(try connection.run("UPDATE n SET v = v + 1") == 40)
    }

    /// Bytes of `PostgresParameters.inPlaceBytes` or more are sent from their own storage, not
    /// copied into the parameters' buffer (`appendInPlace`): they arrive as sent, beside values
    /// copied in, in one statement and in its next execution; for a type that does not take bytes
    /// as they are (uuid, a number) they go the copying path and are refused with its error.
    @Test func largeBytesAreSentFromTheirOwnStorage() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE b (k bigint, small bytea, large bytea, other bytea)")
        var random = SystemRandomNumberGenerator()
        func bytes(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }) }
        let sizes = [PostgresParameters.inPlaceBytes - 1, PostgresParameters.inPlaceBytes, 70_000]
        var stored: [[SQLValue]] = []
        for (index, size) in sizes.enumerated() {
            let row: [SQLValue] = [.integer(Int64(index)), .blob(bytes(17)), .blob(bytes(size)), .blob(bytes(size + 1))]
            #expect(try connection.run("INSERT INTO b VALUES (?, ?, ?, ?)", row) == 1)
            stored.append(row)
        }
        #expect(try connection.rows("SELECT k, small, large, other FROM b ORDER BY k") == stored)
        let large = bytes(PostgresParameters.inPlaceBytes)
        #expect(try connection.rows("SELECT octet_length(?::bytea), md5(?::bytea)", [.blob(large), .blob(large)])
                == (try connection.rows("SELECT \(large.count)::int, md5(decode('\(large.map { String(format: "%02x", $0) }.joined())', 'hex'))")))
        let uuid = try #require(throws: PostgresError.self) { try connection.rows("SELECT ?::uuid", [.blob(bytes(5000))]) }
        #expect(uuid.kind == .invalidValue && uuid.message.contains("a uuid needs 16 bytes"))
        let number = try #require(throws: PostgresError.self) { try connection.rows("SELECT ?::int8", [.blob(bytes(5000))]) }
        #expect(number.kind == .invalidValue && number.message.contains("bytes cannot be stored as"))
    }

    @Test func tooManyValuesIsAnError() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let error = try #require(throws: PostgresError.self) { try connection.rows("SELECT ?::int8", [.integer(1), .integer(2)]) }
        #expect(error.kind == .invalidValue)
        #expect(error.message.contains("2 values bound to a statement with 1 parameters"))
    }

    @Test func largeResultsAreReadRowByRow() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let statement = try connection.statement("SELECT g, repeat('x', 100) FROM generate_series(1, ?::int8) g")
        statement.bind([.integer(200_000)])
        var count = 0
        var sum: Int64 = 0
        while try statement.step() {
            count += 1
            sum += try #require(statement.int64(at: 0))
            #expect(statement.text(at: 1).utf8.count == 100 || count > 1)
        }
        #expect(count == 200_000)
        #expect(sum == 200_000 * 200_001 / 2)
    }

    @Test func transactionRollsBackOnError() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
                throw Stop()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])

        // A failing statement: the whole transaction is undone, not only the failing part.
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
                try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
            }
        }
        #expect(error.sqlState == "23505")
        #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])

        // An error caught inside the body does not let COMMIT pass for success.
        let swallowed = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (?)", [.integer(2)])
                _ = try? connection.run("INSERT INTO t VALUES (?)", [.integer(2)])
            }
        }
        #expect(swallowed.sqlState == "25P02")
        #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])

        try connection.transaction { try connection.run("INSERT INTO t VALUES (?)", [.integer(3)]) }
        #expect(try connection.rows("SELECT id FROM t") == [[.integer(3)]])
    }

    /// A backend terminated while the connection is idle: the next use reconnects transparently
    /// and prepared statements are prepared again.
    @Test func reconnectsAfterTerminateBackend() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (v bigint)")
        try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
        let before = connection.backendPID
        try database.terminateBackend(before)
        #expect(!connection.isConnected)
        try connection.run("INSERT INTO t VALUES (?)", [.integer(2)])  // cached statement, new session
        #expect(connection.backendPID != before)
        #expect(try connection.rows("SELECT sum(v) FROM t") == [[.text("3")]])  // sum(bigint) is numeric
    }

    /// Terminated inside a transaction: the transaction's calls fail (nothing half-applied, no
    /// silent continuation in a new session), and after the rollback the connection works again.
    @Test func connectionLostInsideATransactionNeverHalfApplies() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (v bigint)")
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
                try database.terminateBackend(connection.backendPID)
                try connection.run("INSERT INTO t VALUES (?)", [.integer(2)])
            }
        }
        #expect(error.kind == .connectionLost, "\(error)")
        #expect(!connection.isInTransaction)
        #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])

        // By hand: BEGIN, lost, the next statement refuses to run outside the transaction.
        try connection.begin()
        try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
        try database.terminateBackend(connection.backendPID)
        let refused = try #require(throws: PostgresError.self) { try connection.run("INSERT INTO t VALUES (?)", [.integer(2)]) }
        #expect(refused.kind == .connectionLost)
        let again = try #require(throws: PostgresError.self) { try connection.run("INSERT INTO t VALUES (?)", [.integer(3)]) }
        #expect(again.kind == .connectionLost, "still inside the lost transaction until rolled back")
        try connection.rollback()
        try connection.run("INSERT INTO t VALUES (?)", [.integer(4)])
        #expect(try connection.rows("SELECT v FROM t") == [[.integer(4)]])
    }
}
