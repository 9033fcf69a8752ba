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
    /// For an upsert the store cannot write as one statement (PostgreSQL, several unique groups):
    /// how the save finds and updates the row an insert conflicted with. Nil otherwise.
    let conflict: UpsertConflict?

    /// The second half of an upsert over several unique groups, where `insert` ends with
    /// `ON CONFLICT DO NOTHING RETURNING "$pk"` and so returns no row when a stored row holds the
    /// values of any unique group: `lookup` finds that row (the one with the smallest key when
    /// several do) and locks it, `update` then writes the new values into it. A row that a
    /// concurrent transaction deleted in between is inserted again.
    struct UpsertConflict {
        /// `SELECT "$pk" … WHERE (group 1) OR (group 2) … ORDER BY "$pk" LIMIT 1 FOR UPDATE`.
        let lookup: String
        /// For each placeholder of `lookup`, the position of its value among the insert's values
        /// after the type (attributes, then keys).
        let lookupValues: [Int]
        /// `UPDATE … SET "$type" = ?, columns… = ? WHERE "$pk" = ?`: the insert's values, then the key.
        let update: String
    }

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
        var conflict: UpsertConflict?
        if !entity.uniqueColumnGroups.isEmpty {
            let assignments = ([StorageNames.type] + valueColumns).map {
                "\(SQLQuote.identifier($0)) = excluded.\(SQLQuote.identifier($0))"
            }.joined(separator: ", ")
            if let clause = dialect.upsertClause(uniqueGroups: entity.uniqueColumnGroups, assignments: assignments) {
                insert += clause
            } else {
                insert += " ON CONFLICT DO NOTHING"
                let groups = entity.uniqueColumnGroups.map { group in
                    "(" + group.map { "\(SQLQuote.identifier($0)) = ?" }.joined(separator: " AND ") + ")"
                }
                let sets = ([StorageNames.type] + valueColumns).map { "\(SQLQuote.identifier($0)) = ?" }.joined(separator: ", ")
                conflict = UpsertConflict(
                    lookup: "SELECT \(primaryKey) FROM \(table) WHERE \(groups.joined(separator: " OR ")) ORDER BY \(primaryKey) LIMIT 1 FOR UPDATE",
                    lookupValues: entity.uniqueColumnGroups.flatMap { group in group.compactMap { valueColumns.firstIndex(of: $0) } },
                    update: "UPDATE \(table) SET \(sets) WHERE \(primaryKey) = ?")
            }
            isUpsert = true
            returnsKey = true
        }
        if returnsKey { insert += " RETURNING \(primaryKey)" }
        self.insert = insert
        self.insertReturnsKey = returnsKey
        self.isUpsert = isUpsert
        self.conflict = conflict
        let sets = valueColumns.map { "\(SQLQuote.identifier($0)) = ?" }.joined(separator: ", ")
        update = valueColumns.isEmpty ? "" : "UPDATE \(table) SET \(sets) WHERE \(primaryKey) = ?"
        deleteByKey = "DELETE FROM \(table) WHERE \(primaryKey) = ?"
    }
}
