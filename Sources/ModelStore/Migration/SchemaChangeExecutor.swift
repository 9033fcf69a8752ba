import Foundation

/// Carries out `SchemaChangePlan`s on a connection, inside the migration's transaction.
///
/// Order: checks (stored NULLs of properties that become required); new tables, rebuilt tables and
/// join tables built under temporary names and filled from the old tables (all old tables are still
/// there); old tables dropped; tables of renamed entities that migrate in place renamed (dialects
/// that `renamesTablesInPlace`); new ones renamed to their names; their foreign keys (dialects that
/// add them after the tables) and indexes; tables migrated in place (the dialect's `ALTER TABLE`s);
/// tombstones of renamed entities and attributes; references to removed rows repaired (what
/// `ON DELETE SET NULL` and `ON DELETE CASCADE` would have done, had foreign keys been on);
/// finally, apart, new unique constraints (checked for duplicates first).
struct SchemaChangeExecutor {
    let connection: any StoreConnection
    var dialect: any SQLDialect { connection.dialect }

    /// The prefix of the temporary name of a table being built (`$` never starts a model name).
    static let temporaryPrefix = "$migrating:"
    /// The prefix of the temporary name of a table being renamed in place.
    static let renamingPrefix = "$renaming:"

    /// Applies everything but `plan.addedUniques` (see `createAddedUniques`). Returns whether rows
    /// were copied or removed, so that references need checking.
    ///
    /// - Throws: `ModelStoreError.incompatibleSchema` when stored rows have no value for a property
    ///   that becomes required without a default; the store's error when a statement fails (e.g. a
    ///   constraint that the copied rows break).
    @discardableResult
    func apply(_ plan: SchemaChangePlan) throws -> Bool {
        for sql in dialect.schemaChangeStepPrologue { try connection.execute(sql) }
        try checkNulls(plan)
        var renames: [(from: String, to: String)] = []
        var tableRenames: [(from: String, to: String)] = []
        var keyStatements: [String] = []
        var indexStatements: [String] = []
        var inPlace: [(TableMigration, [String])] = []
        var drops: [String] = []

        func build(_ table: StoredTable) throws -> String {
            let temporary = Self.temporaryPrefix + table.name
            try connection.execute(StoreDDL.createTable(table, named: temporary, dialect))
            renames.append((temporary, table.name))
            keyStatements += StoreDDL.foreignKeys(of: table, dialect)
            return temporary
        }

        for table in plan.createdTables {
            _ = try build(table)
            indexStatements += StoreDDL.indexes(of: table, uniques: table.uniques, dialect)
        }
        for migration in plan.migratedTables {
            // The table of a renamed entity is rebuilt, unless the dialect renames it (see `TableMigration`).
            let renamed = migration.old.name != migration.new.name
            if !renamed || dialect.renamesTablesInPlace, let statements = dialect.inPlaceMigration(migration) {
                inPlace.append((migration, statements))
                if renamed { tableRenames.append((migration.old.name, migration.new.name)) }
                continue
            }
            let temporary = try build(migration.new)
            try connection.execute(Self.copyRows(migration, into: temporary))
            drops.append(migration.old.name)
            indexStatements += StoreDDL.indexes(of: migration.new, uniques: migration.keptUniques, dialect)
        }
        for (table, rows) in plan.builtJoinTables {
            let temporary = try build(table)
            if let rows { try connection.execute(Self.copyLinks(rows, into: temporary)) }
            indexStatements += StoreDDL.indexes(of: table, uniques: [], dialect)
        }
        for table in drops + plan.droppedTables {
            try connection.execute(dialect.dropTable(table))
        }
        // Through temporary names, so that two renamed tables may swap their names.
        for (from, to) in tableRenames {
            try connection.execute("ALTER TABLE \(SQLQuote.identifier(from)) RENAME TO \(SQLQuote.identifier(Self.renamingPrefix + to))")
        }
        for (from, to) in tableRenames.map({ (Self.renamingPrefix + $0.to, $0.to) }) + renames {
            try connection.execute("ALTER TABLE \(SQLQuote.identifier(from)) RENAME TO \(SQLQuote.identifier(to))")
        }
        for sql in keyStatements + indexStatements { try connection.execute(sql) }
        for (migration, statements) in inPlace {
            let table = SQLQuote.identifier(migration.new.name)
            if !migration.deletedTypes.isEmpty {
                try connection.execute("DELETE FROM \(table) WHERE \(Self.typeColumn) IN (\(migration.deletedTypes.map(SQLQuote.literal).joined(separator: ", ")))")
            }
            if !migration.typeRenames.isEmpty {
                try connection.execute("UPDATE \(table) SET \(Self.typeColumn) = \(Self.renamedType(migration.typeRenames)) "
                                       + "WHERE \(Self.typeColumn) IN (\(migration.typeRenames.keys.sorted().map(SQLQuote.literal).joined(separator: ", ")))")
            }
            for sql in statements { try connection.execute(sql) }
        }
        try renameTombstones(plan)
        try repairReferences(in: plan.new, to: plan.tablesLosingRows)
        return !drops.isEmpty || !plan.builtJoinTables.isEmpty || !plan.droppedTables.isEmpty || !plan.tablesLosingRows.isEmpty
    }

    // MARK: Checks

    /// Stored NULLs of properties that become required without a default (a custom stage's
    /// `willMigrate` had to set them).
    private func checkNulls(_ plan: SchemaChangePlan) throws {
        var problems: [String] = []
        for check in plan.nullChecks {
            var sql = "SELECT count(*) FROM \(SQLQuote.identifier(check.table)) WHERE \(SQLQuote.identifier(check.column)) IS NULL"
            var bindings: [SQLValue] = []
            if let types = check.types {
                sql += " AND \(Self.typeColumn) IN (\(types.map { _ in "?" }.joined(separator: ", ")))"
                bindings = types.map(SQLValue.text)
            }
            if case .integer(let count)? = try connection.rows(sql, bindings).first?.first, count > 0 {
                problems.append("\(check.label): \(count) stored \(count == 1 ? "row has" : "rows have") no value, and the property "
                                + "becomes required without a default value")
            }
        }
        if !problems.isEmpty { throw ModelStoreError.incompatibleSchema(problems) }
    }

    // MARK: Copies

    private static let typeColumn = SQLQuote.identifier(StorageNames.type)
    private static let keyColumn = SQLQuote.identifier(StorageNames.primaryKey)

    /// `CASE "$type" WHEN 'Old' THEN 'New' … ELSE "$type" END`.
    private static func renamedType(_ renames: [String: String]) -> String {
        "CASE \(typeColumn) " + renames.sorted { $0.key < $1.key }.map { "WHEN \(SQLQuote.literal($0.key)) THEN \(SQLQuote.literal($0.value)) " }.joined()
            + "ELSE \(typeColumn) END"
    }

    /// `INSERT INTO temporary (…) SELECT … FROM old`: every kept row, keys kept, values from their sources.
    static func copyRows(_ migration: TableMigration, into temporary: String) -> String {
        let columns = [StorageNames.primaryKey, StorageNames.type] + migration.new.columns.map(\.name)
        var values = [keyColumn, migration.typeRenames.isEmpty ? typeColumn : renamedType(migration.typeRenames)]
        func expression(_ source: ColumnSource) -> String {
            switch source {
            case .column(let name): return SQLQuote.identifier(name)
            case .coalesce(let name, let literal): return "coalesce(\(SQLQuote.identifier(name)), \(literal))"
            case .value(let literal): return literal
            case .valueWherePresent(let literal, let presence):
                // The presence columns' new values, from their own sources (never of this case).
                let conditions = presence.compactMap { name -> String? in
                    guard let index = migration.new.columns.firstIndex(where: { $0.name == name }) else { return nil }
                    if case .valueWherePresent = migration.sources[index] { return nil }
                    return "(\(expression(migration.sources[index]))) IS NOT NULL"
                }
                guard !conditions.isEmpty else { return literal }
                return "CASE WHEN \(conditions.joined(separator: " AND ")) THEN \(literal) END"
            }
        }
        values += migration.sources.map(expression)
        var sql = "INSERT INTO \(SQLQuote.identifier(temporary)) (\(columns.map(SQLQuote.identifier).joined(separator: ", "))) "
            + "SELECT \(values.joined(separator: ", ")) FROM \(SQLQuote.identifier(migration.old.name))"
        if !migration.deletedTypes.isEmpty {
            sql += " WHERE \(typeColumn) NOT IN (\(migration.deletedTypes.map(SQLQuote.literal).joined(separator: ", ")))"
        }
        return sql
    }

    /// `INSERT INTO temporary ("$source", "$target") SELECT …`: the links of a rebuilt join table.
    static func copyLinks(_ rows: SchemaChangePlan.JoinRows, into temporary: String) -> String {
        let source = SQLQuote.identifier(StorageNames.source)
        let target = SQLQuote.identifier(StorageNames.target)
        let insert = "INSERT INTO \(SQLQuote.identifier(temporary)) (\(source), \(target)) "
        switch rows {
        case .joinTable(let table, let flipped):
            return insert + "SELECT \(flipped ? "\(target), \(source)" : "\(source), \(target)") FROM \(SQLQuote.identifier(table))"
        case .keyColumn(let table, let column, let keyIsTarget):
            let key = SQLQuote.identifier(column)
            return insert + "SELECT \(keyIsTarget ? "\(keyColumn), \(key)" : "\(key), \(keyColumn)") FROM \(SQLQuote.identifier(table)) WHERE \(key) IS NOT NULL"
        }
    }

    // MARK: Tombstones and references

    private func renameTombstones(_ plan: SchemaChangePlan) throws {
        // Tombstones live in the history (deleted models' changes).
        try HistoryTables.rename(entities: plan.entityRenames, attributes: plan.attributeRenames, on: connection)
    }

    /// What `ON DELETE SET NULL` (key columns) and `ON DELETE CASCADE` (join tables) would have done
    /// for rows removed from `tables` (every table when nil) while foreign keys were off.
    ///
    /// - Throws: the store's error.
    func repairReferences(in schema: StoredSchema, to tables: Set<String>?) throws {
        func concerned(_ table: String) -> Bool { tables?.contains(table) ?? true }
        guard tables.map({ !$0.isEmpty }) ?? true else { return }
        for table in schema.tables {
            let name = SQLQuote.identifier(table.name)
            if table.isJoinTable {
                for (column, referenced) in zip([StorageNames.source, StorageNames.target], table.joinReferences) where concerned(referenced) {
                    try connection.execute("DELETE FROM \(name) WHERE \(SQLQuote.identifier(column)) NOT IN "
                                           + "(SELECT \(Self.keyColumn) FROM \(SQLQuote.identifier(referenced)))")
                }
                continue
            }
            for column in table.columns {
                guard let referenced = column.references, concerned(referenced) else { continue }
                let key = SQLQuote.identifier(column.name)
                try connection.execute("UPDATE \(name) SET \(key) = NULL WHERE \(key) IS NOT NULL AND \(key) NOT IN "
                                       + "(SELECT \(Self.keyColumn) FROM \(SQLQuote.identifier(referenced)))")
            }
        }
    }

    // MARK: Unique constraints

    /// Creates the unique constraints the old tables did not enforce, after checking the stored
    /// rows hold no duplicates.
    ///
    /// - Throws: `ModelStoreError.incompatibleSchema` naming, for each violated constraint, the
    ///   duplicated values and how many rows share them; the store's error.
    func createAddedUniques(_ plan: SchemaChangePlan) throws {
        var problems: [String] = []
        for group in plan.addedUniques {
            let columns = group.columns.map(SQLQuote.identifier)
            let list = columns.joined(separator: ", ")
            let rows = try connection.rows(
                "SELECT \(list), count(*) FROM \(SQLQuote.identifier(group.table)) WHERE "
                + columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                + " GROUP BY \(list) HAVING count(*) > 1 ORDER BY count(*) DESC, \(list) LIMIT 6")
            guard !rows.isEmpty else { continue }
            var duplicates = rows.prefix(5).map { row -> String in
                let values = row.dropLast().map(Self.describe)
                let shown = values.count == 1 ? values[0] : "(" + values.joined(separator: ", ") + ")"
                if case .integer(let count)? = row.last { return "\(shown) in \(count) rows" }
                return shown
            }
            if rows.count > 5 { duplicates.append("…") }
            problems.append("\(group.label): stored rows violate the new unique constraint: " + duplicates.joined(separator: ", "))
        }
        if !problems.isEmpty { throw ModelStoreError.incompatibleSchema(problems) }
        for group in plan.addedUniques {
            try connection.execute(StoreDDL.createIndex(table: group.table, columns: group.columns, unique: true, dialect))
        }
    }

    /// A stored value as a message shows it.
    private static func describe(_ value: SQLValue) -> String {
        switch value {
        case .null: return "nil"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return "\"" + text + "\""
        case .blob(let data):
            if let uuid = UUID(sqlValue: value) { return uuid.uuidString }
            return "0x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }

    // MARK: Reference check

    /// References to missing rows, as the dialect's check reports them (empty when it has none).
    ///
    /// - Throws: the store's error.
    func brokenReferences() throws -> [String] {
        guard let query = dialect.foreignKeyCheckQuery else { return [] }
        return try connection.rows(query).prefix(10).map { row in
            let parts = row.prefix(3).map { value -> String in
                switch value {
                case .text(let text): return text
                case .integer(let number): return String(number)
                default: return "?"
                }
            }
            guard parts.count == 3 else { return parts.joined(separator: " ") }
            return "\(parts[0]) row \(parts[1]) references a missing \(parts[2]) row"
        }
    }
}
