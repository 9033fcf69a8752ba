import Foundation

/// Opens a store for a schema: creates it, checks its fingerprint, migrates additive changes
/// (new entities, new optional or defaulted properties, renamed properties, index changes) and
/// refuses anything else with an error naming every difference.
enum StoreMigrator {
    /// Makes the store at `connection` ready for `schema`: creates it, or checks and migrates it.
    /// An up-to-date store is only read (no write transaction, so a long writer elsewhere does not
    /// stop it from opening).
    ///
    /// - Throws: `ModelStoreError.incompatibleSchema` naming every difference that cannot migrate;
    ///   the store's error when it cannot be read or written.
    static func prepare(_ connection: any StoreConnection, for schema: Schema) throws {
        if try storedDescription(connection) == schema.storage, try HistoryTables.exist(connection) { return }
        let dialect = connection.dialect
        try connection.transaction {
            for sql in StoreDDL.internalTables(dialect) { try connection.execute(sql) }
            // Read again inside the write transaction: another process may have prepared the store meanwhile.
            let stored = try storedDescription(connection)
            let merged: StoredSchema
            if let stored {
                guard stored != schema.storage else { return }
                let plan = plan(from: stored, to: schema.storage, dialect)
                if !plan.incompatibilities.isEmpty { throw ModelStoreError.incompatibleSchema(plan.incompatibilities) }
                for sql in plan.statements { try connection.execute(sql) }
                merged = plan.result
            } else {
                for table in schema.storage.tables {
                    for sql in StoreDDL.create(table, dialect) { try connection.execute(sql) }
                }
                merged = schema.storage
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = String(decoding: try encoder.encode(merged), as: UTF8.self)
            try connection.run(dialect.insertOrReplace(table: StorageNames.metadataTable, key: "key", columns: ["key", "value"]),
                               [.text("schema"), .text(json)])
        }
    }

    /// The schema description the store records, nil for a store that has none yet.
    private static func storedDescription(_ connection: any StoreConnection) throws -> StoredSchema? {
        let metadata = SQLQuote.identifier(StorageNames.metadataTable)
        let exists = try connection.rows(connection.dialect.tableExistsQuery, [.text(StorageNames.metadataTable)])
        guard !exists.isEmpty else { return nil }
        let rows = try connection.rows("SELECT value FROM \(metadata) WHERE key = 'schema'")
        guard case .text(let json)? = rows.first?.first else { return nil }
        guard let stored = try? JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8)) else {
            throw ModelStoreError.incompatibleSchema(["the stored schema description cannot be read"])
        }
        return stored
    }

    struct Plan {
        var statements: [String] = []
        var incompatibilities: [String] = []
        var result = StoredSchema()
    }

    /// What it takes to go from `stored` to `current`.
    static func plan(from stored: StoredSchema, to current: StoredSchema, _ dialect: any SQLDialect) -> Plan {
        var plan = Plan()
        var storedTables = Dictionary(stored.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for table in current.tables {
            guard let old = storedTables.removeValue(forKey: table.name) else {
                plan.statements += StoreDDL.create(table, dialect)
                plan.result.tables.append(table)
                continue
            }
            compare(old, table, dialect, into: &plan)
            plan.result.tables.append(table)
        }
        // Tables of entities this schema does not list stay as they are.
        plan.result.tables += stored.tables.filter { storedTables[$0.name] != nil }
        return plan
    }

    private static func compare(_ old: StoredTable, _ new: StoredTable, _ dialect: any SQLDialect, into plan: inout Plan) {
        let table = SQLQuote.identifier(new.name)
        if old.isJoinTable != new.isJoinTable || old.joinReferences != new.joinReferences {
            plan.incompatibilities.append("table \(new.name): relationship storage changed")
            return
        }
        let oldColumns = Dictionary(old.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var newNames = Set(new.columns.map(\.name))
        for column in new.columns {
            var existing = oldColumns[column.name]
            if existing == nil, let previousName = column.previousName, let renamed = oldColumns[previousName], !newNames.contains(previousName) {
                plan.statements.append("ALTER TABLE \(table) RENAME COLUMN \(SQLQuote.identifier(previousName)) TO \(SQLQuote.identifier(column.name))")
                newNames.insert(previousName)
                existing = renamed
            }
            if let previous = existing {
                var differences: [String] = []
                if previous.type != column.type { differences.append("type \(previous.type) → \(column.type)") }
                if previous.isRequired != column.isRequired || previous.requiredFor != column.requiredFor {
                    differences.append(column.isRequired ? "optional → required" : "required → optional")
                }
                if previous.references != column.references { differences.append("relationship target or delete rule changed") }
                if !differences.isEmpty {
                    plan.incompatibilities.append("\(new.name).\(column.name): " + differences.joined(separator: ", "))
                }
                continue
            }
            let isForNewEntity = column.requiredFor.map { !old.entities.contains($0) } ?? false
            if column.isRequired && column.defaultLiteral == nil && !isForNewEntity {
                plan.incompatibilities.append("\(new.name).\(column.name): new required property without a default value")
                continue
            }
            plan.statements.append("ALTER TABLE \(table) ADD COLUMN \(StoreDDL.columnDefinition(column, dialect))")
        }
        for column in old.columns where !newNames.contains(column.name) {
            plan.incompatibilities.append("\(new.name).\(column.name): property removed")
        }
        if Set(old.uniques) != Set(new.uniques) {
            plan.incompatibilities.append("\(new.name): unique constraints changed")
        }
        for index in new.indexes where !old.indexes.contains(index) {
            plan.statements.append(StoreDDL.createIndex(table: new.name, columns: index, unique: false))
        }
        for index in old.indexes where !new.indexes.contains(index) {
            plan.statements.append("DROP INDEX IF EXISTS \(SQLQuote.identifier(StoreDDL.indexName(table: new.name, columns: index, unique: false)))")
        }
    }
}
