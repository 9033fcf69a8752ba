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
    fileprivate let single: String
    // The rows are one save's, on one thread (the context's, which `ContextGuards` checks): no
    // run-time exclusivity checks per value (docs/Benchmarks.md, "No run-time exclusivity checks
    // on per-row state").
    @exclusivity(unchecked) fileprivate var rows: PostgresColumnArrays
    private let statementSQL: String
    private unowned let owner: PostgresStoreConnection

    var count: Int { rows.count }

    /// The statement a row is bound into for `add(key:from:)`, its binds written straight into the
    /// columns (`RowStatement`).
    private(set) lazy var rowStatement: any StoreStatement = RowStatement(rows: self)

    /// Nil when a column's type is not one this client sends in an array (the entity's rows then
    /// go one statement each).
    init?(insert: String, types: [PostgresType], table: String, typeName: String?, columns quoted: [String],
          onlyIfRowOf existing: (table: String, column: Int)?, owner: PostgresStoreConnection) {
        // A conditional insert binds the key of the row it checks after the row's values.
        guard types.count >= quoted.count else { return nil }
        let keyed = typeName != nil
        guard let rows = PostgresColumnArrays(types: Array(types.prefix(quoted.count)), keyed: keyed) else { return nil }
        let selected: [String] = (typeName.map { ["v.\"k\"", SQLQuote.literal($0)] } ?? []) + rows.values(of: "v")
        let target = ((keyed ? [SQLQuote.identifier(StorageNames.primaryKey), SQLQuote.identifier(StorageNames.type)] : []) + quoted).joined(separator: ", ")
        statementSQL = "INSERT INTO \(SQLQuote.identifier(table)) (\(target)) SELECT \(selected.joined(separator: ", ")) "
            + "FROM unnest(\(rows.placeholders.joined(separator: ", "))) AS v(\(rows.aliases))"
            + (existing.map { " WHERE EXISTS (SELECT 1 FROM \(SQLQuote.identifier($0.table)) WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = v.\"c\($0.column + 1)\")" } ?? "")
        single = insert
        self.rows = rows
        self.owner = owner
    }

    /// The most rows in one statement (`PostgresColumnArrays.limit`).
    static let limit = PostgresColumnArrays.limit

    var isFull: Bool { count >= Self.limit }

    func add(key: Int64, from statement: any StoreStatement) throws {
        if let row = statement as? RowStatement, row.rows === self {
            if var error = row.failure {
                row.failures.removeAll()
                rows.dropPartialRow()
                error.sql = single
                throw error
            }
            rows.addBoundRow(key: key)
            return
        }
        guard let statement = statement as? PostgresStoreStatement else { return }
        do {
            try rows.add(key: key, values: statement.boundValues)
        } catch var error {
            error.sql = single
            throw error
        }
    }

    func take() throws -> any StoreStatement {
        let made = try owner.statement(statementSQL)
        guard let statement = made as? PostgresStoreStatement else { return made }
        statement.reportsAs = single
        rows.bind(to: statement, from: 1)
        return statement
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
        rows.rows.dropPartialRow()
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
        note(rows.rows.bind(at: index, .null) { parameters, _, _ in parameters.appendNull() }, index)
    }

    func bindInt64(_ value: Int64, at index: Int32) {
        note(rows.rows.bind(at: index, .integer(value)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendInteger(value, type: type, number: number)
        }, index)
    }

    func bindDouble(_ value: Double, at index: Int32) {
        note(rows.rows.bind(at: index, .real(value)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendReal(value, type: type, number: number)
        }, index)
    }

    func bindText(_ text: String, at index: Int32) {
        let error = rows.rows.bind(at: index, .text(text)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendText(text, type: type, number: number)
        }
        // As `PostgresStoreStatement.bind`: `save()` names the property of text holding U+0000 (the
        // lowest parameter's, as binding in order finds first). Text with U+0000 is refused by
        // every type but bytea, so only then is it looked for.
        if error != nil || rows.rows.type(at: index) == .bytea, text.utf8.contains(0), bindingProblem.map({ index < $0.position }) ?? true {
            bindingProblem = (index, "the text holds the character U+0000 (NUL), which PostgreSQL text cannot hold")
        }
        note(error, index)
    }

    func bindBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        note(rows.rows.bind(at: index, .blob(Data(bytes))) { (parameters, type, number) throws(PostgresError) in
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
