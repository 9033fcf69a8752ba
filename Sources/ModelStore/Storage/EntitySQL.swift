/// The statements a context runs for one entity, spelled in one store's dialect. Built once per
/// container for every entity of its schema (`ModelContainer.entitySQL`, by `EntitySchema.index`).
struct EntitySQL {
    /// `INSERT` (or upsert) binding the type, the attributes, then the to-one keys; with
    /// `RETURNING "$pk"` when `insertReturnsKey`.
    let insert: String
    /// Whether `insert` returns the row's key as its one result row.
    let insertReturnsKey: Bool
    /// Whether `insert` is an upsert (a stored row with the same unique values is updated instead).
    let isUpsert: Bool
    /// `UPDATE` binding the attributes, the keys, then the row's key; empty when the entity has no column.
    let update: String
    /// `DELETE` of the row with a given key.
    let deleteByKey: String

    init(entity: EntitySchema, dialect: any SQLDialect) {
        let table = SQLQuote.identifier(entity.tableName)
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        let keyColumns: [String] = entity.keySlots.compactMap { slot in
            if case .keyColumn(let column) = entity.relationships[slot].storage { return column }
            return nil
        }
        let valueColumns = entity.attributes.map(\.column) + keyColumns
        let insertColumns = ([StorageNames.type] + valueColumns).map(SQLQuote.identifier).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: valueColumns.count + 1).joined(separator: ", ")
        var insert = "INSERT INTO \(table) (\(insertColumns)) VALUES (\(placeholders))"
        var returnsKey = dialect.insertsReturnKey
        var isUpsert = false
        if !entity.uniqueColumnGroups.isEmpty {
            let assignments = ([StorageNames.type] + valueColumns).map {
                "\(SQLQuote.identifier($0)) = excluded.\(SQLQuote.identifier($0))"
            }.joined(separator: ", ")
            if let clause = dialect.upsertClause(uniqueGroups: entity.uniqueColumnGroups, assignments: assignments) {
                insert += clause
                isUpsert = true
                returnsKey = true
            }
        }
        if returnsKey { insert += " RETURNING \(primaryKey)" }
        self.insert = insert
        self.insertReturnsKey = returnsKey
        self.isUpsert = isUpsert
        let sets = valueColumns.map { "\(SQLQuote.identifier($0)) = ?" }.joined(separator: ", ")
        update = valueColumns.isEmpty ? "" : "UPDATE \(table) SET \(sets) WHERE \(primaryKey) = ?"
        deleteByKey = "DELETE FROM \(table) WHERE \(primaryKey) = ?"
    }
}
