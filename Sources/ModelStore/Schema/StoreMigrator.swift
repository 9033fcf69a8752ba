import Foundation

/// Opens a store for a schema: creates it, or reads the schema it records and migrates it
/// (docs/Migrations.md): through a migration plan's stages when one is given, else by inferred
/// changes only; anything else is refused with an error naming every change, the store untouched.
enum StoreMigrator {
    /// Makes the store at `connection` ready for `schema` and returns its identifier (`StoreIdentity`).
    /// An up-to-date store is only read (no
    /// write transaction, so a long writer elsewhere does not stop it from opening); otherwise the
    /// whole migration is one write transaction, with the dialect's schema-change settings around
    /// it (SQLite: foreign keys off, checked with `PRAGMA foreign_key_check` before the commit).
    ///
    /// - Throws: `ModelStoreError.incompatibleSchema` (no plan) naming every change that cannot be
    ///   inferred, or duplicated values that stop a new unique constraint; `MigrationError` (with a
    ///   plan); `ModelStoreError.invalidSchema` for inconsistent versions; the store's error when
    ///   it cannot be read or written.
    @discardableResult
    static func prepare(_ connection: any StoreConnection, for schema: Schema, plan: (any SchemaMigrationPlan.Type)? = nil,
                        readOnly: Bool = false) throws -> String? {
        // Up to date, with the history tables (a store written before history gets them), on
        // SQLite keys that are never reused (a store written before gets them: SQLiteKeyUpgrade),
        // and a store identifier (a store written before gets one: StoreIdentity; not a read-only one).
        let described = try storedDescription(connection)
        let identifier = try StoreIdentity.recorded(connection)
        guard try MigrationPath.resolve(stored: described, schema: schema, plan: plan) != nil
            || !HistoryTables.exist(connection)
            || (identifier == nil && !readOnly)
            || !SQLiteKeyUpgrade.tablesToUpgrade(described?.tables ?? [], on: connection).isEmpty else {
            return try identifier ?? StoreIdentity.historyStore(connection)
        }
        let dialect = connection.dialect
        for sql in dialect.schemaChangePrologue { try connection.execute(sql) }
        defer { for sql in dialect.schemaChangeEpilogue { try? connection.execute(sql) } }
        return try connection.transaction {
            for sql in dialect.schemaChangeLock { try connection.execute(sql) }
            for sql in StoreDDL.internalTables(dialect) { try connection.execute(sql) }
            // Again inside the write transaction: another process may have migrated the store meanwhile.
            let identifier = try StoreIdentity.ensure(connection)
            let stored = try storedDescription(connection)
            let path = try MigrationPath.resolve(stored: stored, schema: schema, plan: plan)
            if let path {
                try run(path, from: stored ?? StoredSchema(), on: connection, withPlan: plan != nil, store: identifier)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let json = String(decoding: try encoder.encode(path.target), as: UTF8.self)
                try connection.run(dialect.insertOrReplace(table: StorageNames.metadataTable, key: "key", columns: ["key", "value"]),
                                   [.text("schema"), .text(json)])
            }
            let tables = path?.target.tables ?? stored?.tables ?? []
            try SQLiteKeyUpgrade.upgrade(SQLiteKeyUpgrade.tablesToUpgrade(tables, on: connection), on: connection)
            return identifier
        }
    }

    /// Runs the steps of `path` on the store, whose schema is `stored`.
    private static func run(_ path: MigrationPath, from stored: StoredSchema, on connection: any StoreConnection, withPlan: Bool,
                            store: String) throws {
        let executor = SchemaChangeExecutor(connection: connection)
        var state = stored
        var checkReferences = false
        for step in path.steps {
            switch step {
            case .create:
                for sql in StoreDDL.create(path.target.tables, connection.dialect) { try connection.execute(sql) }
                state = path.target
            case .infer(let target, let versions):
                let plan = SchemaChangePlan(from: state, to: target, mode: .inferred)
                let problems = plan.unsupported + plan.notInferable
                if !problems.isEmpty {
                    guard withPlan else { throw ModelStoreError.incompatibleSchema(problems) }
                    throw MigrationError.notInferable(from: versions?.from, to: versions?.to, changes: problems)
                }
                if try executor.apply(plan) { checkReferences = true }
                try executor.createAddedUniques(plan)
                state = target
            case .custom(let from, let to, let willMigrate, let didMigrate):
                do {
                    try runCustomStage(from: from, to: to, state: state, willMigrate: willMigrate, didMigrate: didMigrate,
                                       connection: connection, executor: executor, store: store)
                } catch let error as MigrationError {
                    throw error
                } catch {
                    throw MigrationError.stageFailed(from: from.version, to: to.version, underlying: error)
                }
                checkReferences = true
                state = to.storage
            }
        }
        if checkReferences {
            let broken = try executor.brokenReferences()
            if !broken.isEmpty { throw MigrationError.brokenReferences(broken) }
        }
    }

    /// `willMigrate` on the old version's models, the schema change (non-inferable changes
    /// included), `didMigrate` on the new version's models, then the new unique constraints.
    private static func runCustomStage(from: MigrationPath.PlanVersion, to: MigrationPath.PlanVersion, state: StoredSchema,
                                       willMigrate: (@Sendable (ModelContext) throws -> Void)?,
                                       didMigrate: (@Sendable (ModelContext) throws -> Void)?,
                                       connection: any StoreConnection, executor: SchemaChangeExecutor, store: String) throws {
        let plan = SchemaChangePlan(from: state, to: to.storage, mode: .custom)
        if !plan.unsupported.isEmpty { throw ModelStoreError.incompatibleSchema(plan.unsupported) }
        if let willMigrate {
            try runStageClosure(willMigrate, schema: from.schema, storage: state, connection: connection, executor: executor, store: store)
        }
        try executor.apply(plan)
        if let didMigrate {
            try runStageClosure(didMigrate, schema: to.schema, storage: to.storage, connection: connection, executor: executor, store: store)
        }
        try executor.createAddedUniques(plan)
    }

    /// Runs a stage closure in a context on `schema` sharing the migration's transaction, saves
    /// what it left unsaved, and repairs references to the rows it deleted.
    private static func runStageClosure(_ closure: @Sendable (ModelContext) throws -> Void, schema: Schema, storage: StoredSchema,
                                        connection: any StoreConnection, executor: SchemaChangeExecutor, store: String) throws {
        let driver = MigrationStageDriver(connection: connection)
        let container = try ModelContainer(stageSchema: schema, driver: driver, storeIdentifier: store)
        let context = ModelContext(container)
        try closure(context)
        if context.hasChanges { try context.save() }
        if driver.deletedRows { try executor.repairReferences(in: storage, to: nil) }
    }

    /// The schema description the store records, nil for a store that has none yet.
    ///
    /// - Throws: `ModelStoreError.incompatibleSchema` when the description cannot be read; the
    ///   store's error.
    static func storedDescription(_ connection: any StoreConnection) throws -> StoredSchema? {
        let metadata = SQLQuote.identifier(StorageNames.metadataTable)
        let exists = try connection.rows(connection.dialect.tableExistsQuery, [.text(StorageNames.metadataTable)])
        guard !exists.isEmpty else { return nil }
        let rows = try connection.rows("SELECT value FROM \(metadata) WHERE key = 'schema'")
        guard case .text(let json)? = rows.first?.first else { return nil }
        guard let stored = try? JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8)) else {
            throw ModelStoreError.incompatibleSchema(["the stored schema description cannot be read"])
        }
        guard stored.format <= StoredSchema.currentFormat else {
            throw ModelStoreError.incompatibleSchema(["the stored schema description has format \(stored.format), newer than this runtime's (\(StoredSchema.currentFormat))"])
        }
        return stored
    }
}
