import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A reset statement keeps SQLite's bound values (they are not cleared after every row): a
/// parameter the next execution does not bind must still read as NULL, as after
/// `sqlite3_clear_bindings`.
@Suite("Statement bindings after reset")
struct StatementBindingTests {
    @Test("A parameter not bound again after a reset is NULL")
    func unboundIsNull() throws {
        let connection = try SQLiteConnection(path: ":memory:", isFile: false)
        let sql = "SELECT ?1, ?2, ?3"
        let statement = try connection.sqliteStatement(sql)
        statement.bindText(String(repeating: "long text ", count: 20), at: 1)
        statement.bindInt64(42, at: 2)
        statement.bindBlob(Data([1, 2, 3]), at: 3)
        #expect(try statement.step())
        #expect(statement.value(at: 0) == .text(String(repeating: "long text ", count: 20)))
        #expect(statement.value(at: 1) == .integer(42))
        #expect(statement.value(at: 2) == .blob(Data([1, 2, 3])))

        let again = try connection.sqliteStatement(sql)
        #expect(again === statement)
        again.bindInt64(7, at: 2)
        #expect(try again.step())
        #expect(again.value(at: 0) == .null)
        #expect(again.value(at: 1) == .integer(7))
        #expect(again.value(at: 2) == .null)

        // A shorter text bound where a longer one was reuses the value's memory: no stale bytes.
        let third = try connection.sqliteStatement(sql)
        third.bindText("ab", at: 1)
        #expect(try third.step())
        #expect(third.value(at: 0) == .text("ab"))
        #expect(third.value(at: 1) == .null)
    }

    /// Short text and blobs are bound from the statement's own copy of them (`SQLITE_STATIC`),
    /// longer ones copied by SQLite: random values of lengths on both sides of the limit, bound
    /// to two statements of one connection in turn (each bound, then both stepped, so a copy
    /// shared between statements or parameters would show), read back as bound.
    @Test("Text and blobs read back as bound, from the statement's copies or SQLite's")
    func copiedBindsReadBack() throws {
        let seed = ReliabilityRandom.runSeed()
        var random = ReliabilityRandom(seed: seed)
        let connection = try SQLiteConnection(path: ":memory:", isFile: false)
        let sqlA = "SELECT ?1, ?2, ?3", sqlB = "SELECT ?1, ?2"
        let limit = SQLiteStatement.longestBoundCopy
        func value(_ index: Int) -> SQLValue {
            let length = [0, 1, 15, 16, limit - 1, limit, limit + 1, 1_000][Int.random(in: 0..<8, using: &random)]
            if index % 2 == 0 { return .blob(Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })) }
            return .text(String((0..<length).map { _ in "aé€😀".randomElement(using: &random)! }))
        }
        for round in 0..<300 {
            let a = try connection.sqliteStatement(sqlA)
            let valuesA = (0..<3).map { value($0 + round) }
            for (index, value) in valuesA.enumerated() { a.bind(value, at: Int32(index + 1)) }
            // Bound before the first statement steps: its copies must not be the other's.
            let b = try connection.sqliteStatement(sqlB)
            let valuesB = (0..<2).map { value($0 + round + 1) }
            for (index, value) in valuesB.enumerated() { b.bind(value, at: Int32(index + 1)) }
            #expect(try a.step())
            for (index, value) in valuesA.enumerated() {
                #expect(a.value(at: Int32(index)) == value, "seed \(seed), round \(round), A ?\(index + 1)")
            }
            #expect(try b.step())
            for (index, value) in valuesB.enumerated() {
                #expect(b.value(at: Int32(index)) == value, "seed \(seed), round \(round), B ?\(index + 1)")
            }
            a.reset()
            b.reset()
        }
    }

    @Test("Statements with more than 64 parameters are cleared at reset")
    func manyParameters() throws {
        let connection = try SQLiteConnection(path: ":memory:", isFile: false)
        let sql = "SELECT " + (1...70).map { "?\($0)" }.joined(separator: ", ")
        let statement = try connection.sqliteStatement(sql)
        for index in 1...70 { statement.bindInt64(Int64(index), at: Int32(index)) }
        #expect(try statement.step())
        #expect(statement.value(at: 69) == .integer(70))
        let again = try connection.sqliteStatement(sql)
        again.bindInt64(-1, at: 65)
        #expect(try again.step())
        #expect(again.value(at: 64) == .integer(-1))
        #expect((0..<70).filter { $0 != 64 }.allSatisfy { again.value(at: Int32($0)) == .null })
    }

    @Test("A reused insert that does not bind a column stores NULL in it")
    func insertsAfterReuse() throws {
        let connection = try SQLiteConnection(path: ":memory:", isFile: false)
        try connection.execute("CREATE TABLE t (a TEXT, b TEXT)")
        let insert = "INSERT INTO t (a, b) VALUES (?1, ?2)"
        let first = try connection.sqliteStatement(insert)
        first.bindText("x", at: 1)
        first.bindText("y", at: 2)
        #expect(try first.step() == false)
        let second = try connection.sqliteStatement(insert)
        second.bindText("z", at: 1)
        #expect(try second.step() == false)
        second.reset()
        let rows = try connection.rows("SELECT a, b FROM t ORDER BY rowid")
        #expect(rows == [[.text("x"), .text("y")], [.text("z"), .null]])
    }
}
