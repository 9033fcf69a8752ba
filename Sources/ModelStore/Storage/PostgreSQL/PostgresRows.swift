import CLibPQ
import Foundation

/// The complete result of one execution of a `PostgresStatement`, held apart from its statement
/// and connection (`PostgresStatement.executeAll()`): the connection may run other commands, or
/// serve another borrower of its pool, while these rows are read.
final class PostgresRows {
    /// libpq's result holding every row (nil when the command returned no rows).
    private let result: OpaquePointer?
    /// The number of rows.
    let rowCount: Int32
    /// The result column types.
    let columnTypes: [PostgresType]
    /// Whether the values came in binary form (else text).
    private let binary: Bool
    /// Rows inserted, updated or deleted by the command.
    let affectedRowCount: Int

    init(result: OpaquePointer?, columnTypes: [PostgresType], binary: Bool, affectedRowCount: Int) {
        self.result = result
        self.rowCount = result.map { PQntuples($0) } ?? 0
        self.columnTypes = columnTypes
        self.binary = binary
        self.affectedRowCount = affectedRowCount
    }

    deinit { if let result { PQclear(result) } }

    /// The number of result columns.
    var columnCount: Int32 { Int32(columnTypes.count) }

    private func type(at column: Int32) -> PostgresType {
        Int(column) < columnTypes.count ? columnTypes[Int(column)] : .unknown
    }

    /// The raw bytes of a value (empty when NULL or out of range).
    private func bytes(row: Int32, column: Int32) -> UnsafeRawBufferPointer {
        guard let result, row < rowCount, let pointer = PQgetvalue(result, row, column) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: pointer, count: Int(PQgetlength(result, row, column)))
    }

    /// Whether the value is NULL (also true out of range).
    func isNull(row: Int32, column: Int32) -> Bool {
        guard let result, row < rowCount, column < columnCount else { return true }
        return PQgetisnull(result, row, column) != 0
    }

    /// The value, decoded as `PostgresStatement.value(at:)` decodes it.
    func value(row: Int32, column: Int32) -> SQLValue {
        if isNull(row: row, column: column) { return .null }
        let type = type(at: column)
        let raw = bytes(row: row, column: column)
        return binary ? PostgresDecoding.binary(raw, type: type) : PostgresDecoding.text(raw, type: type)
    }

    /// The value as a 64-bit integer (`PostgresDecoding.int64`: nil when it is not one; 0 when NULL).
    func int64(row: Int32, column: Int32) -> Int64? {
        if isNull(row: row, column: column) { return 0 }
        return PostgresDecoding.int64(bytes(row: row, column: column), type: type(at: column), binary: binary)
    }

    /// The value as a double (nil when it is not a number; 0 when NULL).
    func double(row: Int32, column: Int32) -> Double? {
        if isNull(row: row, column: column) { return 0 }
        return PostgresDecoding.double(bytes(row: row, column: column), type: type(at: column), binary: binary)
    }

    /// The value's UTF-8 bytes in place (valid while the result lives) when it is text; nil
    /// otherwise and when NULL.
    func textBytes(row: Int32, column: Int32) -> UnsafeBufferPointer<UInt8>? {
        let type = type(at: column)
        guard !isNull(row: row, column: column), PostgresDecoding.holdsText(type, binary: binary) else { return nil }
        let raw = bytes(row: row, column: column)
        let offset = min(PostgresDecoding.textOffset(type, binary: binary), raw.count)
        return UnsafeRawBufferPointer(rebasing: raw[offset...]).assumingMemoryBound(to: UInt8.self)
    }

    /// The value as a UUID when it is a `uuid` or a 16-byte `bytea`.
    func uuid(row: Int32, column: Int32) -> UUID? {
        guard case .blob(let data) = value(row: row, column: column), data.count == 16 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: data) }
        return UUID(uuid: bytes)
    }

    /// The value as bytes (text as its UTF-8; empty when NULL).
    func blob(row: Int32, column: Int32) -> Data {
        switch value(row: row, column: column) {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return Data()
        }
    }

    /// The value as text (numbers in decimal, bytes as UTF-8; "" when NULL).
    func text(row: Int32, column: Int32) -> String {
        switch value(row: row, column: column) {
        case .null: return ""
        case .integer(let integer): return String(integer)
        case .real(let real): return PostgresParameters.text(of: real)
        case .text(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }
}
