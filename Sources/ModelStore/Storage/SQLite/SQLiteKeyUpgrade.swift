import Foundation

/// The in-place upgrade of a SQLite store written before its row keys were `AUTOINCREMENT`
/// (docs/Migrations.md, "Row keys are never reused"): each entity table whose key is a plain
/// `INTEGER PRIMARY KEY` is rebuilt with `AUTOINCREMENT` (same rows, same keys, same indexes), and
/// its high-water mark in `sqlite_sequence` is the largest key it holds or, when larger, the
/// largest key history recorded for its entities (a row deleted before the upgrade). Runs inside
/// the opening migration's transaction, foreign keys off: all or nothing.
enum SQLiteKeyUpgrade {
    /// The entity tables of `tables` whose key the store does not declare `AUTOINCREMENT` (none
    /// on another store than SQLite's).
    static func tablesToUpgrade(_ tables: [StoredTable], on connection: any StoreConnection) throws -> [StoredTable] {
        guard connection.dialect is SQLiteDialect else { return [] }
        let entityTables = tables.filter { !$0.isJoinTable }
        guard !entityTables.isEmpty else { return [] }
        var definitions: [String: String] = [:]
        for row in try connection.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table'") {
            if case .text(let name) = row[0], case .text(let sql) = row[1] { definitions[name] = sql }
        }
        return entityTables.filter { table in
            guard let sql = definitions[table.name] else { return false }
            return !sql.uppercased().contains("AUTOINCREMENT")
        }
    }

    /// Rebuilds `tables` with `AUTOINCREMENT` keys and sets their high-water marks.
    static func upgrade(_ tables: [StoredTable], on connection: any StoreConnection) throws {
        let dialect = connection.dialect
        let historyExists = !(try connection.rows(dialect.tableExistsQuery, [.text(HistoryTables.changes)])).isEmpty
        for table in tables {
            let temporary = SchemaChangeExecutor.temporaryPrefix + table.name
            let columns = ([StorageNames.primaryKey, StorageNames.type] + table.columns.map(\.name)).map(SQLQuote.identifier).joined(separator: ", ")
            try connection.execute(StoreDDL.createTable(table, named: temporary, dialect))
            try connection.execute("INSERT INTO \(SQLQuote.identifier(temporary)) (\(columns)) SELECT \(columns) FROM \(SQLQuote.identifier(table.name))")
            try connection.execute(dialect.dropTable(table.name))
            try connection.execute("ALTER TABLE \(SQLQuote.identifier(temporary)) RENAME TO \(SQLQuote.identifier(table.name))")
            for sql in StoreDDL.indexes(of: table, uniques: table.uniques, dialect) { try connection.execute(sql) }
            guard historyExists, !table.entities.isEmpty else { continue }
            let names = table.entities.map { _ in "?" }.joined(separator: ", ")
            let recorded = try connection.rows("SELECT max(\"row\") FROM \(SQLQuote.identifier(HistoryTables.changes)) WHERE entity IN (\(names))",
                                               table.entities.map(SQLValue.text))
            guard case .integer(let highest)? = recorded.first?.first else { continue }
            try connection.run("DELETE FROM sqlite_sequence WHERE name = ? AND seq < ?", [.text(table.name), .integer(highest)])
            try connection.run("INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)",
                               [.text(table.name), .integer(highest), .text(table.name)])
        }
    }
}
