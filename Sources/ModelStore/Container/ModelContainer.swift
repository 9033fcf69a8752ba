import Foundation

/// Owns a store and its schema (SwiftData's `ModelContainer`). Sendable: share it between
/// tasks and give each task its own `ModelContext`.
public final class ModelContainer: Sendable {
    /// The entities the container stores.
    public let schema: Schema
    /// The store's configuration.
    public let configurations: [ModelConfiguration]
    /// The store: its connections, its SQL dialect and its write discipline.
    let driver: any StoreDriver
    /// The statements of each entity in the store's dialect, by `EntitySchema.index`.
    let entitySQL: [EntitySQL]
    /// Translated predicates by shape, for every context of the container (docs/Predicates.md,
    /// "Translation cache").
    let predicateCache = PredicateTranslationCache()
    /// Each entity's hierarchy members and what `materialize` needs of them, by `EntitySchema.index`.
    let memberTables: [ModelContext.MemberTables]
    /// The main actor's context, made on first use.
    private let mainContextBox = MainContextBox()

    /// The context bound to the main actor (SwiftData's `mainContext`), made on first use and
    /// kept as long as the container.
    @MainActor public var mainContext: ModelContext {
        if let context = mainContextBox.context { return context }
        let context = ModelContext(self, ownedByContainer: true)
        mainContextBox.context = context
        return context
    }

    /// The store's identifier (`StoreIdentity`), which every saved model's `PersistentIdentifier`
    /// carries; nil only for a read-only store written before stores recorded one.
    let storeIdentifier: String?

    /// The migration plan the container was opened with (SwiftData's `migrationPlan`), if any.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?

    /// A container for the given model types (and their bases and subclasses).
    ///
    /// - Throws: see `init(for:migrationPlan:configurations:)`.
    public convenience init(for types: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(types), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for `schema`.
    ///
    /// - Throws: see `init(for:migrationPlan:configurations:)`.
    public convenience init(for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: schema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for `schema` (only the first configuration is used), opening its store: the
    /// store is created when it does not exist, checked and migrated when it does (docs/Migrations.md).
    /// Without a plan, the changes from the stored schema to `schema` must all be inferred; with
    /// one, the store moves through the plan's versions from the one it holds, each stage
    /// lightweight or custom, then (when `schema` is newer than the plan's last version) by
    /// inferred changes to `schema`. The whole migration is one transaction: on any error the
    /// store is left as it was.
    ///
    /// - Throws: `ModelStoreError.invalidSchema` for inconsistent generated metadata (of `schema`
    ///   or of a version of the plan); `ModelStoreError.unsupportedStoreURL` for a URL that names
    ///   no store ModelStore has; `ModelStoreError.incompatibleSchema` (without a plan) naming
    ///   each change that cannot be inferred, or the duplicated values that stop a new unique
    ///   constraint; `MigrationError` (with a plan) for a store newer than the plan, an unknown
    ///   history, a step that cannot be inferred, a failing custom stage or an invalid plan; the
    ///   store's own error (`SQLiteError`) when it cannot be opened, read or written.
    public init(for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [ModelConfiguration]) throws {
        guard schema.problems.isEmpty else { throw ModelStoreError.invalidSchema(schema.problems.joined(separator: "; ")) }
        let configuration = configurations.first ?? ModelConfiguration()
        try configuration.checkSupported()
        self.schema = schema
        self.configurations = [configuration]
        self.migrationPlan = migrationPlan
        let driver = try ModelContainer.makeDriver(configuration)
        self.driver = driver
        entitySQL = schema.entities.map { EntitySQL(entity: $0, dialect: driver.dialect) }
        memberTables = schema.entities.map { ModelContext.MemberTables(ModelContext.hierarchyMembers(of: $0, in: schema)) }
        try driver.check(schema.storage)
        let connection = try driver.makeConnection()
        do {
            storeIdentifier = try StoreMigrator.prepare(connection, for: schema, plan: migrationPlan, readOnly: !configuration.allowsSave)
        } catch {
            // Refused or failed: the store stays byte for byte as it was, its write-ahead log too.
            connection.leaveFilesAsTheyAreOnClose()
            throw error
        }
    }

    /// A container on the store of a migration in progress, for the contexts of a custom stage:
    /// its connections are the migration's (`MigrationStageDriver`), and it does not prepare the store.
    ///
    /// - Throws: `ModelStoreError.invalidSchema` for inconsistent generated metadata.
    init(stageSchema schema: Schema, driver: MigrationStageDriver, storeIdentifier: String) throws {
        guard schema.problems.isEmpty else { throw ModelStoreError.invalidSchema(schema.problems.joined(separator: "; ")) }
        self.storeIdentifier = storeIdentifier
        self.schema = schema
        self.configurations = [ModelConfiguration(isStoredInMemoryOnly: true)]
        self.migrationPlan = nil
        self.driver = driver
        entitySQL = schema.entities.map { EntitySQL(entity: $0, dialect: driver.dialect) }
        memberTables = schema.entities.map { ModelContext.MemberTables(ModelContext.hierarchyMembers(of: $0, in: schema)) }
    }

    /// The configuration in use.
    var configuration: ModelConfiguration { configurations[0] }

    /// A new connection to the store (each context has its own).
    func makeConnection() throws -> any StoreConnection {
        try driver.makeConnection()
    }

    static func makeDriver(_ configuration: ModelConfiguration) throws -> any StoreDriver {
        let location = try configuration.location()
        // `sqlTrace`, `MODELSTORE_SQL_DEBUG` (docs/Runtime.md, "Seeing the SQL"): nil when neither asks.
        let tracer = StatementTracer.make(for: configuration)
        switch location {
        case .sqlite(let path, let isFile):
            if isFile && configuration.allowsSave {
                // The default location's folder (`ModelConfiguration.url`) may not exist yet.
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            return try SQLiteDriver(path: path, isFile: isFile, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
                                    readOnly: isFile && !configuration.allowsSave, tracer: tracer)
        case .postgresql(let url):
            return try PostgresDriver(url: url, maximumConnections: configuration.maximumConnections, readOnly: !configuration.allowsSave,
                                      readFrom: configuration.readFrom, standbyCatchUpTimeout: configuration.standbyCatchUpTimeout,
                                      tracer: tracer)
        }
    }

    /// Deletes the store (SwiftData's `erase()`): a SQLite file and its `-wal` and `-shm` files are
    /// removed; an in-memory or PostgreSQL store loses every table ModelStore made (the models',
    /// join tables, the stored schema, history). Contexts of this container must not be used after.
    ///
    /// - Throws: `ModelStoreError.readOnlyStore` for a store opened with `allowsSave: false`; the
    ///   store's error when it cannot be written; the file system's when a file cannot be removed.
    public func erase() throws {
        try checkWritable()
        let connection = try makeConnection()
        try driver.withWriteLock {
            try connection.transaction {
                for table in try storeTables(connection) {
                    try connection.execute("DROP TABLE IF EXISTS \(SQLQuote.identifier(table))\(driver.dialect.dropTableCascade)")
                }
            }
        }
        if case .sqlite(path: let path, isFile: true) = try configuration.location() {
            for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.removeItem(atPath: path + suffix)
            }
        }
    }

    /// Deletes every model of the store and its history, keeping the store and its schema
    /// (SwiftData's `deleteAllData()`), in one transaction. Models that contexts hold stay in
    /// memory: fetch again (or use a new context) to see the empty store.
    ///
    /// - Throws: `ModelStoreError.readOnlyStore` for a store opened with `allowsSave: false`; the
    ///   store's error when it cannot be written (nothing is deleted then).
    public func deleteAllData() throws {
        try checkWritable()
        let connection = try makeConnection()
        try driver.withWriteLock {
            try connection.transaction {
                let tables = try storeTables(connection).filter { $0 != StorageNames.metadataTable && $0 != HistoryTables.counter }
                for table in tables { try connection.execute("DELETE FROM \(SQLQuote.identifier(table))") }
            }
        }
    }

    /// Throws `ModelStoreError.readOnlyStore` when the configuration does not allow saves.
    func checkWritable() throws {
        guard configuration.allowsSave else { throw ModelStoreError.readOnlyStore(redactingPassword(configuration.url.absoluteString)) }
    }

    /// The tables of the store ModelStore made: the stored schema's (join tables first), its own.
    private func storeTables(_ connection: any StoreConnection) throws -> [String] {
        let stored = schema.storage.tables.map(\.name)
        let own = [HistoryTables.changes, HistoryTables.transactions, HistoryTables.counter, StorageNames.metadataTable]
        return stored.reversed() + own
    }
}

/// Holds the main context. Only read and written on the main actor.
private final class MainContextBox: @unchecked Sendable {
    @MainActor var context: ModelContext?
    nonisolated init() {}
}
