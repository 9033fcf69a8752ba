/// The statements that migrate one entity table in place on PostgreSQL, whose `ALTER TABLE` can
/// make every change a `TableMigration` describes: rows never move, keys and the identity column
/// stay, and a large table is rewritten only where a column's type changes.
///
/// Order: constraints that change are dropped (by their names, see `PostgresDialect.constraintName`)
/// and indexes that go are dropped or renamed; removed columns dropped; renamed columns renamed
/// (through temporary names when a new name is an old one's); added columns added (filled with their
/// source value; a `.valueWherePresent` one by an `UPDATE` among the fills); types changed; NULLs of optional → required columns set to the default; `NOT NULL`
/// and defaults set; constraints added; new plain indexes created. (New unique groups are the
/// migrator's: it checks the rows for duplicates first.)
enum PostgresInPlaceMigration {
    static func statements(for migration: TableMigration, dialect: PostgresDialect) -> [String]? {
        let old = migration.old
        let new = migration.new
        guard !old.isJoinTable, !new.isJoinTable else { return nil }
        let alter = "ALTER TABLE \(SQLQuote.identifier(new.name)) "
        func quoted(_ name: String) -> String { SQLQuote.identifier(name) }
        func constraint(_ column: String, _ kind: ConstraintKind) -> String {
            quoted(dialect.constraintName(column: column, kind: kind) ?? column)
        }

        var dropConstraints: [String] = []
        var renameConstraints: [String] = []
        var renames: [(from: String, to: String)] = []
        var additions: [String] = []
        var typeChanges: [String] = []
        var fills: [String] = []
        var nullability: [String] = []
        var defaults: [String] = []
        var addConstraints: [String] = []
        var newNameOfOld: [String: String] = [:]

        func addChecks(of column: StoredColumn) {
            if let check = StoreDDL.requiredCheck(column) {
                addConstraints.append(alter + "ADD CONSTRAINT \(constraint(column.name, .check)) \(check)")
            }
            if let table = column.references {
                addConstraints.append(StoreDDL.addForeignKey(table: new.name, column: column.name, clause: StoreDDL.keyReference(table), dialect))
            }
        }
        func setDefault(_ column: StoredColumn) -> String {
            let name = quoted(column.name)
            guard let literal = column.defaultLiteral else { return alter + "ALTER COLUMN \(name) DROP DEFAULT" }
            return alter + "ALTER COLUMN \(name) SET DEFAULT \(dialect.literal(stored: literal, storage: column.effectiveStorage))"
        }

        for (column, source) in zip(new.columns, migration.sources) {
            let name = quoted(column.name)
            let type = dialect.columnType(column.effectiveStorage)
            let isNotNull = column.isRequired && column.requiredFor == nil
            switch source {
            case .column(let oldName), .coalesce(let oldName, _):
                guard let previous = old.column(named: oldName), newNameOfOld[oldName] == nil else { return nil }
                newNameOfOld[oldName] = column.name
                if oldName != column.name { renames.append((oldName, column.name)) }
                if dialect.columnType(previous.effectiveStorage) != type {
                    typeChanges.append(alter + "ALTER COLUMN \(name) TYPE \(type) USING CAST(\(name) AS \(type))")
                }
                if case .coalesce(_, let literal) = source {
                    fills.append("UPDATE \(quoted(new.name)) SET \(name) = \(dialect.literal(stored: literal, storage: column.effectiveStorage)) WHERE \(name) IS NULL")
                }
                let wasNotNull = previous.isRequired && previous.requiredFor == nil
                if wasNotNull != isNotNull { nullability.append(alter + "ALTER COLUMN \(name) \(isNotNull ? "SET" : "DROP") NOT NULL") }
                if previous.defaultLiteral != column.defaultLiteral { defaults.append(setDefault(column)) }
                // A CHECK names the column and its subclass: kept when both stay (renamed with the
                // column), else replaced. A foreign key follows its table through renames: it
                // changes only when it comes or goes.
                var renamedPrevious = previous
                renamedPrevious.name = column.name
                let oldCheck = StoreDDL.requiredCheck(previous)
                let newCheck = StoreDDL.requiredCheck(column)
                if oldCheck != nil && StoreDDL.requiredCheck(renamedPrevious) == newCheck {
                    if oldName != column.name {
                        renameConstraints.append(alter + "RENAME CONSTRAINT \(constraint(oldName, .check)) TO \(constraint(column.name, .check))")
                    }
                } else {
                    if oldCheck != nil { dropConstraints.append(alter + "DROP CONSTRAINT IF EXISTS \(constraint(oldName, .check))") }
                    if let check = newCheck { addConstraints.append(alter + "ADD CONSTRAINT \(constraint(column.name, .check)) \(check)") }
                }
                switch (previous.references, column.references) {
                case (nil, nil):
                    break
                case (_?, _?):
                    if oldName != column.name {
                        renameConstraints.append(alter + "RENAME CONSTRAINT \(constraint(oldName, .foreignKey)) TO \(constraint(column.name, .foreignKey))")
                    }
                case (_?, nil):
                    dropConstraints.append(alter + "DROP CONSTRAINT IF EXISTS \(constraint(oldName, .foreignKey))")
                case (nil, let table?):
                    addConstraints.append(StoreDDL.addForeignKey(table: new.name, column: column.name, clause: StoreDDL.keyReference(table), dialect))
                }
            case .value(let literal):
                // The column comes with the source value (a constant default fills existing rows
                // without rewriting the table), then takes its own default.
                var definition = "\(name) \(type)"
                if literal != "NULL" { definition += " DEFAULT \(dialect.literal(stored: literal, storage: column.effectiveStorage))" }
                additions.append(alter + "ADD COLUMN \(definition)")
                if column.defaultLiteral != (literal == "NULL" ? nil : literal) { defaults.append(setDefault(column)) }
                if isNotNull { nullability.append(alter + "ALTER COLUMN \(name) SET NOT NULL") }
                addChecks(of: column)
            case .valueWherePresent(let literal, let presence):
                // A nullable column without a default, added empty, then set in the rows whose
                // structs are present (the presence columns have their new names and values by
                // the time the fills run).
                additions.append(alter + "ADD COLUMN \(name) \(type)")
                let present = presence.map { "\(quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
                fills.append("UPDATE \(quoted(new.name)) SET \(name) = \(dialect.literal(stored: literal, storage: column.effectiveStorage)) WHERE \(present)")
            }
        }

        // Indexes: those over kept columns stay (renamed when their table or columns were); the
        // others go. Unique groups the migrator creates are not made here.
        var dropIndexes: [String] = []
        var renameIndexes: [String] = []
        var createIndexes: [String] = []
        func renamed(_ group: [String]) -> [String]? {
            let names = group.compactMap { newNameOfOld[$0] }
            return names.count == group.count ? names : nil
        }
        func keep(_ group: [String], as wanted: [String], unique: Bool) {
            let from = StoreDDL.indexName(table: old.name, columns: group, unique: unique, dialect)
            let to = StoreDDL.indexName(table: new.name, columns: wanted, unique: unique, dialect)
            if from != to { renameIndexes.append("ALTER INDEX IF EXISTS \(quoted(from)) RENAME TO \(quoted(to))") }
        }
        var keptIndexes: Set<[String]> = []
        for group in old.indexes {
            if let wanted = renamed(group), new.indexes.contains(wanted), !keptIndexes.contains(wanted) {
                keptIndexes.insert(wanted)
                keep(group, as: wanted, unique: false)
            } else {
                dropIndexes.append(StoreDDL.dropIndex(table: old.name, columns: group, unique: false, dialect))
            }
        }
        for group in new.indexes where !keptIndexes.contains(group) {
            createIndexes.append(StoreDDL.createIndex(table: new.name, columns: group, unique: false, dialect))
        }
        for group in old.uniques {
            if let wanted = renamed(group), migration.keptUniques.contains(wanted) {
                keep(group, as: wanted, unique: true)
            } else {
                dropIndexes.append(StoreDDL.dropIndex(table: old.name, columns: group, unique: true, dialect))
            }
        }

        let drops = migration.droppedColumns.map { alter + "DROP COLUMN IF EXISTS \(quoted($0))" }
        // Renames through temporary names when a new name is taken by an old column still there.
        let remaining = Set(old.columns.map(\.name)).subtracting(migration.droppedColumns)
        var renameStatements: [String] = []
        if renames.contains(where: { remaining.contains($0.to) }) {
            for (index, rename) in renames.enumerated() {
                renameStatements.append(alter + "RENAME COLUMN \(quoted(rename.from)) TO \(quoted("$renaming:\(index)"))")
            }
            for (index, rename) in renames.enumerated() {
                renameStatements.append(alter + "RENAME COLUMN \(quoted("$renaming:\(index)")) TO \(quoted(rename.to))")
            }
        } else {
            renameStatements = renames.map { alter + "RENAME COLUMN \(quoted($0.from)) TO \(quoted($0.to))" }
        }
        return dropConstraints + dropIndexes + renameIndexes + drops + renameConstraints + renameStatements + additions
            + typeChanges + fills + nullability + defaults + addConstraints + createIndexes
    }
}
