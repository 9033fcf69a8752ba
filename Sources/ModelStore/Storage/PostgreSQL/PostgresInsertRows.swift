import Foundation

/// The rows a save inserts into one entity, written as one multi-row statement per batch instead
/// of one `INSERT` per row (docs/PostgreSQL.md, "Batched writes"):
///
///     INSERT INTO "Trip" ("$pk", "$type", "name", …) SELECT v."k", 'Trip', v."c1", …
///     FROM unnest($1::bigint[], $2::text[], …) AS v("k", "c1", …)
///
/// one statement text per entity whatever the row count, each column's values in one array sent
/// in binary. The keys were reserved before (`PostgresStoreConnection.reserveKeys`), so the
/// statement returns nothing and no row waits for another's key.
///
/// A row is bound to `rowStatement` (a save's model rows) or to the entity's single-row insert
/// (the history's rows), and its values are encoded in the form of the single-row insert's
/// parameter types, as the server inferred them: the same values are refused with the same error
/// (`PostgresParameters`). `rowStatement` writes each typed bind straight into its column's
/// array, without a `SQLValue`. A failure of the statement names the single-row insert, as for
/// the row that failed there.
final class PostgresInsertRows: InsertRowBatch {
    /// The types whose binary form `PostgresParameters` writes, sent as arrays of that type.
    private static let binaryTypes: Set<PostgresType> = [.int8, .int4, .int2, .float8, .float4, .bool, .uuid, .bytea, .oid]
    /// Types whose binary form is their text's bytes (`PostgresType.textual`; a parameter of a
    /// column is never of the type `unknown`).
    private static let textTypes = PostgresType.textual.subtracting([.unknown])

    /// How a column's values go into its array.
    private enum Element {
        /// The value's bytes as `PostgresParameters` encodes them (binary form, or text of a text type).
        case same
        /// jsonb's binary form: a version byte (1), then the text.
        case jsonb
        /// Sent as text and cast by the server (numeric: its text is its exact form).
        case textCast
    }

    fileprivate let single: String
    /// Whether the rows take reserved keys (an entity's rows), else the table's own (history).
    private let keyed: Bool
    private let types: [PostgresType]
    private let elements: [Element]
    // The rows' state is one save's, on one thread (the context's, which `ContextGuards`
    // checks): no run-time exclusivity checks per value (docs/Benchmarks.md, "No run-time
    // exclusivity checks on per-row state").
    @exclusivity(unchecked) private var keys: [Int64] = []
    /// Each column's values, in its parameter's form; the row being bound to `rowStatement` may
    /// have put one more value in some columns.
    @exclusivity(unchecked) private var columns: [PostgresParameters]
    private let statementSQL: String
    private unowned let owner: PostgresStoreConnection

    @exclusivity(unchecked) private(set) var count = 0

    /// The statement a row is bound into for `add(key:from:)`, its binds written straight into the
    /// columns (`RowStatement`).
    private(set) lazy var rowStatement: any StoreStatement = RowStatement(rows: self)

    /// Nil when a column's type is not one this client sends in an array (the entity's rows then
    /// go one statement each).
    init?(insert: String, types: [PostgresType], table: String, typeName: String?, columns quoted: [String],
          onlyIfRowOf existing: (table: String, column: Int)?, owner: PostgresStoreConnection) {
        // A conditional insert binds the key of the row it checks after the row's values.
        guard types.count >= quoted.count else { return nil }
        let types = Array(types.prefix(quoted.count))
        var elements: [Element] = []
        let keyed = typeName != nil
        var arrays: [String] = keyed ? ["?::bigint[]"] : []
        var selected: [String] = typeName.map { ["v.\"k\"", SQLQuote.literal($0)] } ?? []
        for (index, type) in types.enumerated() {
            let name = "v.\"c\(index + 1)\""
            if Self.binaryTypes.contains(type) || Self.textTypes.contains(type) {
                elements.append(.same)
                arrays.append("?::\(type)[]")
                selected.append(name)
            } else if type == .jsonb {
                elements.append(.jsonb)
                arrays.append("?::jsonb[]")
                selected.append(name)
            } else if type == .numeric {
                elements.append(.textCast)
                arrays.append("?::text[]")
                selected.append("\(name)::numeric")
            } else {
                return nil
            }
        }
        let aliases = ((keyed ? ["\"k\""] : []) + (0..<types.count).map { "\"c\($0 + 1)\"" }).joined(separator: ", ")
        let target = ((keyed ? [SQLQuote.identifier(StorageNames.primaryKey), SQLQuote.identifier(StorageNames.type)] : []) + quoted).joined(separator: ", ")
        self.keyed = keyed
        statementSQL = "INSERT INTO \(SQLQuote.identifier(table)) (\(target)) SELECT \(selected.joined(separator: ", ")) "
            + "FROM unnest(\(arrays.joined(separator: ", "))) AS v(\(aliases))"
            + (existing.map { " WHERE EXISTS (SELECT 1 FROM \(SQLQuote.identifier($0.table)) WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = v.\"c\($0.column + 1)\")" } ?? "")
        single = insert
        self.types = types
        self.elements = elements
        self.columns = types.map { _ in PostgresParameters(capacity: PostgresInsertRows.limit) }
        self.owner = owner
    }

    /// The most rows in one statement: a larger statement saves little more, and its arrays sit in
    /// memory on both sides.
    static let limit = 1_000

    var isFull: Bool { count >= Self.limit }

    func add(key: Int64, from statement: any StoreStatement) throws {
        if let row = statement as? RowStatement, row.rows === self {
            try addBoundRow(row)
        } else {
            guard let statement = statement as? PostgresStoreStatement else { return }
            try add(statement.boundValues)
        }
        if keyed { keys.append(key) }
        count += 1
    }

    /// Adds a row bound to the single-row insert.
    private func add(_ values: [SQLValue]) throws {
        do throws(PostgresError) {
            for (index, type) in types.enumerated() {
                let value = index < values.count ? values[index] : .null
                try columns[index].append(value, type: type, number: index + 1)
                try checkArrayForm(index, value)
            }
        } catch {
            var error = error
            dropPartialRow()
            error.sql = single
            throw error
        }
    }

    /// Adds the row bound to `row`: a column it did not bind is NULL, as in the single-row insert.
    private func addBoundRow(_ row: RowStatement) throws {
        if var error = row.failure {
            row.failures.removeAll()
            dropPartialRow()
            error.sql = single
            throw error
        }
        for index in columns.indices where columns[index].count == count { columns[index].appendNull() }
    }

    /// Refuses a value the parameter's type takes as text (the server would read it) where the
    /// column's array is of the type's binary form.
    private func checkArrayForm(_ index: Int, _ value: @autoclosure () -> SQLValue) throws(PostgresError) {
        guard case .same = elements[index], Self.binaryTypes.contains(types[index]),
              columns[index].formats.last == PostgresParameters.Format.text.rawValue, columns[index].offsets.last ?? -1 >= 0 else { return }
        throw PostgresParameters.refuse(index + 1, "\(SQLValue.shortDescription(value())) cannot be sent as \(types[index]) with the other rows of the insert")
    }

    /// Drops the values of a row not added (bound in part, or refused).
    fileprivate func dropPartialRow() {
        for index in columns.indices where columns[index].count > count { columns[index].removeLast(columns[index].count - count) }
    }

    /// Writes a value bound to `rowStatement` at parameter `number` into its column (a value bound
    /// to the column before in this row is replaced); nil, or the error the single-row insert
    /// would report for it. Parameters past the columns (a conditional insert's checked key) are
    /// not in the arrays.
    fileprivate func bind(at number: Int32, _ value: @autoclosure () -> SQLValue,
                          _ write: (inout PostgresParameters, PostgresType, Int) throws(PostgresError) -> Void) -> PostgresError? {
        let index = Int(number) - 1
        guard index >= 0, index < columns.count else { return nil }
        if columns[index].count > count { columns[index].removeLast(columns[index].count - count) }
        do {
            try write(&columns[index], types[index], index + 1)
            try checkArrayForm(index, value())
        } catch {
            return error
        }
        return nil
    }

    func take() throws -> any StoreStatement {
        let made = try owner.statement(statementSQL)
        guard let statement = made as? PostgresStoreStatement else { return made }
        statement.reportsAs = single
        if keyed {
            var keyArray = Self.arrayHeader(element: .int8, count: count, hasNulls: false)
            keyArray.reserveCapacity(keyArray.count + 12 * count)
            for key in keys {
                Self.appendBigEndian(Int32(8), to: &keyArray)
                Self.appendBigEndian(UInt64(bitPattern: key), to: &keyArray)
            }
            statement.bind(.blob(Data(keyArray)), at: 1)
        }
        let first = keyed ? 2 : 1
        for (index, column) in columns.enumerated() {
            statement.bind(.blob(Data(array(of: column, element: elements[index], type: types[index]))), at: Int32(index + first))
        }
        keys.removeAll(keepingCapacity: true)
        // The values of a row being bound to `rowStatement` stay for the next statement.
        for index in columns.indices {
            if columns[index].count > count { columns[index].removeFirst(count) } else { columns[index].removeLast(count) }
        }
        count = 0
        return statement
    }

    /// The binary form of an array of the column's values.
    private func array(of column: PostgresParameters, element: Element, type: PostgresType) -> [UInt8] {
        let hasNulls = column.offsets.prefix(count).contains { $0 < 0 }
        let elementType: PostgresType = element == .textCast ? .text : type
        var bytes = Self.arrayHeader(element: elementType, count: count, hasNulls: hasNulls)
        bytes.reserveCapacity(bytes.count + column.bytes.count + 5 * count)
        column.bytes.withUnsafeBufferPointer { all in
            for row in 0..<count {
                let offset = column.offsets[row]
                guard offset >= 0 else {
                    Self.appendBigEndian(Int32(-1), to: &bytes)
                    continue
                }
                let length = Int(column.lengths[row])
                let value = UnsafeBufferPointer(rebasing: all[offset..<(offset + length)])
                if element == .jsonb {
                    Self.appendBigEndian(Int32(length + 1), to: &bytes)
                    bytes.append(1)
                } else {
                    Self.appendBigEndian(Int32(length), to: &bytes)
                }
                bytes.append(contentsOf: value)
            }
        }
        return bytes
    }

    /// A one-dimensional array's header: dimensions, null flag, element type, length, lower bound.
    private static func arrayHeader(element: PostgresType, count: Int, hasNulls: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        appendBigEndian(Int32(1), to: &bytes)
        appendBigEndian(Int32(hasNulls ? 1 : 0), to: &bytes)
        appendBigEndian(element.rawValue, to: &bytes)
        appendBigEndian(Int32(count), to: &bytes)
        appendBigEndian(Int32(1), to: &bytes)
        return bytes
    }

    private static func appendBigEndian<I: FixedWidthInteger>(_ value: I, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

/// The statement a save binds an inserted row into (`PostgresInsertRows.rowStatement`): each typed
/// bind is encoded at once into its column of the rows, as the single-row insert's parameter
/// would be, and the first refused value (by parameter number) is kept for `add(key:from:)` to
/// throw. It only takes binds: it never runs (the rows go out with their batch).
private final class RowStatement: StoreStatement {
    unowned let rows: PostgresInsertRows
    /// The refused values bound since the last reset, by parameter number (a parameter bound again
    /// has its new value's outcome).
    var failures: [Int32: PostgresError] = [:]

    /// The error of the refused value of the lowest parameter number, as binding in order and
    /// encoding in order finds first.
    var failure: PostgresError? { failures.min { $0.key < $1.key }?.value }
    private(set) var bindingProblem: (position: Int32, reason: String)?

    init(rows: PostgresInsertRows) { self.rows = rows }

    var sql: String { rows.single }

    /// Drops the row bound so far (a row `add(key:from:)` took is kept).
    func reset() {
        rows.dropPartialRow()
        failures.removeAll()
        bindingProblem = nil
    }

    func step() throws -> Bool {
        throw ModelStoreError.invalidSchema("the rows of \(rows.single) are sent together, not one at a time")
    }

    var columnCount: Int32 { 0 }

    private func note(_ error: PostgresError?, _ number: Int32) {
        if let error {
            failures[number] = error
        } else if !failures.isEmpty {
            failures[number] = nil
        }
    }

    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let integer): bindInt64(integer, at: index)
        case .real(let real): bindDouble(real, at: index)
        case .text(let text): bindText(text, at: index)
        case .blob(let data): bindBlob(data, at: index)
        }
    }

    func bindNull(at index: Int32) {
        note(rows.bind(at: index, .null) { parameters, _, _ in parameters.appendNull() }, index)
    }

    func bindInt64(_ value: Int64, at index: Int32) {
        note(rows.bind(at: index, .integer(value)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendInteger(value, type: type, number: number)
        }, index)
    }

    func bindDouble(_ value: Double, at index: Int32) {
        note(rows.bind(at: index, .real(value)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendReal(value, type: type, number: number)
        }, index)
    }

    func bindText(_ text: String, at index: Int32) {
        // As `PostgresStoreStatement.bind`: `save()` names the property of text holding U+0000
        // (the lowest parameter's, as binding in order finds first).
        if text.utf8.contains(0), bindingProblem.map({ index < $0.position }) ?? true {
            bindingProblem = (index, "the text holds the character U+0000 (NUL), which PostgreSQL text cannot hold")
        }
        note(rows.bind(at: index, .text(text)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendText(text, type: type, number: number)
        }, index)
    }

    func bindBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        note(rows.bind(at: index, .blob(Data(bytes))) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendBytes(bytes, type: type, number: number)
        }, index)
    }

    func bindBlob(_ data: Data, at index: Int32) {
        data.withUnsafeBytes { bindBytes($0, at: index) }
    }

    // It never has a row.
    func isNull(at column: Int32) -> Bool { true }
    func int64(at column: Int32) -> Int64? { nil }
    func double(at column: Int32) -> Double? { nil }
    func text(at column: Int32) -> String { "" }
    func textBytes(at column: Int32) -> UnsafeBufferPointer<UInt8>? { nil }
    func blob(at column: Int32) -> Data { Data() }
    func uuid(at column: Int32) -> UUID? { nil }
    func value(at column: Int32) -> SQLValue { .null }
}

extension PostgresStoreConnection {
    /// The rows of an entity's insert written together (`PostgresInsertRows`), inside a write
    /// transaction whose statements are batched; nil otherwise, or for a column type sent only alone.
    ///
    /// - Throws: the error of preparing the single-row insert.
    func rowBatch(forInsert insert: String, table: String, typeName: String?, columns: [String],
                  onlyIfRowOf existing: (table: String, column: Int)?) throws -> (any InsertRowBatch)? {
        guard sendsInBatches, let held else { return nil }
        let types = try held.statement(insert).describedParameterTypes()
        return PostgresInsertRows(insert: insert, types: types, table: table, typeName: typeName, columns: columns, onlyIfRowOf: existing, owner: self)
    }

    /// `count` new keys of `table` from its key's sequence (the identity of `"$pk"`), ascending:
    /// what `count` single-row inserts would have taken, in one statement.
    ///
    /// - Throws: the store's error.
    func reserveKeys(in table: String, count: Int) throws -> [Int64] {
        // The sequence is looked up once (`OFFSET 0` keeps the subquery from being merged into the
        // per-row expression).
        let sql = "SELECT nextval(q.s) FROM (SELECT pg_get_serial_sequence(?, '\(StorageNames.primaryKey)')::regclass AS s OFFSET 0) AS q CROSS JOIN generate_series(1, ?::integer)"
        let statement = try statement(sql)
        defer { statement.reset() }
        statement.bind(.text(SQLQuote.identifier(table)), at: 1)
        statement.bind(.integer(Int64(count)), at: 2)
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        while try statement.step() {
            guard let key = statement.int64(at: 0) else { break }
            keys.append(key)
        }
        guard keys.count == count else {
            throw ModelStoreError.invalidSchema("the table \(table) gave \(keys.count) of \(count) keys")
        }
        keys.sort()
        return keys
    }
}
