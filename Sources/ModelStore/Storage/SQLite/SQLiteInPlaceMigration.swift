/// The changes SQLite's `ALTER TABLE` makes in place: renamed columns (`RENAME COLUMN`), added
/// columns whose values are their default or NULL (`ADD COLUMN`), and index changes. Anything else
/// (a removed column, a changed definition, values computed from old ones or from other columns,
/// removed or renamed entities) is left to the table rebuild (nil).
enum SQLiteInPlaceMigration {
    static func statements(for migration: TableMigration, dialect: any SQLDialect) -> [String]? {
        let old = migration.old
        let new = migration.new
        guard old.name == new.name, !old.isJoinTable, migration.typeRenames.isEmpty, migration.deletedTypes.isEmpty else { return nil }
        let table = SQLQuote.identifier(new.name)
        var renames: [String] = []
        var additions: [String] = []
        var newNameOfOld: [String: String] = [:]
        let oldNames = Set(old.columns.map(\.name))
        for (column, source) in zip(new.columns, migration.sources) {
            switch source {
            case .column(let oldName):
                guard var kept = old.column(named: oldName), newNameOfOld[oldName] == nil else { return nil }
                // A rename onto the name of another old column (a swap) needs the rebuild.
                if oldName != column.name && oldNames.contains(column.name) { return nil }
                kept.name = column.name
                guard StoreDDL.columnDefinition(kept, dialect) == StoreDDL.columnDefinition(column, dialect) else { return nil }
                newNameOfOld[oldName] = column.name
                if oldName != column.name {
                    renames.append("ALTER TABLE \(table) RENAME COLUMN \(SQLQuote.identifier(oldName)) TO \(SQLQuote.identifier(column.name))")
                }
            case .value(let literal):
                // `ADD COLUMN` gives existing rows the column's default: that must be the value wanted,
                // and a NOT NULL column needs a default.
                guard literal == (column.defaultLiteral ?? "NULL"), !oldNames.contains(column.name),
                      !(column.isRequired && column.requiredFor == nil && column.defaultLiteral == nil) else { return nil }
                additions.append("ALTER TABLE \(table) ADD COLUMN \(StoreDDL.columnDefinition(column, dialect))")
            case .coalesce, .valueWherePresent:
                return nil
            }
        }
        guard newNameOfOld.count == old.columns.count else { return nil }

        // Indexes: an old index over the same (renamed) columns stays when its name stays; others
        // are dropped, and the wanted ones created.
        var indexStatements: [String] = []
        func renamed(_ group: [String]) -> [String] { group.map { newNameOfOld[$0] ?? $0 } }
        var keptIndexes: Set<[String]> = []
        for group in old.indexes {
            if renamed(group) == group && new.indexes.contains(group) {
                keptIndexes.insert(group)
            } else {
                indexStatements.append(StoreDDL.dropIndex(table: old.name, columns: group, unique: false, dialect))
            }
        }
        for group in new.indexes where !keptIndexes.contains(group) {
            indexStatements.append(StoreDDL.createIndex(table: new.name, columns: group, unique: false, dialect))
        }
        for group in old.uniques {
            let wanted = renamed(group)
            let kept = migration.keptUniques.contains(wanted)
            if kept && wanted == group { continue }
            indexStatements.append(StoreDDL.dropIndex(table: old.name, columns: group, unique: true, dialect))
            if kept { indexStatements.append(StoreDDL.createIndex(table: new.name, columns: wanted, unique: true, dialect)) }
        }
        return renames + additions + indexStatements
    }
}
