/// The statements a context runs for one entity, spelled in one store's dialect. Built once per
/// container for every entity of its schema (`ModelContainer.entitySQL`, by `EntitySchema.index`).
struct EntitySQL {
    /// `INSERT` (or upsert) of the entity's type (a literal) and the bound value columns, then the
    /// to-one keys; with `RETURNING "$pk"` when `insertReturnsKey`.
    let insert: String
    /// Where `insert` takes each stored attribute's first column (parameter indexes, by `AttributeIndex`).
    let insertPositions: [Int32]
    /// Whether `insert` returns the row's key as its one result row.
    let insertReturnsKey: Bool
    /// Whether `insert` is an upsert (a stored row with the same unique values is updated instead).
    let isUpsert: Bool
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
        /// (attributes, then keys).
        let lookupValues: [Int]
        /// `UPDATE … SET "$type" = ?, columns… = ? WHERE "$pk" = ?`: the type, the insert's values, then the key.
        let update: String
    }

    /// The row's value columns (the attributes' columns, then the to-one key columns), quoted.
    let valueColumns: [String]

    init(entity: EntitySchema, dialect: any SQLDialect) {
        let table = SQLQuote.identifier(entity.tableName)
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        let keyColumns: [String] = entity.keySlots.compactMap { slot in
            if case .keyColumn(let column) = entity.relationships[slot].storage { return column }
            return nil
        }
        let valueColumns = entity.attributes.map(\.column) + keyColumns
        self.valueColumns = valueColumns.map(SQLQuote.identifier)
        let insertColumns = ([StorageNames.type] + valueColumns).map(SQLQuote.identifier).joined(separator: ", ")
        // The type is written into the statement (each entity has its own insert), not bound per row.
        let placeholders = ([SQLQuote.literal(entity.name)] + Array(repeating: "?", count: valueColumns.count)).joined(separator: ", ")
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
        self.insertPositions = entity.attributeValuePositions.map { $0 + 1 }
        self.insertReturnsKey = returnsKey
        self.isUpsert = isUpsert
        self.conflict = conflict
        deleteByKey = "DELETE FROM \(table) WHERE \(primaryKey) = ?"
    }

    /// The `UPDATE` of the changed value columns `columns` of a row of `entity` (one statement per
    /// distinct set of changed columns; `ModelContext` caches them).
    func update(of entity: EntitySchema, columns: PositionSet) -> PartialUpdate {
        let changed = columns.sorted.filter { $0 < valueColumns.count }
        var parameter: [Int: Int32] = [:]
        for (offset, column) in changed.enumerated() { parameter[column] = Int32(offset + 1) }
        // A stored attribute is written whole (a struct's columns together), so its first column's
        // parameter is where the encoder starts it.
        let positions: [Int32] = entity.storedAttributes.map { parameter[$0.firstColumn] ?? -1 }
        let keyParameters: [Int32] = entity.keySlots.indices.map { parameter[entity.attributes.count + $0] ?? -1 }
        let sets = changed.map { "\(valueColumns[$0]) = ?" }.joined(separator: ", ")
        let sql = "UPDATE \(SQLQuote.identifier(entity.tableName)) SET \(sets) WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?"
        return PartialUpdate(sql: sql, positions: positions, keyParameters: keyParameters, keyParameter: Int32(changed.count + 1))
    }
}

/// An `UPDATE` of some of a row's value columns.
struct PartialUpdate {
    let sql: String
    /// Where the encoder writes each stored attribute (parameter index, -1 for an unchanged one).
    let positions: [Int32]
    /// The parameter of each to-one key column (`EntitySchema.keySlots` order; -1 for an unchanged one).
    let keyParameters: [Int32]
    /// The parameter of the row's key (`WHERE "$pk" = ?`).
    let keyParameter: Int32
}
