/// The rows a save changes with one partial update (an entity, a set of changed columns), written
/// as one statement per batch instead of one `UPDATE` per row (docs/PostgreSQL.md, "Batched
/// writes"):
///
///     UPDATE "Trip" AS t SET "name" = v."c1", … FROM unnest($1::bigint[], $2::text[], …) AS v("k", "c1", …)
///     WHERE t."$pk" = v."k" RETURNING t."$pk"
///
/// one statement text per update whatever the row count, each column's values in one array sent
/// in binary (`PostgresColumnArrays`). Each row is bound to `rowStatement`, its values encoded
/// as the single-row update's parameters (`PostgresRowStatement`): the same values are refused
/// with the same error. A failure of the statement names the single-row update. The keys returned tell which
/// rows were missing (`SentResult.keys`).
final class PostgresUpdateRows: RowBatch {
    /// The rows, and the statement a row is bound into.
    private let row: PostgresRowStatement
    private let statementSQL: String
    private unowned let owner: PostgresStoreConnection

    var count: Int { row.arrays.count }

    var isFull: Bool { count >= PostgresColumnArrays.limit }

    var rowStatement: any StoreStatement { row }

    /// Nil when a column's type is not one this client sends in an array (the rows then go one
    /// statement each).
    init?(update: String, types: [PostgresType], table: String, columns quoted: [String], owner: PostgresStoreConnection) {
        // The single-row update binds the changed columns, then the row's key.
        guard types.count == quoted.count + 1, !quoted.isEmpty,
              let rows = PostgresColumnArrays(types: Array(types.prefix(quoted.count)), keyed: true) else { return nil }
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        let sets = zip(quoted, rows.values(of: "v")).map { "\($0) = \($1)" }.joined(separator: ", ")
        statementSQL = "UPDATE \(SQLQuote.identifier(table)) AS t SET \(sets) "
            + "FROM unnest(\(rows.placeholders.joined(separator: ", "))) AS v(\(rows.aliases)) "
            + "WHERE t.\(primaryKey) = v.\"k\" RETURNING t.\(primaryKey)"
        row = PostgresRowStatement(rows, single: update)
        self.owner = owner
    }

    func add(key: Int64, from statement: any StoreStatement) throws {
        try row.add(key: key, from: statement)
    }

    func take() throws -> any StoreStatement {
        let made = try owner.statement(statementSQL)
        guard let statement = made as? PostgresStoreStatement else { return made }
        statement.expectedKeys = count
        row.bind(to: statement)
        return statement
    }
}

extension PostgresStoreConnection {
    /// The rows of a partial update changed together (`PostgresUpdateRows`), inside a write
    /// transaction whose statements are batched; nil otherwise, or for a column type sent only alone.
    ///
    /// - Throws: the error of preparing the single-row update.
    func rowBatch(forUpdate update: String, table: String, columns: [String]) throws -> (any RowBatch)? {
        guard sendsInBatches, let held else { return nil }
        let types = try held.statement(update).describedParameterTypes()
        return PostgresUpdateRows(update: update, types: types, table: table, columns: columns, owner: self)
    }
}
