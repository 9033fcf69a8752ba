import CSQLite
import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `SQLiteStatement`'s reads find a column once (`sqlite3_column_value`) and read the found value
/// (docs/Benchmarks.md, "Reads"): for every storage class and its edge values, each read gives
/// what SQLite's own `sqlite3_column_*` calls give on a freshly stepped copy of the row (the
/// oracle), and the typed reads built on them (`String`, `Data`, `UUID`, `String?`) read the
/// same as from those calls.
@Suite struct SQLiteColumnReadTests {
    /// Values of every storage class: NULL, integers, reals, text (empty, ASCII, multi-byte, 16
    /// bytes long, a UUID's text), blobs (empty, 16 bytes, 3 bytes that are not UTF-8).
    static let values: [String] = [
        "NULL", "0", "-12", "9223372036854775807", "1.5", "-0.0", "1e300",
        "''", "'Trip 4711'", "'é ß 😀'", "'0123456789abcdef'", "'3F2504E0-4F89-11D3-9A0C-0305E82C3301'",
        "x''", "x'00112233445566778899aabbccddeeff'", "x'ff00fe'",
    ]

    /// What SQLite's column API reads from column 0 of a new statement stepped onto `sql`'s row.
    struct Oracle {
        var type: Int32
        var text: [UInt8]?
        var blob: [UInt8]?
        var uuidBytes: [UInt8]?

        init(handle: OpaquePointer, sql: String) throws {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw OracleError() }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { throw OracleError() }
            // Each read on its own stepped row: reading a value as text converts it in place.
            type = sqlite3_column_type(statement, 0)
            text = sqlite3_column_text(statement, 0).map { Array(UnsafeBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, 0)))) }
            sqlite3_reset(statement)
            guard sqlite3_step(statement) == SQLITE_ROW else { throw OracleError() }
            let count = Int(sqlite3_column_bytes(statement, 0))
            blob = sqlite3_column_blob(statement, 0).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) }
            sqlite3_reset(statement)
            guard sqlite3_step(statement) == SQLITE_ROW else { throw OracleError() }
            if sqlite3_column_type(statement, 0) == SQLITE_BLOB, sqlite3_column_bytes(statement, 0) == 16, let pointer = sqlite3_column_blob(statement, 0) {
                uuidBytes = Array(UnsafeRawBufferPointer(start: pointer, count: 16))
            }
        }
    }

    struct OracleError: Error {}

    @Test(arguments: [StoreKind.sqliteFile, .sqliteMemory]) func readsAgreeWithSQLitesColumnCalls(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let connection = try #require(try ModelContainer.makeDriver(store.configuration).makeConnection() as? SQLiteConnection)
        for literal in Self.values {
            let sql = "SELECT \(literal)"
            let oracle = try Oracle(handle: connection.handle, sql: sql)
            let described = "\(literal) (storage class \(oracle.type))"

            // Each read on a statement stepped afresh, as the oracle's.
            func stepped() throws -> SQLiteStatement {
                let statement = try connection.sqliteStatement(sql)
                statement.reset()
                #expect(try statement.step(), "\(described)")
                return statement
            }
            var statement = try stepped()
            #expect(statement.isNull(at: 0) == (oracle.type == SQLITE_NULL), "\(described)")
            #expect(Array(statement.text(at: 0).utf8) == (oracle.text.map { Array(String(decoding: $0, as: UTF8.self).utf8) } ?? []), "\(described)")
            statement = try stepped()
            #expect(statement.textBytes(at: 0).map(Array.init) == oracle.text, "\(described)")
            statement = try stepped()
            #expect(Array(statement.blob(at: 0)) == (oracle.blob ?? []), "\(described)")
            statement = try stepped()
            let uuid = statement.uuid(at: 0)
            #expect(uuid.map { withUnsafeBytes(of: $0.uuid) { Array($0) } } == oracle.uuidBytes, "\(described)")

            // The typed reads generated code calls (`SQLStorable.read(from:at:)`).
            statement = try stepped()
            #expect(String.read(from: statement, at: 0) == String(decoding: oracle.text ?? [], as: UTF8.self), "\(described)")
            statement = try stepped()
            let optional = String?.read(from: statement, at: 0)
            #expect(optional == .some(oracle.type == SQLITE_NULL ? nil : String(decoding: oracle.text ?? [], as: UTF8.self)), "\(described)")
            statement = try stepped()
            // Through the value (`Data(sqlValue:)`): a blob's bytes, text's UTF-8, else none.
            let data: Data? = oracle.type == SQLITE_BLOB ? Data(oracle.blob ?? []) : oracle.type == SQLITE_TEXT ? Data(oracle.text ?? []) : nil
            #expect(Data.read(from: statement, at: 0) == data, "\(described)")
            statement = try stepped()
            // A 16-byte blob is the UUID's bytes; text is read as a UUID's text; anything else is none.
            let expected: UUID? = oracle.uuidBytes.map { bytes in UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }) }
                ?? (oracle.type == SQLITE_TEXT ? UUID(uuidString: String(decoding: oracle.text ?? [], as: UTF8.self)) : nil)
            #expect(UUID.read(from: statement, at: 0) == expected, "\(described)")
            statement.reset()
        }
    }
}
