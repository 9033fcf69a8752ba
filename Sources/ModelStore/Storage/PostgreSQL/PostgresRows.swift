import CLibPQ
import Foundation

/// The complete result of one execution of a `PostgresStatement`, held apart from its statement
/// and connection (`PostgresStatement.executeAll()`): the connection may run other commands, or
/// serve another borrower of its pool, while these rows are read.
///
/// The typed reads (`int64`, `double`, `text`, `textBytes`, `uuid`, `blob`) decode straight from
/// libpq's buffers when the column's type has a direct form (binary integers, floats, uuid and
/// bytea; text of the textual types), without making a `SQLValue`; any other type goes through
/// `value(row:column:)`, so each read gives what the `SQLValue` conversion gives (docs/Runtime.md,
/// "Reading stored values").
final class PostgresRows {
    /// libpq's result holding every row (nil when the command returned no rows).
    private let result: OpaquePointer?
    /// The number of rows.
    let rowCount: Int32
    /// Whether the values came in binary form (else text).
    private let binary: Bool
    /// Rows inserted, updated or deleted by the command.
    let affectedRowCount: Int
    /// The number of result columns.
    let columnCount: Int32

    /// The result columns as the typed reads use them (`Columns`), read through their address
    /// without an array's bounds check and retain per value (the reads check the column first);
    /// `table` keeps them alive.
    private let columns: UnsafePointer<Column>
    private let table: Columns

    /// A result column as the typed reads use it.
    struct Column {
        let type: PostgresType
        /// Where the text starts in the bytes (`PostgresDecoding.textOffset`), or -1 when the
        /// bytes are not the text.
        let textOffset: Int32
        /// How a cell holds the column's value (`loadCells`).
        let cellForm: PostgresDecoding.CellForm
    }

    /// The `Column`s of a statement's results, in one allocation: they follow from the result's
    /// column types and form alone, so a prepared statement makes them once
    /// (`PostgresStatement.resultColumns`), not each execution (about 450 instructions a lookup's
    /// result, its allocation included).
    final class Columns {
        let types: [PostgresType]
        let binary: Bool
        fileprivate let storage: UnsafeMutablePointer<Column>

        init(types: [PostgresType], binary: Bool) {
            self.types = types
            self.binary = binary
            storage = .allocate(capacity: max(types.count, 1))
            for (index, type) in types.enumerated() {
                let offset = PostgresDecoding.holdsText(type, binary: binary) ? Int32(PostgresDecoding.textOffset(type, binary: binary)) : -1
                (storage + index).initialize(to: Column(type: type, textOffset: offset, cellForm: PostgresDecoding.CellForm(type, binary: binary)))
            }
        }

        deinit {
            storage.deinitialize(count: types.count)
            storage.deallocate()
        }
    }

    init(result: OpaquePointer?, columns table: Columns, affectedRowCount: Int) {
        self.result = result
        self.rowCount = result.map { PQntuples($0) } ?? 0
        self.binary = table.binary
        self.affectedRowCount = affectedRowCount
        self.columnCount = Int32(table.types.count)
        self.table = table
        columns = UnsafePointer(table.storage)
    }

    deinit {
        if let result { PQclear(result) }
    }

    /// Whether `row` and `column` are in range: one unsigned comparison each (a negative number
    /// is a large unsigned one). libpq checks too, but reports a miss on stderr.
    @inline(__always)
    private func inRange(row: Int32, column: Int32) -> Bool {
        UInt32(bitPattern: row) < UInt32(bitPattern: rowCount) && UInt32(bitPattern: column) < UInt32(bitPattern: columnCount)
    }

    @inline(__always)
    private func type(at column: Int32) -> PostgresType {
        UInt32(bitPattern: column) < UInt32(bitPattern: columnCount) ? columns[Int(column)].type : .unknown
    }

    /// The value's bytes in libpq's buffer, nil when NULL or out of range. libpq gives a NULL the
    /// length 0: only an empty value is asked whether it is NULL (a number or a UUID never is).
    @inline(__always)
    private func field(row: Int32, column: Int32) -> UnsafeRawBufferPointer? {
        guard let result, inRange(row: row, column: column) else { return nil }
        let length = PQgetlength(result, row, column)
        guard length > 0 || PQgetisnull(result, row, column) == 0, let pointer = PQgetvalue(result, row, column) else { return nil }
        return UnsafeRawBufferPointer(start: pointer, count: Int(length))
    }

    /// Whether the value is NULL (also true out of range).
    func isNull(row: Int32, column: Int32) -> Bool {
        guard let result, inRange(row: row, column: column) else { return true }
        return PQgetisnull(result, row, column) != 0
    }

    /// Decodes `count` result columns of `row`, `columns`, into `cells` (by result column: at
    /// least `columnCount` of them; `StoreStatement.loadCells`), each as the typed reads decode it:
    /// an integer of the wrong width, and any form without a cell, is `other`, read through those
    /// reads. Gives `cells`, or nil when the row or a column is out of range.
    func loadCells(row: Int32, columns wanted: UnsafePointer<Int32>, count: Int, into cells: UnsafeMutablePointer<StoreCell>) -> UnsafePointer<StoreCell>? {
        guard let result, UInt32(bitPattern: row) < UInt32(bitPattern: rowCount) else { return nil }
        // Held in locals: read through `self` after each call into libpq, they were loaded again.
        let columns = columns
        let columnCount = UInt32(bitPattern: columnCount)
        for index in 0..<count {
            let column = wanted[index]
            guard UInt32(bitPattern: column) < columnCount else { return nil }
            let description = columns + Int(column)
            let cell = cells + Int(column)
            let form = description.pointee.cellForm
            if form == .other {
                cell.pointee = .other
                continue
            }
            let length = PQgetlength(result, row, column)
            // libpq gives a NULL the length 0: only an empty value is asked whether it is NULL.
            if length == 0 && PQgetisnull(result, row, column) != 0 {
                cell.pointee = .null
                continue
            }
            guard let value = PQgetvalue(result, row, column) else {
                cell.pointee = .other
                continue
            }
            cell.pointee = PostgresDecoding.cell(UnsafeRawBufferPointer(start: value, count: Int(length)), form: form,
                                                 textOffset: Int(description.pointee.textOffset))
        }
        return UnsafePointer(cells)
    }

    /// The value, decoded as `PostgresStatement.value(at:)` decodes it.
    func value(row: Int32, column: Int32) -> SQLValue {
        guard let raw = field(row: row, column: column) else { return .null }
        let type = type(at: column)
        return binary ? PostgresDecoding.binary(raw, type: type) : PostgresDecoding.text(raw, type: type)
    }

    /// The value as a 64-bit integer (`PostgresDecoding.int64`: nil when it is not one; 0 when NULL).
    func int64(row: Int32, column: Int32) -> Int64? {
        guard let raw = field(row: row, column: column) else { return 0 }
        // A row's key (binary int8), decoded here: the decoder's call and type switch cost more.
        if columns[Int(column)].cellForm == .int8 && raw.count == 8 { return PostgresDecoding.bigEndian(raw, as: Int64.self) }  // in range: `field` checked it
        return PostgresDecoding.int64(raw, type: type(at: column), binary: binary)
    }

    /// The value as a double (nil when it is not a number; 0 when NULL).
    func double(row: Int32, column: Int32) -> Double? {
        guard let raw = field(row: row, column: column) else { return 0 }
        return PostgresDecoding.double(raw, type: type(at: column), binary: binary)
    }

    /// The value's UTF-8 bytes in place (valid while the result lives) when it is text; nil
    /// otherwise and when NULL.
    func textBytes(row: Int32, column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let raw = field(row: row, column: column) else { return nil }
        let offset = Int(columns[Int(column)].textOffset)  // in range: `field` checked it
        return offset >= 0 ? PostgresDecoding.text(in: raw, from: offset) : nil
    }

    /// The value as a UUID when it is a `uuid` or a 16-byte `bytea` (nil otherwise and when NULL).
    func uuid(row: Int32, column: Int32) -> UUID? {
        guard let raw = field(row: row, column: column) else { return nil }
        return PostgresDecoding.uuid(raw, type: type(at: column), binary: binary)
    }

    /// The value as bytes (text as its UTF-8; empty when NULL).
    func blob(row: Int32, column: Int32) -> Data {
        guard let raw = field(row: row, column: column) else { return Data() }
        return PostgresDecoding.blob(raw, type: type(at: column), binary: binary)
    }

    /// The value as text (numbers in decimal, bytes as UTF-8; "" when NULL).
    func text(row: Int32, column: Int32) -> String {
        guard let raw = field(row: row, column: column) else { return "" }
        let offset = Int(columns[Int(column)].textOffset)  // in range: `field` checked it
        if offset >= 0 { return String(decoding: PostgresDecoding.text(in: raw, from: offset), as: UTF8.self) }
        return PostgresDecoding.string(raw, type: type(at: column), binary: binary)
    }
}
