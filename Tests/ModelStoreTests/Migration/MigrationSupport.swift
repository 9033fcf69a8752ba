import Foundation
import Testing
@testable import ModelStore

/// Helpers of the migration tests: write a store under one schema, look at what it holds (on
/// every kind of store: SQLite's file and catalog, or PostgreSQL's database and catalog).
extension TestStore {
    /// Opens the store with `schema` (and `plan`), runs `body` in a new context, saves, and closes
    /// everything (so a file holds all of it, with no write-ahead log left).
    func write(_ schema: Schema, plan: (any SchemaMigrationPlan.Type)? = nil, _ body: (ModelContext) throws -> Void) throws {
        let container = try container(for: schema, migrationPlan: plan)
        let context = ModelContext(container)
        try body(context)
        try context.save()
    }

    /// A connection to the store made without a container (SQL in the store's dialect).
    func rawConnection() throws -> any StoreConnection {
        switch try configuration.location() {
        case .sqlite(let path, let isFile): return try SQLiteConnection(path: path, isFile: isFile)
        case .postgresql(let url): return try PostgresDriver(url: url, maximumConnections: 1).makeConnection()
        }
    }

    /// Everything the store holds, to compare before and after a failed open: the file's bytes,
    /// or (in memory, on PostgreSQL) every table's definition, indexes and rows.
    func snapshot() throws -> Data {
        if let url { return try Data(contentsOf: url) }
        var text = ""
        for table in try objectNames(type: "table").sorted() {
            text += try tableSQL(table) + "\n"
            for row in try rawConnection().rows("SELECT * FROM \(SQLQuote.identifier(table))").map({ "\($0)" }).sorted() { text += row + "\n" }
        }
        text += try objectNames(type: "index").sorted().joined(separator: "\n")
        return Data(text.utf8)
    }

    /// Whether a write-ahead log with content is beside the file (SQLite files only).
    var hasWriteAheadLog: Bool {
        guard let url else { return false }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")
        return ((attributes?[.size] as? NSNumber)?.intValue ?? 0) > 0
    }

    /// The names of the tables (`type` "table") or indexes ("index") of the store.
    func objectNames(type: String) throws -> Set<String> {
        let query: String
        switch kind {
        case .sqliteFile, .sqliteMemory:
            query = "SELECT name FROM sqlite_master WHERE type = '\(type)'"
        case .postgresql:
            query = type == "table"
                ? "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()"
                : "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()"
        }
        return Set(try rawConnection().rows(query).compactMap {
            if case .text(let name) = $0.first { return name }
            return nil
        })
    }

    /// The `CREATE` statement of a table: SQLite's own; on PostgreSQL one written from the catalog
    /// (columns with their types, `NOT NULL` and defaults, then every constraint).
    func tableSQL(_ table: String) throws -> String {
        let raw = try rawConnection()
        switch kind {
        case .sqliteFile, .sqliteMemory:
            guard case .text(let sql)? = try raw.rows("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]).first?.first else {
                return ""
            }
            return sql
        case .postgresql:
            let columns = try raw.rows("""
                SELECT '"' || replace(a.attname, '"', '""') || '" ' || format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
                    || COALESCE(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
                FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                WHERE a.attrelid = to_regclass(quote_ident(?)) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
                """, [.text(table)])
            let constraints = try raw.rows("""
                SELECT 'CONSTRAINT "' || replace(conname, '"', '""') || '" ' || pg_get_constraintdef(oid) FROM pg_constraint
                WHERE conrelid = to_regclass(quote_ident(?)) ORDER BY conname
                """, [.text(table)])
            let parts = (columns + constraints).compactMap { row -> String? in
                if case .text(let text) = row.first { return text }
                return nil
            }
            return parts.isEmpty ? "" : "CREATE TABLE \(SQLQuote.identifier(table)) (\(parts.joined(separator: ", ")))"
        }
    }

    /// The description the store records.
    func storedSchema() throws -> StoredSchema? {
        try StoreMigrator.storedDescription(rawConnection())
    }

    /// References to missing rows, and the integrity check's answer: SQLite's `foreign_key_check`
    /// and `integrity_check`; on PostgreSQL the rows of each foreign key whose row is missing
    /// (none, since the server checks them; a constraint left unvalidated counts as one) and "ok".
    func health() throws -> (foreignKeys: [[SQLValue]], integrity: [String]) {
        let connection = try rawConnection()
        switch kind {
        case .sqliteFile, .sqliteMemory:
            return (try connection.rows("PRAGMA foreign_key_check"), try StoreDump.integrity(connection))
        case .postgresql:
            var broken = try connection.rows("SELECT conrelid::regclass::text, conname::text FROM pg_constraint WHERE contype = 'f' AND NOT convalidated")
            let keys = try connection.rows("""
                SELECT c.conrelid::regclass::text, a.attname::text, c.confrelid::regclass::text FROM pg_constraint c
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] WHERE c.contype = 'f'
                """)
            for key in keys {
                guard key.count == 3, case .text(let table) = key[0], case .text(let name) = key[1], case .text(let referenced) = key[2] else { continue }
                let column = SQLQuote.identifier(name)
                broken += try connection.rows("SELECT \(column) FROM \(table) WHERE \(column) IS NOT NULL AND \(column) NOT IN (SELECT \"$pk\" FROM \(referenced))")
            }
            return (broken, ["ok"])
        }
    }

    /// Replaces the recorded description with `json` (simulating a store written by another runtime).
    func replaceStoredSchema(json: String) throws {
        try rawConnection().run(#"UPDATE "$metadata" SET "value" = ? WHERE "key" = 'schema'"#, [.text(json)])
    }

    /// Every table's rows (in a fixed order), by table name.
    func dump() throws -> [String: [[SQLValue]]] {
        let raw = try rawConnection()
        var result: [String: [[SQLValue]]] = [:]
        for table in try objectNames(type: "table") where !table.hasPrefix("sqlite_") {
            result[table] = try raw.rows("SELECT * FROM \(SQLQuote.identifier(table))").sorted { "\($0)" < "\($1)" }
        }
        return result
    }
}

/// Expects `body` to throw `ModelStoreError.incompatibleSchema` and returns its messages.
func incompatibilities(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> [String] {
    do {
        try body()
        Issue.record("expected an incompatible-schema error, none was thrown", sourceLocation: sourceLocation)
    } catch ModelStoreError.incompatibleSchema(let messages) {
        return messages
    } catch {
        Issue.record("expected an incompatible-schema error, got \(error)", sourceLocation: sourceLocation)
    }
    return []
}
