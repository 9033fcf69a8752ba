import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore
import StoreTestSupport

/// A save binds each inserted row straight into its entity's rows (`PostgresRowBatch.rowStatement`:
/// typed binds encoded at once into the columns' arrays, docs/PostgreSQL.md, "Batched writes").
/// The oracle is the other way in: the same row bound to the single-row insert and added from its
/// values. Random rows of every column type, with values of every kind bound to every column (so
/// many are refused: text for a number, bytes for a boolean, integers out of range, NaN),
/// parameters bound in any order, some twice, some not at all: both ways must refuse the same rows
/// with the same error, report the same U+0000 problem, and build the same arrays; the arrays the
/// row statement built are then stored and read back.
@Suite struct PostgresInsertRowsTests {
    static let rowCount = 400

    /// A random value of any kind (the column's own, as the round-trip tests make them, half of
    /// the time: `own`).
    static func value(_ values: inout RandomValues, _ index: Int, column: PostgreSQLValueRoundTripTests.Case) -> (value: SQLValue, own: Bool) {
        if (column.column == "text" || column.column == "varchar") && Int.random(in: 0..<4, using: &values.random) == 0 {
            return (.text(edgeText(&values)), true)
        }
        if Bool.random(using: &values.random) { return (column.make(&values, index), true) }
        return (otherValue(&values, index), false)
    }

    /// A value of any kind that the server takes wherever the client sends it (the client refuses
    /// what does not fit the column's type): finite numbers, ASCII bytes, integers as text.
    static func otherValue(_ values: inout RandomValues, _ index: Int) -> SQLValue {
        switch Int.random(in: 0..<5, using: &values.random) {
        case 0: return .null
        case 1: return .integer(Bool.random(using: &values.random) ? values.int64(index) : Int64.random(in: -2...2, using: &values.random))
        case 2:
            let real = values.double(index)
            return .real(Int.random(in: 0..<4, using: &values.random) == 0 ? .nan : real.isFinite ? real : 1.5)
        case 3: return .text(Int.random(in: 0..<6, using: &values.random) == 0 ? "a\u{0}b" : String(values.int64(index)))
        default: return .blob(Data((0..<Int.random(in: 0...17, using: &values.random)).map { _ in UInt8.random(in: 0x20...0x7e, using: &values.random) }))
        }
    }

    /// Text a text column takes, or refuses (U+0000): empty, long, non-ASCII, U+0000 among other
    /// characters (the row statement copies text straight into its column's array).
    static func edgeText(_ values: inout RandomValues) -> String {
        switch Int.random(in: 0..<5, using: &values.random) {
        case 0: return ""
        case 1: return String(repeating: "é✓𝄞a", count: Int.random(in: 200...3000, using: &values.random))
        case 2: return String(repeating: "x", count: Int.random(in: 1000...70000, using: &values.random))
        case 3: return "naïve \u{0} 日本語"
        default: return ["é\u{0}", "\u{0}", "ab\u{0}✓"][Int.random(in: 0..<3, using: &values.random)]
        }
    }

    /// The binary array of `values` (a column's, or the keys') as the single-row statement's
    /// parameters of `type` encode them (`PostgresParameters`), built here element by element:
    /// the oracle of the arrays a batch sends (numeric as text, jsonb after its version byte).
    static func expectedArray(_ values: [SQLValue], type: PostgresType) throws -> SQLValue {
        var elements: [UInt8] = []
        var hasNulls = false
        func put<I: FixedWidthInteger>(_ value: I, in bytes: inout [UInt8]) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
        for value in values {
            var parameter = PostgresParameters(capacity: 1)
            try parameter.append(value, type: type, number: 1)
            guard parameter.offsets[0] >= 0 else {
                hasNulls = true
                put(Int32(-1), in: &elements)
                continue
            }
            let bytes = parameter.bytes[parameter.offsets[0]..<(parameter.offsets[0] + Int(parameter.lengths[0]))]
            if type == .jsonb {
                put(Int32(bytes.count + 1), in: &elements)
                elements.append(1)
            } else {
                put(Int32(bytes.count), in: &elements)
            }
            elements += bytes
        }
        var array: [UInt8] = []
        for field in [1, hasNulls ? 1 : 0, Int32(bitPattern: (type == .numeric ? PostgresType.text : type).rawValue), Int32(values.count), 1] as [Int32] {
            put(field, in: &array)
        }
        return .blob(Data(array + elements))
    }

    /// Binds `value` with the typed bind of its kind (bytes as a buffer or as `Data`).
    static func bindTyped(_ value: SQLValue, at index: Int32, to statement: any StoreStatement, asBuffer: Bool) {
        switch value {
        case .null: statement.bindNull(at: index)
        case .integer(let integer): statement.bindInt64(integer, at: index)
        case .real(let real): statement.bindDouble(real, at: index)
        case .text(let text): statement.bindText(text, at: index)
        case .blob(let data):
            if asBuffer { data.withUnsafeBytes { statement.bindBytes($0, at: index) } } else { statement.bindBlob(data, at: index) }
        }
    }

    static func describe(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    @Test func rowsBoundStraightIntoTheArraysEqualRowsAddedFromTheSingleRowInsert() throws {
        let seed = ReliabilityRandom.runSeed()
        var values = RandomValues(seed: seed, allowsNUL: false)
        let store = try TestStore(.postgresql)
        let connection = try #require(try ModelContainer.makeDriver(store.configuration).makeConnection() as? PostgresStoreConnection)
        let cases = PostgreSQLValueRoundTripTests.cases
        let columns = cases.indices.map { SQLQuote.identifier("c\($0)") }
        try connection.execute(#"CREATE TABLE "T" ("$pk" bigint PRIMARY KEY, "$type" text NOT NULL, "#
                               + zip(columns, cases).map { "\($0) \($1.column)" }.joined(separator: ", ") + ")")
        let insert = #"INSERT INTO "T" ("#  + columns.joined(separator: ", ") + ") VALUES (" + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        try connection.beginWriteTransaction()
        let single = try connection.statement(insert)
        // The single-row insert's parameter types, as the server inferred them.
        let held = try #require(connection.held)
        let types = try held.statement(insert).describedParameterTypes()
        let oracle = try #require(try connection.rowBatch(forInsert: insert, table: "T", typeName: "T", columns: columns, onlyIfRowOf: nil))
        let direct = try #require(try connection.rowBatch(forInsert: insert, table: "T", typeName: "T", columns: columns, onlyIfRowOf: nil))
        var stored: [Int64: [(value: SQLValue, own: Bool)]] = [:]
        var refused = 0
        var sentStatements = 0
        // The rows added since the last statement was taken: their keys and values.
        var added: [(key: Int64, values: [SQLValue])] = []
        // Both batches' statements: the same arrays, those the single-row insert's parameters
        // make of the rows added; the row statement's batch is sent.
        func takeBoth() throws {
            let expected = try [Self.expectedArray(added.map { .integer($0.key) }, type: .int8)]
                + cases.indices.map { column in try Self.expectedArray(added.map { $0.values[column] }, type: types[column]) }
            added.removeAll()
            let oracleStatement = try #require(oracle.take() as? PostgresStoreStatement)
            let oracleArrays = oracleStatement.boundValues
            oracleStatement.reset()
            #expect(oracleArrays == expected, "seed \(seed)")
            let statement = try #require(direct.take() as? PostgresStoreStatement)
            #expect(statement.boundValues == expected, "seed \(seed)")
            try connection.send(statement)
            statement.reset()
            sentStatements += 1
        }
        for row in 0..<Self.rowCount {
            let key = Int64(row + 1)
            let made = cases.indices.map { Self.value(&values, row, column: cases[$0]) }
            let rowValues = made.map(\.value)
            // The oracle: the single-row insert, bound in order.
            for (index, value) in rowValues.enumerated() { single.bind(value, at: Int32(index + 1)) }
            let oracleProblem = single.bindingProblem.map { "\($0.position) \($0.reason)" }
            // The row statement: in random order, a junk value bound first now and then, a NULL
            // left unbound now and then.
            let statement = direct.rowStatement
            // Now and then the rows so far are sent while this row is half bound (a save reads its
            // batch when a row needs a key): the half-bound values stay for the next statement.
            let takenAt = row % 37 == 5 ? cases.count / 2 : -1
            for (position, index) in cases.indices.shuffled(using: &values.random).enumerated() {
                if position == takenAt { try takeBoth() }
                let value = rowValues[index]
                if value == .null && Bool.random(using: &values.random) { continue }
                if Int.random(in: 0..<8, using: &values.random) == 0 {
                    Self.bindTyped(.text("junk"), at: Int32(index + 1), to: statement, asBuffer: false)
                }
                if Bool.random(using: &values.random) {
                    statement.bind(value, at: Int32(index + 1))
                } else {
                    Self.bindTyped(value, at: Int32(index + 1), to: statement, asBuffer: Bool.random(using: &values.random))
                }
            }
            let oracleError = Self.describe { try oracle.add(key: key, from: single) }
            single.reset()
            let problem = statement.bindingProblem.map { "\($0.position) \($0.reason)" }
            let error = Self.describe { try direct.add(key: key, from: statement) }
            statement.reset()
            #expect(problem == oracleProblem, "seed \(seed), row \(row)")
            #expect(error == oracleError, "seed \(seed), row \(row): \(rowValues)")
            #expect(oracle.count == direct.count, "seed \(seed), row \(row)")
            if error == nil {
                stored[key] = made
                added.append((key, rowValues))
            } else {
                refused += 1
            }
        }
        #expect(refused > Self.rowCount / 4 && refused < Self.rowCount, "seed \(seed): \(refused) refused")

        // The same arrays, and the server stores them.
        try takeBoth()
        let sent = connection.receiveSent()
        #expect(sent.failure == nil, "seed \(seed): \(String(describing: sent.failure))")
        #expect(sent.results.count == sentStatements)
        try connection.commit()
        let read = try connection.rows(#"SELECT * FROM "T" ORDER BY "$pk""#)
        #expect(read.count == stored.count, "seed \(seed)")
        for row in read {
            guard case .integer(let key) = row[0], let written = stored[key] else {
                Issue.record("seed \(seed): an unexpected row \(row)")
                continue
            }
            #expect(row[1] == .text("T"))
            for (index, (value, own)) in written.enumerated() {
                // A value of another kind reads back in the column type's form; the column's own
                // values read back as written.
                guard own, !PostgreSQLValueRoundTripTests.same(value, row[index + 2], column: cases[index].column) else { continue }
                Issue.record("seed \(seed), key \(key), column \(cases[index].column): wrote \(value), read \(row[index + 2])")
            }
        }
    }

    /// A `bigint` column keeps its rows' values as integers until its array is made
    /// (`PostgresColumnArrays`). The oracle is the general path: each value encoded as the
    /// single-row insert's `bigint` parameter (`PostgresParameters`), an element of the binary
    /// array when its form is binary, refused when it is text. Every way in (typed bind, bind of a
    /// `SQLValue`, added from the single-row insert) gives that element or that error, after a
    /// value bound there first or not.
    @Test func bigintColumnsGiveWhatEncodingEachValueAsAParameterGives() throws {
        enum Outcome: Equatable {
            case element(Int64?)
            case refused(String)
        }
        /// A one-dimensional `bigint[]` of one element, in binary (header, then the element).
        func array(_ element: Int64?) -> Data {
            var bytes: [UInt8] = []
            func put<I: FixedWidthInteger>(_ value: I) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
            for field in [1, element == nil ? 1 : 0, 20, 1, 1] as [Int32] { put(field) }
            if let element {
                put(Int32(8))
                put(element)
            } else {
                put(Int32(-1))
            }
            return Data(bytes)
        }
        let store = try TestStore(.postgresql)
        let connection = try #require(try ModelContainer.makeDriver(store.configuration).makeConnection() as? PostgresStoreConnection)
        try connection.execute(#"CREATE TABLE "T" ("$pk" bigint PRIMARY KEY, "$type" text NOT NULL, "n" bigint, "t" text)"#)
        let insert = #"INSERT INTO "T" ("n", "t") VALUES (?, ?)"#
        try connection.beginWriteTransaction()
        defer { connection.rollback() }
        let single = try connection.statement(insert)
        let rows = try #require(try connection.rowBatch(forInsert: insert, table: "T", typeName: "T", columns: [#""n""#, #""t""#], onlyIfRowOf: nil))
        let values: [SQLValue] = [.null, .integer(0), .integer(42), .integer(-1), .integer(.max), .integer(.min), .real(3), .real(-0.0),
                                  .real(2.5), .real(.nan), .real(9.3e18), .real(-.infinity), .text("12"), .text("x"), .blob(Data()), .blob(Data([1, 2, 3]))]
        for value in values {
            var parameter = PostgresParameters(capacity: 1)
            let expected: Outcome
            do throws(PostgresError) {
                try parameter.append(value, type: .int8, number: 1)
                if parameter.offsets[0] < 0 {
                    expected = .element(nil)
                } else if parameter.formats[0] == PostgresParameters.Format.binary.rawValue {
                    expected = .element(parameter.bytes.withUnsafeBytes { PostgresDecoding.bigEndian($0, as: Int64.self) })
                } else {
                    expected = .refused("cannot bind parameter $1: \(SQLValue.shortDescription(value)) cannot be sent as bigint with the other rows of its statement")
                }
            } catch {
                expected = .refused(error.message)
            }
            for way in 0..<6 {
                let statement = way < 4 ? rows.rowStatement : single
                if way % 2 == 1 { statement.bindInt64(7, at: 1) }
                statement.bindText("t", at: 2)
                if way < 2 { Self.bindTyped(value, at: 1, to: statement, asBuffer: false) } else { statement.bind(value, at: 1) }
                do {
                    try rows.add(key: 1, from: statement)
                    statement.reset()
                    let taken = try #require(try rows.take() as? PostgresStoreStatement)
                    let arrays = taken.boundValues
                    taken.reset()
                    guard case .element(let element) = expected else {
                        Issue.record("\(value), way \(way): taken, where the parameter refuses it")
                        continue
                    }
                    #expect(arrays.count == 3 && arrays[1] == .blob(array(element)), "\(value), way \(way)")
                } catch let error as PostgresError {
                    statement.reset()
                    #expect(expected == .refused(error.message), "\(value), way \(way)")
                }
            }
        }
    }

    /// Reserved keys are the sequence's next keys, ascending, as single-row inserts would take
    /// them: read as a range when consecutive, listed when not (a sequence stepping by 3 stands in
    /// for another transaction taking keys meanwhile).
    /// A save resets its row statement after every row (`PostgresRowStatement.reset`), which drops
    /// only what was bound since the last row added or dropped (`PostgresColumnArrays.dropPartialRow`
    /// returns at once when nothing was). The oracle: each row's arrays as the single-row insert's
    /// parameters encode its values, a column the row did not bind NULL. Covered: a reset right
    /// after a row was added (the rows stay), a row bound in part then reset (its values gone, not
    /// in the next row), a refused value then reset (its problem and failure gone), a row half bound
    /// when the rows are taken (its values stay for the next statement), and a reset with nothing
    /// bound.
    @Test func resettingTheRowStatementDropsOnlyTheRowBeingBound() throws {
        let store = try TestStore(.postgresql)
        let connection = try #require(try ModelContainer.makeDriver(store.configuration).makeConnection() as? PostgresStoreConnection)
        try connection.execute(#"CREATE TABLE "R" ("$pk" bigint PRIMARY KEY, "$type" text NOT NULL, "a" bigint, "b" text, "c" double precision)"#)
        let columns = ["a", "b", "c"].map(SQLQuote.identifier)
        let insert = #"INSERT INTO "R" ("a", "b", "c") VALUES (?, ?, ?)"#
        try connection.beginWriteTransaction()
        let rows = try #require(try connection.rowBatch(forInsert: insert, table: "R", typeName: "R", columns: columns, onlyIfRowOf: nil))
        let statement = rows.rowStatement
        func expected(_ rows: [(key: Int64, a: SQLValue, b: SQLValue, c: SQLValue)]) throws -> [SQLValue] {
            [try Self.expectedArray(rows.map { .integer($0.key) }, type: .int8), try Self.expectedArray(rows.map(\.a), type: .int8),
             try Self.expectedArray(rows.map(\.b), type: .text), try Self.expectedArray(rows.map(\.c), type: .float8)]
        }
        // Nothing bound yet.
        statement.reset()
        // Row 1, whole; reset after it was added.
        statement.bindInt64(1, at: 1)
        statement.bindText("one", at: 2)
        statement.bindDouble(1.5, at: 3)
        try rows.add(key: 1, from: statement)
        statement.reset()
        statement.reset()
        // A row bound in part, then reset: dropped.
        statement.bindInt64(99, at: 1)
        statement.bindText("dropped", at: 2)
        statement.reset()
        // Row 2 binds only its text: its other columns are NULL, not the dropped row's.
        statement.bindText("two", at: 2)
        try rows.add(key: 2, from: statement)
        statement.reset()
        // A refused value (NaN for a double, U+0000 in text), then reset: no failure, no problem left.
        statement.bindDouble(.nan, at: 3)
        statement.bindText("nul\u{0}", at: 2)
        #expect(statement.bindingProblem != nil)
        statement.reset()
        #expect(statement.bindingProblem == nil)
        statement.bindNull(at: 1)
        statement.bindDouble(3.5, at: 3)
        try rows.add(key: 3, from: statement)
        statement.reset()
        // Row 4 half bound when the rows are taken: its value stays for the next statement.
        statement.bindInt64(4, at: 1)
        let first = try #require(rows.take() as? PostgresStoreStatement)
        #expect(first.boundValues == (try expected([(1, .integer(1), .text("one"), .real(1.5)), (2, .null, .text("two"), .null),
                                                    (3, .null, .null, .real(3.5))])))
        first.reset()
        statement.bindText("four", at: 2)
        try rows.add(key: 4, from: statement)
        statement.reset()
        // A row bound in whole, then reset without being added: dropped.
        statement.bindInt64(5, at: 1)
        statement.bindText("five", at: 2)
        statement.bindDouble(5.5, at: 3)
        statement.reset()
        let second = try #require(rows.take() as? PostgresStoreStatement)
        #expect(second.boundValues == (try expected([(4, .integer(4), .text("four"), .null)])))
        second.reset()
        try connection.commit()
    }

    @Test func reservedKeysAreTheSequencesNextKeysConsecutiveOrNot() throws {
        let store = try TestStore(.postgresql)
        let connection = try #require(try ModelContainer.makeDriver(store.configuration).makeConnection() as? PostgresStoreConnection)
        try connection.execute(#"CREATE TABLE "K" ("$pk" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "x" integer)"#)
        try connection.beginWriteTransaction()
        #expect(try connection.reserveKeys(in: "K", count: 40) == Array(1...40))
        try connection.execute(#"ALTER TABLE "K" ALTER COLUMN "$pk" SET INCREMENT BY 3"#)
        #expect(try connection.reserveKeys(in: "K", count: 25) == (0..<25).map { 43 + 3 * Int64($0) })
        #expect(try connection.reserveKeys(in: "K", count: 1) == [118])
        try connection.commit()
        let next = try connection.rows(#"INSERT INTO "K" ("x") VALUES (1) RETURNING "$pk""#)
        #expect(next.first?.first == .integer(121))
    }
}
