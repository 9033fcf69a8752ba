import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Helpers of the migration tests: write a store under one schema, look at what a file holds.
extension TemporaryStore {
    /// Opens the store with `schema` (and `plan`), runs `body` in a new context, saves, and closes
    /// everything (so the file holds all of it, with no write-ahead log left).
    func write(_ schema: Schema, plan: (any SchemaMigrationPlan.Type)? = nil, _ body: (ModelContext) throws -> Void) throws {
        let container = try ModelContainer(for: schema, migrationPlan: plan, configurations: configuration)
        let context = ModelContext(container)
        try body(context)
        try context.save()
    }

    /// The bytes of the store file (compared before and after a failed open).
    func fileBytes() throws -> Data {
        try Data(contentsOf: url)
    }

    /// Whether a write-ahead log with content is beside the file.
    var hasWriteAheadLog: Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")
        return ((attributes?[.size] as? NSNumber)?.intValue ?? 0) > 0
    }

    /// The names of the tables and indexes in the file.
    func objectNames(type: String) throws -> Set<String> {
        Set(try rawConnection().rows("SELECT name FROM sqlite_master WHERE type = ?", [.text(type)]).compactMap {
            if case .text(let name) = $0.first { return name }
            return nil
        })
    }

    /// The `CREATE` statement of a table.
    func tableSQL(_ table: String) throws -> String {
        guard case .text(let sql)? = try rawConnection().rows("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]).first?.first else {
            return ""
        }
        return sql
    }

    /// The description the store records.
    func storedSchema() throws -> StoredSchema? {
        try StoreMigrator.storedDescription(rawConnection())
    }

    /// References to missing rows and the integrity check's answer.
    func health() throws -> (foreignKeys: [[SQLValue]], integrity: [String]) {
        let connection = try rawConnection()
        return (try connection.rows("PRAGMA foreign_key_check"), try StoreDump.integrity(connection))
    }

    /// Replaces the recorded description with `json` (simulating a store written by another runtime).
    func replaceStoredSchema(json: String) throws {
        try rawConnection().run("UPDATE \"$metadata\" SET value = ? WHERE key = 'schema'", [.text(json)])
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
