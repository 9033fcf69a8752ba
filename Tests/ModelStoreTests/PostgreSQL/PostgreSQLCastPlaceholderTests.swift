import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore
import StoreTestSupport

/// The casts the PostgreSQL dialect puts on a type filter's entity names and on `LIMIT`/`OFFSET`
/// values (`PostgresDialect.typeNamePlaceholder`, `windowPlaceholder`) are the types the server
/// infers without them, so they change nothing but the round trips (docs/PostgreSQL.md,
/// "Preparing with the first execution"): against the real server, the same inferred parameter
/// types, the same rows for every window (no limit is `LIMIT NULL`), and the cast statement is
/// prepared with its first execution.
@Suite struct PostgreSQLCastPlaceholderTests {
    @Test func castTypeFiltersAndWindowsAreWhatTheServerInfersUncast() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let oracle = try database.connect()
        try connection.execute("CREATE TABLE t (\"$pk\" bigint PRIMARY KEY, \"$type\" text NOT NULL, at double precision)")
        try connection.run("INSERT INTO t SELECT i, CASE i % 3 WHEN 0 THEN 'Trip' WHEN 1 THEN 'BusinessTrip' ELSE 'PersonalTrip' END, i * 1.5 FROM generate_series(1, 30) AS i")
        let dialect = PostgresDialect()
        let typed = "SELECT \"$pk\", \"$type\" FROM t WHERE " + dialect.typeFilter(["BusinessTrip", "PersonalTrip"]) + " AND at > CAST(? AS double precision) ORDER BY \"$pk\"" + dialect.windowClause
        let untyped = "SELECT \"$pk\", \"$type\" FROM t WHERE \"$type\" IN (?, ?) AND at > CAST(? AS double precision) ORDER BY \"$pk\" LIMIT ? OFFSET ?"
        #expect(typed.contains("\"$type\" IN (CAST(? AS text), CAST(? AS text))") && typed.hasSuffix(" LIMIT CAST(? AS bigint) OFFSET CAST(? AS bigint)"), "\(typed)")
        #expect(try connection.statement(typed).castTypes != nil)
        #expect(try connection.statement(untyped).castTypes == nil)
        #expect(try oracle.statement(typed).describedParameterTypes() == (try oracle.statement(untyped).describedParameterTypes()))
        let windows: [(SQLValue, SQLValue)] = [(dialect.noLimit, .integer(0)), (dialect.noLimit, .integer(4)), (.integer(3), .integer(0)),
                                              (.integer(2), .integer(5)), (.integer(0), .integer(0)), (.integer(100), .integer(100))]
        var first = true
        for (limit, offset) in windows {
            let bindings: [SQLValue] = [.text("BusinessTrip"), .text("PersonalTrip"), .real(3), limit, offset]
            let parsed = connection.statementsParsed
            let statement = try connection.statement(typed)
            statement.mayPrepareInFlight = true
            statement.bind(bindings)
            let rows = try statement.executeAll()
            let read = (0..<rows.rowCount).map { row in (0..<rows.columnCount).map { rows.value(row: row, column: $0) } }
            statement.reset()
            #expect(connection.statementsParsed == parsed + (first ? 1 : 0), "\(limit) \(offset)")
            first = false
            #expect(read == (try oracle.rows(untyped, bindings)), "\(limit) \(offset)")
            #expect(!read.isEmpty || limit == .integer(0) || offset == .integer(100), "\(limit) \(offset)")
        }
    }
}
