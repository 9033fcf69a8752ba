import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore
import StoreTestSupport

/// `?` → `$n`, skipping literals, quoted identifiers, comments and dollar quotes.
@Suite struct PostgreSQLPlaceholderTests {
    static let cases: [(sql: String, rewritten: String, count: Int)] = [
        ("SELECT 1", "SELECT 1", 0),
        ("SELECT ?", "SELECT $1", 1),
        ("INSERT INTO t (a, b, c) VALUES (?, ?, ?)", "INSERT INTO t (a, b, c) VALUES ($1, $2, $3)", 3),
        ("SELECT * FROM t WHERE a = ? AND b IN (?,?)", "SELECT * FROM t WHERE a = $1 AND b IN ($2,$3)", 3),
        ("SELECT '?', ?", "SELECT '?', $1", 1),
        ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1", 1),
        ("SELECT \"col?\" FROM \"t\"\"?\" WHERE x = ?", "SELECT \"col?\" FROM \"t\"\"?\" WHERE x = $1", 1),
        ("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2", 2),
        ("SELECT /* a ? /* nested ? */ still ? */ ?", "SELECT /* a ? /* nested ? */ still ? */ $1", 1),
        ("SELECT E'\\'?', ?", "SELECT E'\\'?', $1", 1),
        ("SELECT e'a\\\\', ?", "SELECT e'a\\\\', $1", 1),
        ("SELECT 'a\\', ?", "SELECT 'a\\', $1", 1),  // standard strings: a backslash is a character
        ("SELECT $$ ? $$, ?", "SELECT $$ ? $$, $1", 1),
        ("SELECT $tag$ ? $notag$ ? $tag$, ?", "SELECT $tag$ ? $notag$ ? $tag$, $1", 1),
        ("SELECT ?::bigint IS NULL", "SELECT $1::bigint IS NULL", 1),
        ("SELECT CAST(? AS uuid)", "SELECT CAST($1 AS uuid)", 1),
        ("SELECT $1, $2", "SELECT $1, $2", 0),
        ("SELECT a$b, ?", "SELECT a$b, $1", 1),
        ("SELECT 'unterminated ?", "SELECT 'unterminated ?", 0),
        ("SELECT 'é?' || ? || \"日本?\"", "SELECT 'é?' || $1 || \"日本?\"", 1),
        (String(repeating: "?,", count: 12) + "?", (1...13).map { "$\($0)" }.joined(separator: ","), 13),
    ]

    @Test(arguments: cases)
    func rewrites(sql: String, rewritten: String, count: Int) {
        let result = PostgresPlaceholders.rewrite(sql)
        #expect(result.sql == rewritten)
        #expect(result.count == count)
    }

    /// The parameter types the casts fix (every parameter cast where it stands, to a type of the
    /// table); nil when one is not, or when the SQL may number its own.
    static let castCases: [(sql: String, types: [PostgresType]?)] = [
        ("SELECT 1", []),
        ("SELECT $1", nil),
        ("SELECT CAST(? AS bigint), ?::text, CAST(? AS double precision)", [.int8, .text, .float8]),
        ("SELECT x FROM t WHERE x = ANY(?::bigint[]) AND y = CAST(? AS jsonb) AND z = CAST(? AS json)",
         [PostgresType(rawValue: 1016), .jsonb, .json]),
        ("SELECT CAST(? AS text[]), CAST(? AS uuid), ?::bytea, CAST(? AS numeric)", [PostgresType(rawValue: 1009), .uuid, .bytea, .numeric]),
        ("SELECT CAST(? AS bigint), ?", nil),
        ("SELECT x FROM t WHERE x = ?", nil),
        ("SELECT CAST(? AS timestamp)", nil),
        ("SELECT CAST(? AS bigint) + 1, ?::bigintx", nil),
        ("SELECT ?::numeric(10,2)", nil),
        ("SELECT cast(? AS bigint)", nil),
        ("SELECT XCAST(? AS bigint)", nil),
        ("SELECT 'CAST(?' AS a, ? AS bigint)", nil),
        ("SELECT ?::text || ?::text", [.text, .text]),
    ]

    @Test(arguments: castCases)
    func castTypes(sql: String, types: [PostgresType]?) {
        let result = PostgresPlaceholders.rewriteWithCastTypes(sql)
        #expect(result.sql == PostgresPlaceholders.rewrite(sql).sql)
        #expect(result.castTypes == types, "\(sql)")
    }

    /// The server agrees: each rewritten statement prepares with the counted parameters.
    @Test func serverSeesTheCountedParameters() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let statement = try connection.statement("SELECT '?' AS a, ?::int8 AS b, \"x?\" FROM (SELECT ?::text AS \"x?\") s -- ?\n WHERE ?::int4 = 1")
        statement.bind([.integer(7), .text("t"), .integer(1)])
        #expect(try statement.step())
        #expect(statement.parameterTypes == [.int8, .text, .int4])
        #expect(statement.text(at: 0) == "?")
        #expect(statement.int64(at: 1) == 7)
        #expect(statement.text(at: 2) == "t")
        #expect(try !statement.step())
    }
}
