import Foundation
import Testing
@testable import ModelStore
import StoreTestSupport

/// The PostgreSQL client reads a 64-bit integer with one decoder (`PostgresDecoding.int64`):
/// the statement read row by row (`PostgresStatement.int64(at:)`) and the whole result the
/// store's statements read (`PostgresRows.int64`) give one answer for every column, where they
/// once disagreed on decimal text (numeric `5.000`: 5 and 0; `12.5`: 12 and 0). Text that is not
/// a whole number reads as nil, which a model's read reports as `corruptRow`, not a wrong number.
@Suite struct PostgreSQLIntegerDecodingTests {
    /// A column expression and the integer it reads as (nil: not an integer).
    static let cases: [(sql: String, expected: Int64?)] = [
        ("5.000::numeric", 5), ("-12::numeric", -12), ("0.0::numeric", 0), ("12.5::numeric", nil), ("1.0001::numeric", nil),
        ("9223372036854775807::numeric", .max), ("-9223372036854775808::numeric", .min), ("9223372036854775808::numeric", nil),
        ("'NaN'::numeric", nil), ("'42'::text", 42), ("'+7'::text", 7), ("'abc'::text", nil), ("'1e3'::text", nil), ("''::text", nil),
        ("'12abc'::text", nil), ("7::int8", 7), ("-7::int4", -7), ("7::int2", 7), ("7.9::float8", 7), ("-7.9::float8", -7),
        ("'NaN'::float8", nil), ("'\\x01'::bytea", nil), ("NULL::bigint", 0),
    ]

    /// Both readers, with results in binary form and (a `date` column forces it) in text form.
    @Test(arguments: [false, true]) func statementAndWholeResultGiveOneAnswer(textResults: Bool) throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let connection = try database.connect()
        let sql = "SELECT " + Self.cases.map(\.sql).joined(separator: ", ") + (textResults ? ", current_date" : "")
        let statement = try connection.statement(sql)
        #expect(try statement.step())
        var rowByRow: [Int64?] = []
        for column in Self.cases.indices { rowByRow.append(statement.int64(at: Int32(column))) }
        statement.reset()
        let rows = try connection.statement(sql).executeAll()
        let whole = Self.cases.indices.map { rows.int64(row: 0, column: Int32($0)) }
        for (index, testCase) in Self.cases.enumerated() {
            #expect(rowByRow[index] == testCase.expected, "\(testCase.sql), row by row")
            #expect(whole[index] == testCase.expected, "\(testCase.sql), whole result")
        }
    }

    /// The decoder against its definition on generated texts: an integer with an optional sign and
    /// an optional fraction of zeros is that integer; any other fraction, or a value out of
    /// Int64's range, is nil.
    @Test func wholeNumberTextOracle() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let value = Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...63, using: &generator)
            let zeros = String(repeating: "0", count: Int.random(in: 0...4, using: &generator))
            let text = "\(value)" + (Bool.random(using: &generator) ? "." + zeros : "")
            #expect(PostgresDecoding.wholeNumber(text) == value, "\(text)")
            let fraction = "." + zeros + String(Int.random(in: 1...9, using: &generator))
            #expect(PostgresDecoding.wholeNumber("\(value)" + fraction) == nil, "\(value)\(fraction)")
        }
        #expect(PostgresDecoding.wholeNumber("9223372036854775808") == nil)
        #expect(PostgresDecoding.wholeNumber("-9223372036854775809.0") == nil)
    }

    /// A model's `Int` whose column holds text: a whole number is read, anything else is
    /// `corruptRow` naming the entity, the property and the stored text (never a truncated number).
    @Test func modelReadOfNonIntegerTextIsAnError() throws {
        let store = try TestStore(.postgresql)
        let container = try store.container(for: Schema([Badge.self]))
        let context = ModelContext(container)
        context.insert(Badge(code: "A", holder: "door", slot: 1, label: "first"))
        try context.save()
        let raw = try store.rawConnection(through: container)
        try raw.execute("ALTER TABLE \"Badge\" ALTER COLUMN \"slot\" TYPE text USING \"slot\"::text")
        try raw.execute("UPDATE \"Badge\" SET \"slot\" = '42'")
        #expect(try ModelContext(container).fetch(FetchDescriptor<Badge>()).map(\.slot) == [42])
        try raw.execute("UPDATE \"Badge\" SET \"slot\" = '12.5'")
        let error = try #require(throws: ModelStoreError.self) { try ModelContext(container).fetch(FetchDescriptor<Badge>()) }
        guard case .corruptRow(let entity, _, let property, let storedValue) = error else {
            Issue.record("expected corruptRow, got \(error)")
            return
        }
        #expect(entity == "Badge" && property == "slot" && storedValue == "'12.5'", "\(error)")
    }
}
