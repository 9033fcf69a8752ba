import Foundation

/// Rows a save writes several per statement instead of one statement per row (docs/PostgreSQL.md,
/// "Batched writes"): an entity's inserted rows (`init(insert:…)`) or a partial update's changed
/// rows (`init(update:…)`), one statement text whatever the row count, each column's values in
/// one array sent in binary (`PostgresColumnArrays`).
///
/// A row is bound to `rowStatement` (`PostgresRowStatement`: each typed bind encoded at once into
/// its column's array, no `SQLValue`), its values in the form of the single-row statement's
/// parameter types, as the server inferred them: the same values are refused with the same error.
/// A failure of the statement names the single-row statement, as for the row that failed there.
final class PostgresRowBatch: RowBatch {
    /// The rows, and the statement a row is bound into.
    private let row: PostgresRowStatement
    private let statementSQL: String
    /// The table it writes (an update's rows found missing are looked for there: `storedKeys(among:)`).
    private let table: String
    private unowned let owner: PostgresStoreConnection

    /// The most rows in one statement (`PostgresColumnArrays.limit`).
    static let limit = PostgresColumnArrays.limit

    var count: Int { row.arrays.count }

    var isFull: Bool { count >= Self.limit }

    var rowStatement: any StoreStatement { row }

    private init(sql: String, rows: PostgresColumnArrays, single: String, table: String, owner: PostgresStoreConnection) {
        statementSQL = sql
        row = PostgresRowStatement(rows, single: single)
        self.table = table
        self.owner = owner
    }

    /// The rows of an entity's insert (`insert`, its single-row statement):
    ///
    ///     INSERT INTO "Trip" ("$pk", "$type", "name", …) SELECT v."k", 'Trip', v."c1", …
    ///     FROM unnest($1::bigint[], $2::text[], …) AS v("k", "c1", …)
    ///
    /// The keys were reserved before (`PostgresStoreConnection.reserveKeys`), so the statement
    /// returns nothing and no row waits for another's key; with `typeName` nil, rows of a table
    /// without keys (the history's). Nil when a column's type is not one this client sends in an
    /// array (the rows then go one statement each).
    convenience init?(insert: String, types: [PostgresType], table: String, typeName: String?, columns quoted: [String],
                      onlyIfRowOf existing: (table: String, column: Int)?, owner: PostgresStoreConnection) {
        // A conditional insert binds the key of the row it checks after the row's values.
        guard types.count >= quoted.count else { return nil }
        let keyed = typeName != nil
        guard let rows = PostgresColumnArrays(types: Array(types.prefix(quoted.count)), keyed: keyed) else { return nil }
        let selected: [String] = (typeName.map { ["v.\"k\"", SQLQuote.literal($0)] } ?? []) + rows.values(of: "v")
        let target = ((keyed ? [SQLQuote.identifier(StorageNames.primaryKey), SQLQuote.identifier(StorageNames.type)] : []) + quoted).joined(separator: ", ")
        let sql = "INSERT INTO \(SQLQuote.identifier(table)) (\(target)) SELECT \(selected.joined(separator: ", ")) "
            + "FROM unnest(\(rows.placeholders.joined(separator: ", "))) AS v(\(rows.aliases))"
            + (existing.map { " WHERE EXISTS (SELECT 1 FROM \(SQLQuote.identifier($0.table)) WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = v.\"c\($0.column + 1)\")" } ?? "")
        self.init(sql: sql, rows: rows, single: insert, table: table, owner: owner)
    }

    /// The rows of a partial update (`update`, its single-row statement: the quoted `columns` set
    /// from its first parameters, the row's key bound last):
    ///
    ///     UPDATE "Trip" AS t SET "name" = v."c1", … FROM unnest($1::bigint[], $2::text[], …) AS v("k", "c1", …)
    ///     WHERE t."$pk" = v."k"
    ///
    /// Its result's row count says whether a row is missing; which one, `storedKeys(among:)` reads
    /// only then (a `RETURNING` of every key had the client receive and parse a row per row
    /// changed: docs/PostgreSQL.md, "Batched writes"). Nil when a column's type is not one this
    /// client sends in an array.
    convenience init?(update: String, types: [PostgresType], table: String, columns quoted: [String], owner: PostgresStoreConnection) {
        guard types.count == quoted.count + 1, !quoted.isEmpty,
              let rows = PostgresColumnArrays(types: Array(types.prefix(quoted.count)), keyed: true) else { return nil }
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        let sets = zip(quoted, rows.values(of: "v")).map { "\($0) = \($1)" }.joined(separator: ", ")
        let sql = "UPDATE \(SQLQuote.identifier(table)) AS t SET \(sets) "
            + "FROM unnest(\(rows.placeholders.joined(separator: ", "))) AS v(\(rows.aliases)) "
            + "WHERE t.\(primaryKey) = v.\"k\""
        self.init(sql: sql, rows: rows, single: update, table: table, owner: owner)
    }

    func add(key: Int64, from statement: any StoreStatement) throws {
        try row.add(key: key, from: statement)
    }

    func take() throws -> any StoreStatement {
        let made = try owner.statement(statementSQL)
        guard let statement = made as? PostgresStoreStatement else { return made }
        row.bind(to: statement)
        return statement
    }

    func storedKeys(among keys: [Int64]) throws -> Set<Int64> {
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        let statement = try owner.statement("SELECT \(primaryKey) FROM \(SQLQuote.identifier(table)) WHERE \(primaryKey) = ANY(?::bigint[])")
        defer { statement.reset() }
        statement.bind(.blob(PostgresColumnArrays.int8Array(keys)), at: 1)
        var stored = Set<Int64>(minimumCapacity: keys.count)
        while try statement.step() { stored.insert(try statement.integer(at: 0)) }
        return stored
    }
}

extension PostgresStoreConnection {
    /// The rows of an entity's insert written together (`PostgresRowBatch`), inside a write
    /// transaction whose statements are batched; nil otherwise, or for a column type sent only alone.
    ///
    /// - Throws: the error of preparing the single-row insert.
    func rowBatch(forInsert insert: String, table: String, typeName: String?, columns: [String],
                  onlyIfRowOf existing: (table: String, column: Int)?) throws -> (any RowBatch)? {
        guard sendsInBatches, let held else { return nil }
        let types = try held.statement(insert).describedParameterTypes()
        return PostgresRowBatch(insert: insert, types: types, table: table, typeName: typeName, columns: columns, onlyIfRowOf: existing, owner: self)
    }

    /// The rows of a partial update changed together (`PostgresRowBatch`), inside a write
    /// transaction whose statements are batched; nil otherwise, or for a column type sent only alone.
    ///
    /// - Throws: the error of preparing the single-row update.
    func rowBatch(forUpdate update: String, table: String, columns: [String]) throws -> (any RowBatch)? {
        guard sendsInBatches, let held else { return nil }
        let types = try held.statement(update).describedParameterTypes()
        return PostgresRowBatch(update: update, types: types, table: table, columns: columns, owner: self)
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
