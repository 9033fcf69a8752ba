/// SQL that creates the store's tables and indexes from a `StoredSchema`, in a store's dialect.
enum StoreDDL {
    static let deferredKey = "DEFERRABLE INITIALLY DEFERRED"

    /// `CREATE TABLE` of every table, their indexes, then (for a store that adds foreign keys
    /// after its tables, `SQLDialect.inlinesForeignKeys` false) their foreign keys: tables may
    /// reference each other in cycles (one-to-one keys on both sides, a self relationship).
    static func create(_ tables: [StoredTable], _ dialect: any SQLDialect) -> [String] {
        tables.flatMap { [createTable($0, named: $0.name, dialect)] + indexes(of: $0, uniques: $0.uniques, dialect) }
            + tables.flatMap { foreignKeys(of: $0, dialect) }
    }

    /// `CREATE TABLE name (…)` for `table`'s columns, under `name` (a migration builds a table
    /// under a temporary name). Foreign keys are inline where the dialect says so, else
    /// `foreignKeys(of:_:)` adds them.
    static func createTable(_ table: StoredTable, named name: String, _ dialect: any SQLDialect) -> String {
        let quotedName = SQLQuote.identifier(name)
        let keyType = dialect.columnType(.integer)
        if table.isJoinTable {
            let source = SQLQuote.identifier(StorageNames.source)
            let target = SQLQuote.identifier(StorageNames.target)
            var sourceColumn = "\(source) \(keyType) NOT NULL"
            var targetColumn = "\(target) \(keyType) NOT NULL"
            if dialect.inlinesForeignKeys {
                sourceColumn += " " + joinReference(table.joinReferences[0])
                targetColumn += " " + joinReference(table.joinReferences[1])
            }
            return "CREATE TABLE \(quotedName) (\(sourceColumn), \(targetColumn), PRIMARY KEY (\(source), \(target)))" + dialect.keyOnlyTableSuffix
        }
        let fixed = [dialect.primaryKeyDefinition,
                     "\(SQLQuote.identifier(StorageNames.type)) \(dialect.columnType(.text)) NOT NULL"]
        let columns = fixed + table.columns.map { columnDefinition($0, dialect) }
        return "CREATE TABLE \(quotedName) (\(columns.joined(separator: ", ")))"
    }

    /// `REFERENCES … ON DELETE CASCADE …` of a join-table column.
    private static func joinReference(_ table: String) -> String {
        "REFERENCES \(SQLQuote.identifier(table))(\(SQLQuote.identifier(StorageNames.primaryKey))) ON DELETE CASCADE \(deferredKey)"
    }

    /// `REFERENCES … ON DELETE SET NULL …` of a key column.
    static func keyReference(_ table: String) -> String {
        "REFERENCES \(SQLQuote.identifier(table))(\(SQLQuote.identifier(StorageNames.primaryKey))) ON DELETE SET NULL \(deferredKey)"
    }

    /// `ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY` for each reference of `table`, for a dialect
    /// that does not write them inline (none for one that does).
    static func foreignKeys(of table: StoredTable, _ dialect: any SQLDialect) -> [String] {
        guard !dialect.inlinesForeignKeys else { return [] }
        let references: [(column: String, clause: String)]
        if table.isJoinTable {
            references = zip([StorageNames.source, StorageNames.target], table.joinReferences).map { ($0, joinReference($1)) }
        } else {
            references = table.columns.compactMap { column in column.references.map { (column.name, keyReference($0)) } }
        }
        return references.map { column, clause in
            addForeignKey(table: table.name, column: column, clause: clause, dialect)
        }
    }

    /// `ALTER TABLE table ADD CONSTRAINT name FOREIGN KEY (column) REFERENCES …`.
    static func addForeignKey(table: String, column: String, clause: String, _ dialect: any SQLDialect) -> String {
        let name = dialect.constraintName(column: column, kind: .foreignKey).map { "CONSTRAINT \(SQLQuote.identifier($0)) " } ?? ""
        return "ALTER TABLE \(SQLQuote.identifier(table)) ADD \(name)FOREIGN KEY (\(SQLQuote.identifier(column))) \(clause)"
    }

    /// `CREATE UNIQUE INDEX` for each of `uniques`, then `CREATE INDEX` for each plain index of `table`.
    static func indexes(of table: StoredTable, uniques: [[String]], _ dialect: any SQLDialect) -> [String] {
        uniques.map { createIndex(table: table.name, columns: $0, unique: true, dialect) }
            + table.indexes.map { createIndex(table: table.name, columns: $0, unique: false, dialect) }
    }

    /// A column's definition, as in `CREATE TABLE` and `ALTER TABLE … ADD COLUMN` (its foreign key
    /// only where the dialect writes them inline).
    static func columnDefinition(_ column: StoredColumn, _ dialect: any SQLDialect) -> String {
        let name = SQLQuote.identifier(column.name)
        let storage = column.effectiveStorage
        var text = "\(name) \(dialect.columnType(storage))"
        if column.isRequired && column.requiredFor == nil { text += " NOT NULL" }
        if let literal = column.defaultLiteral { text += " DEFAULT \(dialect.literal(stored: literal, storage: storage))" }
        if let check = requiredCheck(column) {
            let constraint = dialect.constraintName(column: column.name, kind: .check).map { "CONSTRAINT \(SQLQuote.identifier($0)) " } ?? ""
            text += " \(constraint)\(check)"
        }
        if dialect.inlinesForeignKeys, let table = column.references {
            text += " " + keyReference(table)
        }
        return text
    }

    /// `CHECK ("$type" <> 'Subclass' OR column IS NOT NULL)` of a required subclass attribute.
    static func requiredCheck(_ column: StoredColumn) -> String? {
        guard column.isRequired, let entity = column.requiredFor else { return nil }
        return "CHECK (\(SQLQuote.identifier(StorageNames.type)) <> \(SQLQuote.literal(entity)) OR \(SQLQuote.identifier(column.name)) IS NOT NULL)"
    }

    /// The name of an index: `Table.unique(a,b)` or `Table.index(a,b)`, as the dialect can hold it
    /// (PostgreSQL shortens names over 63 bytes, keeping them distinct).
    static func indexName(table: String, columns: [String], unique: Bool, _ dialect: any SQLDialect) -> String {
        dialect.objectName(table + (unique ? ".unique(" : ".index(") + columns.joined(separator: ",") + ")")
    }

    /// `CREATE [UNIQUE] INDEX` named by `indexName(table:columns:unique:_:)`.
    static func createIndex(table: String, columns: [String], unique: Bool, _ dialect: any SQLDialect) -> String {
        let list = columns.map(SQLQuote.identifier).joined(separator: ", ")
        let name = indexName(table: table, columns: columns, unique: unique, dialect)
        return "CREATE \(unique ? "UNIQUE " : "")INDEX \(SQLQuote.identifier(name)) ON \(SQLQuote.identifier(table)) (\(list))"
    }

    /// `DROP INDEX` of the index `indexName(table:columns:unique:_:)`.
    static func dropIndex(table: String, columns: [String], unique: Bool, _ dialect: any SQLDialect) -> String {
        "DROP INDEX IF EXISTS \(SQLQuote.identifier(indexName(table: table, columns: columns, unique: unique, dialect)))"
    }

    /// The runtime's own tables: the schema fingerprint, and persistent history (see `HistoryTables`).
    static func internalTables(_ dialect: any SQLDialect) -> [String] {
        let text = dialect.columnType(.text)
        return ["CREATE TABLE IF NOT EXISTS \(SQLQuote.identifier(StorageNames.metadataTable)) (key \(text) PRIMARY KEY, value \(text) NOT NULL)"]
            + HistoryTables.createStatements(dialect)
    }
}

extension StorageType {
    /// The storage type of a column described only by its SQLite affinity.
    init(affinity: SQLColumnType) {
        switch affinity {
        case .integer: self = .integer
        case .real: self = .real
        case .text: self = .text
        case .blob: self = .blob
        }
    }
}
