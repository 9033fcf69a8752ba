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
final class PostgresInsertRows: RowBatch {
    /// The rows, and the statement a row is bound into.
    private let row: PostgresRowStatement
    private let statementSQL: String
    private unowned let owner: PostgresStoreConnection

    var count: Int { row.arrays.count }

    var rowStatement: any StoreStatement { row }

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
        row = PostgresRowStatement(rows, single: insert)
        self.owner = owner
    }

    /// The most rows in one statement (`PostgresColumnArrays.limit`).
    static let limit = PostgresColumnArrays.limit

    var isFull: Bool { count >= Self.limit }

    func add(key: Int64, from statement: any StoreStatement) throws {
        try row.add(key: key, from: statement)
    }

    func take() throws -> any StoreStatement {
        let made = try owner.statement(statementSQL)
        guard let statement = made as? PostgresStoreStatement else { return made }
        row.bind(to: statement)
        return statement
    }
}

extension PostgresStoreConnection {
    /// The rows of an entity's insert written together (`PostgresInsertRows`), inside a write
    /// transaction whose statements are batched; nil otherwise, or for a column type sent only alone.
    ///
    /// - Throws: the error of preparing the single-row insert.
    func rowBatch(forInsert insert: String, table: String, typeName: String?, columns: [String],
                  onlyIfRowOf existing: (table: String, column: Int)?) throws -> (any RowBatch)? {
        guard sendsInBatches, let held else { return nil }
        let types = try held.statement(insert).describedParameterTypes()
        return PostgresInsertRows(insert: insert, types: types, table: table, typeName: typeName, columns: columns, onlyIfRowOf: existing, owner: self)
    }

    /// `count` new keys of `table` from its key's sequence (the identity of `"$pk"`), ascending:
    /// what `count` single-row inserts would have taken, in one statement (one row back: the
    /// first and last key when they are consecutive).
    ///
    /// - Throws: the store's error.
    func reserveKeys(in table: String, count: Int) throws -> [Int64] {
        // The sequence is looked up once (`OFFSET 0` keeps the subquery from being merged into the
        // per-row expression). The keys come back as a range when they are consecutive (no other
        // transaction took one meanwhile: the usual case), else listed.
        let key = "nextval(q.s)"
        let sql = "SELECT min(r.k), max(r.k), count(*), CASE WHEN max(r.k) - min(r.k) + 1 = count(*) THEN NULL ELSE string_agg(r.k::text, ',' ORDER BY r.k) END "
            + "FROM (SELECT \(key) AS k FROM (SELECT pg_get_serial_sequence(?, '\(StorageNames.primaryKey)')::regclass AS s OFFSET 0) AS q "
            + "CROSS JOIN generate_series(1, ?::integer)) AS r"
        let statement = try statement(sql)
        defer { statement.reset() }
        statement.bind(.text(SQLQuote.identifier(table)), at: 1)
        statement.bind(.integer(Int64(count)), at: 2)
        guard try statement.step(), let first = statement.int64(at: 0), let last = statement.int64(at: 1), let given = statement.int64(at: 2),
              given == Int64(count), !statement.isNull(at: 0) else {
            throw ModelStoreError.invalidSchema("the table \(table) did not give \(count) keys")
        }
        let keys: [Int64]
        if statement.isNull(at: 3) {
            keys = Array(first...last)
        } else {
            keys = statement.text(at: 3).split(separator: ",").compactMap { Int64($0) }
        }
        guard keys.count == count else {
            throw ModelStoreError.invalidSchema("the table \(table) gave \(keys.count) of \(count) keys")
        }
        return keys
    }
}
