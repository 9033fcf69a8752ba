import Foundation

/// Opens a store for a schema: creates it, checks its fingerprint, migrates additive changes
/// (new entities, new optional or defaulted properties, renamed properties, index changes) and
/// refuses anything else with an error naming every difference.
enum StoreMigrator {
    static func prepare(_ connection: Connection, for schema: Schema) throws {
        try connection.transaction {
            for sql in StoreDDL.internalTables { try connection.execute(sql) }
            let rows = try connection.rows("SELECT value FROM \(SQLQuote.identifier(StorageNames.metadataTable)) WHERE key = 'schema'")
            var stored: StoredSchema?
            if case .text(let json)? = rows.first?.first {
                stored = try? JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8))
                if stored == nil { throw ModelStoreError.incompatibleSchema(["the stored schema description cannot be read"]) }
            }
            let merged: StoredSchema
            if let stored {
                guard stored != schema.storage else { return }
                let plan = plan(from: stored, to: schema.storage)
                if !plan.incompatibilities.isEmpty { throw ModelStoreError.incompatibleSchema(plan.incompatibilities) }
                for sql in plan.statements { try connection.execute(sql) }
                merged = plan.result
            } else {
                for table in schema.storage.tables {
                    for sql in StoreDDL.create(table) { try connection.execute(sql) }
                }
                merged = schema.storage
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = String(decoding: try encoder.encode(merged), as: UTF8.self)
            try connection.run("INSERT OR REPLACE INTO \(SQLQuote.identifier(StorageNames.metadataTable)) (key, value) VALUES ('schema', ?)", [.text(json)])
        }
    }

    struct Plan {
        var statements: [String] = []
        var incompatibilities: [String] = []
        var result = StoredSchema()
    }

    /// What it takes to go from `stored` to `current`.
    static func plan(from stored: StoredSchema, to current: StoredSchema) -> Plan {
        var plan = Plan()
        var storedTables = Dictionary(stored.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for table in current.tables {
            guard let old = storedTables.removeValue(forKey: table.name) else {
                plan.statements += StoreDDL.create(table)
                plan.result.tables.append(table)
                continue
            }
            compare(old, table, into: &plan)
            plan.result.tables.append(table)
        }
        // Tables of entities this schema does not list stay as they are.
        plan.result.tables += stored.tables.filter { storedTables[$0.name] != nil }
        return plan
    }

    private static func compare(_ old: StoredTable, _ new: StoredTable, into plan: inout Plan) {
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
            plan.statements.append("ALTER TABLE \(table) ADD COLUMN \(StoreDDL.columnDefinition(column))")
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
