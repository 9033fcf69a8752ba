import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore
import StoreTestSupport

/// The typed reads of PostgreSQL results (`int64`, `double`, `text`, `textBytes`, `blob`, `uuid`)
/// decode straight from libpq's bytes (no `SQLValue` on the hot path): each must give exactly what
/// converting the column's `SQLValue` gives (docs/Runtime.md, "Reading stored values"). The oracle:
/// random values of every column type the runtime uses (NULLs among them), read through the
/// store's statements (whole results, `PostgresRows`) and row by row (`PostgresStatement`), in
/// binary and in text result form, every typed read compared with the conversion of `value(at:)`,
/// and `value(at:)` with what was written.
@Suite struct PostgreSQLTypedReadTests {
    static let rowCount = 600

    /// Text as the store's typed text read defines it.
    static func text(of value: SQLValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let integer): return String(integer)
        case .real(let real): return PostgresParameters.text(of: real)
        case .text(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    static func blob(of value: SQLValue) -> Data {
        switch value {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return Data()
        }
    }

    static func uuid(of value: SQLValue) -> UUID? {
        guard case .blob(let data) = value, data.count == 16 else { return nil }
        return UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }

    static func double(of value: SQLValue) -> Double? {
        switch value {
        case .null: return 0
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        case .text(let text): return Double(text)
        case .blob: return nil
        }
    }

    /// The reads of one column of the current row, by any reader of this client.
    struct Reads: Equatable {
        var isNull: Bool
        var int64: Int64?
        var double: UInt64?
        var text: String
        var blob: Data
        var uuid: UUID?
    }

    static func expected(_ value: SQLValue) -> Reads {
        Reads(isNull: value == .null, int64: PostgresDecoding.int64(value), double: double(of: value)?.bitPattern,
              text: text(of: value), blob: blob(of: value), uuid: uuid(of: value))
    }

    /// A table of random values of every column type the runtime uses (NULLs among them), and the
    /// select of its rows (with a column that makes results come as text, when `textResults`).
    struct RandomTable {
        let seed: UInt64
        let store: TestStore
        let connection: any StoreConnection
        let cases: [PostgreSQLValueRoundTripTests.Case]
        let written: [[SQLValue]]
        let select: String
    }

    static func randomTable(textResults: Bool) throws -> RandomTable {
        let seed = ReliabilityRandom.runSeed()
        var values = RandomValues(seed: seed)
        let store = try TestStore(.postgresql)
        let connection = try ModelContainer.makeDriver(store.configuration).makeConnection()
        var cases = PostgreSQLValueRoundTripTests.cases
        // Texts that read as numbers and 16-byte bytea (a UUID's form) take the other branches.
        cases.append(.init(column: "text") { values, index in .text(index % 2 == 0 ? String(values.int64(index)) : String(values.double(index))) })
        cases.append(.init(column: "bytea") { values, index in .blob(Data((0..<(index % 3 == 0 ? 16 : index % 20)).map { _ in UInt8.random(in: 0...255, using: &values.random) })) })
        let columns = cases.indices.map { "c\($0)" }
        try connection.execute("CREATE TABLE t (k bigint PRIMARY KEY, " + zip(columns, cases).map { "\($0) \($1.column)" }.joined(separator: ", ") + ")")
        var written: [[SQLValue]] = []
        let insert = "INSERT INTO t VALUES (?" + String(repeating: ", ?", count: cases.count) + ")"
        try connection.transaction {
            for row in 0..<Self.rowCount {
                // A 1 MB bytea (case 3 of bytea) once is enough.
                let rowValues = cases.map { ($0.column == "bytea" && row == 3) || (row + $0.column.count) % 7 == 0 ? SQLValue.null : $0.make(&values, row) }
                written.append(rowValues)
                try connection.run(insert, [.integer(Int64(row))] + rowValues)
            }
        }
        let select = "SELECT k, " + columns.joined(separator: ", ") + (textResults ? ", now()" : "") + " FROM t ORDER BY k"
        return RandomTable(seed: seed, store: store, connection: connection, cases: cases, written: written, select: select)
    }

    @Test(arguments: [false, true]) func typedReadsAgreeWithTheValue(textResults: Bool) throws {
        let table = try Self.randomTable(textResults: textResults)
        let (seed, store, connection, cases, written, select) = (table.seed, table.store, table.connection, table.cases, table.written, table.select)
        func check<S>(_ statement: S, reader: String, read: (S, Int32) -> (Reads, SQLValue, UnsafeBufferPointer<UInt8>?), step: (S) throws -> Bool) throws {
            var row = 0
            var mismatches: [String] = []
            while try step(statement) {
                for (index, testCase) in cases.enumerated() {
                    let (reads, value, textBytes) = read(statement, Int32(index + 1))
                    if !PostgreSQLValueRoundTripTests.same(written[row][index], value, column: testCase.column) {
                        mismatches.append("\(reader) #\(row) \(testCase.column): wrote \(String(describing: written[row][index]).prefix(80)), read \(String(describing: value).prefix(80))")
                    }
                    if reads != Self.expected(value) {
                        mismatches.append("\(reader) #\(row) \(testCase.column): typed reads \(String(describing: reads).prefix(300)) for \(String(describing: value).prefix(80))")
                    }
                    // In place: a textual column's text (jsonb's after its version byte), else nil.
                    let textual = ["text", "varchar", "jsonb"].contains(testCase.column) || (textResults && testCase.column == "numeric")
                    let expectedBytes: [UInt8]? = textual && value != .null ? Array(Self.text(of: value).utf8) : nil
                    if let textBytes, textual, case .text = value {
                        if Array(textBytes) != expectedBytes! { mismatches.append("\(reader) #\(row) \(testCase.column): text in place differs") }
                    } else if textBytes != nil || expectedBytes != nil {
                        mismatches.append("\(reader) #\(row) \(testCase.column): text in place \(textBytes == nil ? "missing" : "given") for \(String(describing: value).prefix(80))")
                    }
                }
                row += 1
            }
            #expect(row == Self.rowCount, "\(reader)")
            #expect(mismatches.isEmpty, "\(mismatches.count) mismatches (seed \(seed)): \(mismatches.prefix(6))")
        }
        // The store's statements: the whole result (`PostgresRows`).
        let statement = try #require(try connection.statement(select) as? PostgresStoreStatement)
        try check(statement, reader: "store statement", read: { statement, column in
            let value = statement.value(at: column)
            let reads = Reads(isNull: statement.isNull(at: column), int64: statement.int64(at: column), double: statement.double(at: column)?.bitPattern,
                              text: statement.text(at: column), blob: statement.blob(at: column), uuid: statement.uuid(at: column))
            return (reads, value, statement.textBytes(at: column))
        }, step: { try $0.step() })
        statement.reset()
        // Row by row (`PostgresStatement`, the client's own queries).
        let database = try #require(store.postgres)
        let directConnection = try database.connect()
        let direct = try directConnection.statement(select)
        try check(direct, reader: "row by row", read: { statement, column in
            let value = statement.value(at: column)
            let reads = Reads(isNull: statement.isNull(at: column), int64: statement.int64(at: column), double: statement.double(at: column)?.bitPattern,
                              text: statement.text(at: column), blob: statement.blob(at: column), uuid: statement.uuid(at: column))
            let bytes: UnsafeBufferPointer<UInt8>? = statement.isNull(at: column) ? nil
                : PostgresDecoding.textBytes(statement.bytes(at: column), type: statement.columnTypes[Int(column)], binary: !textResults)
            return (reads, value, bytes)
        }, step: { try $0.step() })
    }

    enum Mood: String, SQLStorable, CaseIterable { case calm, curious }
    enum Level: Int, SQLStorable, CaseIterable { case low = 1, high = 2 }

    /// What reading `Value` from `column` of `decoder`'s row gives: the value (numbers bit for bit),
    /// or the error's text.
    static func outcome<Value: SQLStorable>(_ type: Value.Type, _ decoder: RowDecoder, column: Int, _ key: (Value) -> String) -> String {
        do {
            let value: Value = try decoder.read(AttributeIndex(column, "value"))
            return key(value)
        } catch {
            return "error: \(error)"
        }
    }

    /// Every attribute type's read of one column, by name.
    static func outcomes(_ decoder: RowDecoder, column: Int) -> [String] {
        func text<Value>(_ value: Value) -> String { String(reflecting: value) }
        return [
            outcome(Int64.self, decoder, column: column, text), outcome(Int.self, decoder, column: column, text),
            outcome(Int32.self, decoder, column: column, text), outcome(Int16.self, decoder, column: column, text),
            outcome(Int8.self, decoder, column: column, text), outcome(UInt8.self, decoder, column: column, text),
            outcome(UInt16.self, decoder, column: column, text), outcome(UInt32.self, decoder, column: column, text),
            outcome(Bool.self, decoder, column: column, text),
            outcome(Double.self, decoder, column: column) { "\($0.bitPattern)" },
            outcome(Float.self, decoder, column: column) { "\($0.bitPattern)" },
            outcome(CGFloat.self, decoder, column: column) { "\(Double($0).bitPattern)" },
            outcome(Date.self, decoder, column: column) { "\($0.timeIntervalSinceReferenceDate.bitPattern)" },
            outcome(String.self, decoder, column: column, text), outcome(Data.self, decoder, column: column, text),
            outcome(UUID.self, decoder, column: column, text), outcome([String].self, decoder, column: column, text),
            outcome(Mood.self, decoder, column: column, text), outcome(Level.self, decoder, column: column, text),
            outcome(Int64?.self, decoder, column: column, text), outcome(Int?.self, decoder, column: column, text),
            outcome(Bool?.self, decoder, column: column, text),
            outcome(Double?.self, decoder, column: column) { "\(String(describing: $0?.bitPattern))" },
            outcome(Date?.self, decoder, column: column) { "\(String(describing: $0?.timeIntervalSinceReferenceDate.bitPattern))" },
            outcome(String?.self, decoder, column: column, text), outcome(Data?.self, decoder, column: column, text),
            outcome(UUID?.self, decoder, column: column, text), outcome(Mood?.self, decoder, column: column, text),
        ]
    }

    /// A fetch's rows are read from cells on PostgreSQL (`StoreCell`, `PostgresRows.loadCells`):
    /// every attribute type read from a row's cells must give exactly what it gives read through
    /// the statement's typed reads — the value, or the same corrupt-row error — on every column
    /// type, NULLs included, in binary and in text result form. The oracle is the statement's read
    /// of the same row.
    @Test(arguments: [false, true]) func cellReadsAgreeWithTheStatementReads(textResults: Bool) throws {
        let table = try Self.randomTable(textResults: textResults)
        let statement = try #require(try table.connection.statement(table.select) as? PostgresStoreStatement)
        defer { statement.reset() }
        let columnCount = table.cases.count + 1
        let columns = (0..<Int32(columnCount)).map { $0 }
        let reader = RowReader(statement: statement, positions: columns, entityName: "T")
        var row = 0
        var mismatches: [String] = []
        var cellsRead = 0
        try reader.withDecoder { decoder in
            while try statement.step() {
                let cells = try #require(columns.withUnsafeBufferPointer { statement.loadCells($0.baseAddress!, count: columnCount) })
                for column in 0..<columnCount {
                    decoder.useCells(nil)
                    let throughStatement = Self.outcomes(decoder, column: column)
                    decoder.useCells(cells)
                    let fromCells = Self.outcomes(decoder, column: column)
                    if cells[column].form != .other { cellsRead += 1 }
                    if fromCells != throughStatement {
                        let type = column == 0 ? "bigint" : table.cases[column - 1].column
                        let differing = zip(fromCells, throughStatement).filter { $0 != $1 }.prefix(2)
                        mismatches.append("#\(row) \(type): \(differing.map { "cells \($0.0.prefix(120)) vs statement \($0.1.prefix(120))" })")
                    }
                }
                row += 1
            }
        }
        #expect(row == Self.rowCount)
        // Most columns have a cell (in text results, the textual ones).
        #expect(cellsRead > row * (textResults ? 3 : 10), "\(cellsRead) cells read")
        #expect(mismatches.count == 0, "mismatches (seed \(table.seed)): \(mismatches.prefix(6))")
    }

    /// Reads outside the result (a column before the first or past the last, the row after the
    /// last) read as NULL, by every typed read, without libpq's out-of-range notice.
    @Test func readsOutsideTheResultAreNull() throws {
        let store = try TestStore(.postgresql)
        let connection = try ModelContainer.makeDriver(store.configuration).makeConnection()
        let statement = try #require(try connection.statement("SELECT 7::bigint, 'x'::text, 2.5::float8") as? PostgresStoreStatement)
        func reads(_ column: Int32) -> Reads {
            Reads(isNull: statement.isNull(at: column), int64: statement.int64(at: column), double: statement.double(at: column)?.bitPattern,
                  text: statement.text(at: column), blob: statement.blob(at: column), uuid: statement.uuid(at: column))
        }
        #expect(try statement.step())
        #expect(reads(0) == Self.expected(.integer(7)) && reads(1) == Self.expected(.text("x")) && reads(2) == Self.expected(.real(2.5)))
        for column: Int32 in [-1, 3, .max, .min] {
            #expect(reads(column) == Self.expected(.null), "column \(column)")
            #expect(statement.textBytes(at: column) == nil && statement.value(at: column) == .null, "column \(column)")
        }
        #expect(try !statement.step())
        for column: Int32 in [0, 1, 2] {
            #expect(reads(column) == Self.expected(.null), "after the last row, column \(column)")
            #expect(statement.textBytes(at: column) == nil, "after the last row, column \(column)")
        }
    }

    /// Which statements may go to a standby (docs/Scaling.md, "Read routing"), decided in one pass
    /// over the bytes: the same answer as the definition (the text upper-cased, then searched for
    /// each row lock and writing function) on random statements made of their pieces in mixed case.
    @Test func readClassificationAgreesWithItsDefinition() {
        let markers = ["FOR UPDATE", "FOR SHARE", "FOR NO KEY UPDATE", "FOR KEY SHARE", "NEXTVAL(", "SETVAL(", "PG_ADVISORY"]
        func definition(_ sql: String) -> Bool {
            guard sql.prefix(7).uppercased() == "SELECT " else { return false }
            let upper = sql.uppercased()
            return !markers.contains { upper.contains($0) }
        }
        let pieces = markers + ["SELECT ", "select ", "FOR ", "UPDATE", "SHARE", "NEXTVAL", "(", "SETVAL ", "PG_", "ADVISORY", " ", "\"Trip\"",
                                "FROM t", "f", "n", "s", "p", "WHERE \"for\" = ?", "é", "ß", "'for update'", "\"$pk\"",
                                "FOR", "NEXT", "SET", "VAL(", "_", "PG", "KEY ", "NO "]
        var random = ReliabilityRandom(seed: ReliabilityRandom.runSeed())
        func mixedCase(_ text: String) -> String {
            String(text.map { Bool.random(using: &random) ? Character($0.lowercased()) : $0 })
        }
        for _ in 0..<20_000 {
            var sql = Bool.random(using: &random) ? mixedCase("SELECT ") : ""
            for _ in 0..<Int.random(in: 0...6, using: &random) { sql += mixedCase(pieces.randomElement(using: &random)!) }
            #expect(PostgresStoreStatement.onlyReads(sql) == definition(sql), "\(sql)")
        }
        #expect(PostgresStoreStatement.onlyReads("SELECT \"$pk\" FROM \"Trip\" WHERE \"name\" = ?"))
        #expect(!PostgresStoreStatement.onlyReads("select * from t for No Key update"))
        #expect(!PostgresStoreStatement.onlyReads("SELECT nextval('s')"))
        #expect(!PostgresStoreStatement.onlyReads("SELEC"))
        #expect(!PostgresStoreStatement.onlyReads("INSERT INTO t VALUES (1)"))
    }
}
