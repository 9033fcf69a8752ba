/// SQL that creates the store's tables and indexes from a `StoredSchema`, in a store's dialect.
enum StoreDDL {
    static let deferredKey = "DEFERRABLE INITIALLY DEFERRED"

    /// `CREATE TABLE` and its indexes.
    static func create(_ table: StoredTable, _ dialect: any SQLDialect) -> [String] {
        [createTable(table, named: table.name, dialect)] + indexes(of: table, uniques: table.uniques)
    }

    /// `CREATE TABLE name (…)` for `table`'s columns, under `name` (a migration builds a table
    /// under a temporary name).
    static func createTable(_ table: StoredTable, named name: String, _ dialect: any SQLDialect) -> String {
        let quotedName = SQLQuote.identifier(name)
        let pk = SQLQuote.identifier(StorageNames.primaryKey)
        let keyType = dialect.columnType(.integer)
        if table.isJoinTable {
            let source = SQLQuote.identifier(StorageNames.source)
            let target = SQLQuote.identifier(StorageNames.target)
            let references = table.joinReferences.map { SQLQuote.identifier($0) }
            return "CREATE TABLE \(quotedName) (\(source) \(keyType) NOT NULL REFERENCES \(references[0])(\(pk)) ON DELETE CASCADE \(deferredKey), "
                + "\(target) \(keyType) NOT NULL REFERENCES \(references[1])(\(pk)) ON DELETE CASCADE \(deferredKey), "
                + "PRIMARY KEY (\(source), \(target)))" + dialect.keyOnlyTableSuffix
        }
        let fixed = [dialect.primaryKeyDefinition,
                     "\(SQLQuote.identifier(StorageNames.type)) \(dialect.columnType(.text)) NOT NULL"]
        let columns = fixed + table.columns.map { columnDefinition($0, dialect) }
        return "CREATE TABLE \(quotedName) (\(columns.joined(separator: ", ")))"
    }

    /// `CREATE UNIQUE INDEX` for each of `uniques`, then `CREATE INDEX` for each plain index of `table`.
    static func indexes(of table: StoredTable, uniques: [[String]]) -> [String] {
        uniques.map { createIndex(table: table.name, columns: $0, unique: true) }
            + table.indexes.map { createIndex(table: table.name, columns: $0, unique: false) }
    }

    /// A column's definition, as in `CREATE TABLE` and `ALTER TABLE … ADD COLUMN`.
    static func columnDefinition(_ column: StoredColumn, _ dialect: any SQLDialect) -> String {
        let name = SQLQuote.identifier(column.name)
        let storage = column.storage ?? SQLColumnType(rawValue: column.type).map(StorageType.init(affinity:)) ?? .blob
        var text = "\(name) \(dialect.columnType(storage))"
        if column.isRequired && column.requiredFor == nil { text += " NOT NULL" }
        if let literal = column.defaultLiteral { text += " DEFAULT \(literal)" }
        if column.isRequired, let entity = column.requiredFor {
            text += " CHECK (\(SQLQuote.identifier(StorageNames.type)) <> \(SQLQuote.literal(entity)) OR \(name) IS NOT NULL)"
        }
        if let table = column.references {
            text += " REFERENCES \(SQLQuote.identifier(table))(\(SQLQuote.identifier(StorageNames.primaryKey))) ON DELETE SET NULL \(deferredKey)"
        }
        return text
    }

    /// The name of an index: `Table.unique(a,b)` or `Table.index(a,b)`.
    static func indexName(table: String, columns: [String], unique: Bool) -> String {
        table + (unique ? ".unique(" : ".index(") + columns.joined(separator: ",") + ")"
    }

    /// `CREATE [UNIQUE] INDEX` named by `indexName(table:columns:unique:)`.
    static func createIndex(table: String, columns: [String], unique: Bool) -> String {
        let list = columns.map(SQLQuote.identifier).joined(separator: ", ")
        return "CREATE \(unique ? "UNIQUE " : "")INDEX \(SQLQuote.identifier(indexName(table: table, columns: columns, unique: unique))) ON \(SQLQuote.identifier(table)) (\(list))"
    }

    /// `DROP INDEX` of the index `indexName(table:columns:unique:)`.
    static func dropIndex(table: String, columns: [String], unique: Bool) -> String {
        "DROP INDEX IF EXISTS \(SQLQuote.identifier(indexName(table: table, columns: columns, unique: unique)))"
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
