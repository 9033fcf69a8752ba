import Foundation
internal import SchemaEvolution

/// SQLite's spelling of the runtime's SQL (SQLite 3.35 or later: upserts with `RETURNING`).
struct SQLiteDialect: SQLDialect {
    var name: String { "SQLite" }

    /// SchemaEvolution's table of storage classes: SQLite's affinities (`INTEGER`, `REAL`, `TEXT`, `BLOB`).
    func columnType(_ type: StorageType) -> String { type.storageClass.sqliteColumnType }

    /// `INTEGER PRIMARY KEY` is the rowid; `AUTOINCREMENT` makes SQLite assign one more than the
    /// largest key the table ever held (kept in `sqlite_sequence`), so the key of a deleted row is
    /// never given again and a kept `PersistentIdentifier` never finds another row (#26, item 3).
    func generatedKeyDefinition(_ name: String) -> String { "\(SQLQuote.identifier(name)) INTEGER PRIMARY KEY AUTOINCREMENT" }

    var anyValueColumnType: String { "" }

    var keyOnlyTableSuffix: String { " WITHOUT ROWID" }

    func literal(_ value: SQLValue) -> String { SQLQuote.literal(value) }

    func literal(stored literal: String, storage: StorageType) -> String { literal }

    var inlinesForeignKeys: Bool { true }

    func constraintName(column: String, kind: ConstraintKind) -> String? { nil }

    func objectName(_ name: String) -> String { name }

    var tableExistsQuery: String { "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?" }

    var beginWriteTransaction: String { "BEGIN IMMEDIATE" }
    var dropTableCascade: String { "" }

    var insertsReturnKey: Bool { false }

    var noLimit: SQLValue { .integer(-1) }

    /// SQLite lets the last `ON CONFLICT` clause name no columns: it then covers every unique
    /// constraint of the table.
    func upsertClause(uniqueGroups: [[String]], assignments: String) -> String? {
        " ON CONFLICT DO UPDATE SET \(assignments)"
    }

    /// Foreign keys off during a migration: SQLite cannot change the setting inside a transaction,
    /// and with it on, dropping the old copy of a rebuilt table would run `ON DELETE SET NULL` on
    /// every row referencing it.
    var schemaChangePrologue: [String] { ["PRAGMA foreign_keys = OFF"] }

    var schemaChangeEpilogue: [String] { ["PRAGMA foreign_keys = ON"] }

    /// `BEGIN IMMEDIATE` takes the write lock: nothing more is needed.
    var schemaChangeLock: [String] { [] }

    func dropTable(_ name: String) -> String { "DROP TABLE IF EXISTS \(SQLQuote.identifier(name))" }

    /// SQLite rebuilds the table of a renamed entity (its `ALTER TABLE` cannot change the rest).
    var renamesTablesInPlace: Bool { false }

    var foreignKeyCheckQuery: String? { "PRAGMA foreign_key_check" }

    func inPlaceMigration(_ migration: TableMigration) -> [String]? {
        SQLiteInPlaceMigration.statements(for: migration, dialect: self)
    }
}

/// A SQLite store (a file, or a shared in-memory database) opened for one container.
final class SQLiteDriver: StoreDriver, @unchecked Sendable {
    let dialect: any SQLDialect = SQLiteDialect()
    /// The path given to `sqlite3_open_v2`.
    private let path: String
    private let isFile: Bool
    private let busyTimeoutMilliseconds: Int32
    /// Whether connections open the file read-only (`allowsSave: false`).
    private let readOnly: Bool
    /// Where the connections report their statements (nil: no tracing).
    private let tracer: StatementTracer?
    /// Keeps an in-memory database alive while the container lives. Never used after creation
    /// (only closed when the driver goes away), so sharing the driver is safe.
    private var keeper: SQLiteConnection?
    /// Serializes the saves of this container's contexts: SQLite has one writer at a time, and
    /// writers polling its busy handler can starve past the busy timeout ("database is locked").
    private let writeLock = NSLock()
    /// The thread inside `withWriteLock` (guarded by `holderLock`).
    private var holder: pthread_t?
    private let holderLock = NSLock()
    /// Connections of contexts that ended, idle, for the next contexts (`keepForReuse`; guarded by
    /// `idleLock`): a new context then opens no connection and prepares no statement its
    /// connection already holds (opening one was about 0.5 M instructions: docs/Runtime.md,
    /// "Connections"). At most `idleLimit`; closed with the driver.
    private var idle: [SQLiteConnection] = []
    private let idleLock = NSLock()
    private static let idleLimit = 4

    /// A driver for `path` (a file path, or a `file:` URI of the memdb VFS when `isFile` is false).
    ///
    /// - Throws: `ModelStoreError.notAModelStore` for a file that is neither empty nor a ModelStore
    ///   store (checked before anything is written to it); `SQLiteError` when it cannot be opened.
    init(path: String, isFile: Bool, busyTimeoutMilliseconds: Int32, readOnly: Bool = false, tracer: StatementTracer? = nil) throws {
        self.tracer = tracer
        self.path = path
        self.isFile = isFile
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.readOnly = readOnly
        if isFile { try SQLiteStoreFile.checkEmptyOrModelStore(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds) }
        if !isFile { keeper = try open() }
    }

    func makeConnection() throws -> any StoreConnection {
        if let connection = idleLock.withLock({ idle.popLast() }) { return connection }
        return try open()
    }

    func keepForReuse(_ connection: inout (any StoreConnection)?) {
        guard var kept = connection as? SQLiteConnection else {
            connection = nil
            return
        }
        connection = nil
        // Only a connection no one else holds, outside any transaction, with no statement
        // mid-result (whose read would pin an old snapshot) and no test hook.
        guard isKnownUniquelyReferenced(&kept), kept.isIdle else { return }
        idleLock.withLock {
            if idle.count < Self.idleLimit { idle.append(kept) }
        }
    }

    func withWriteLock<T>(_ body: () throws -> T) rethrows -> T {
        writeLock.lock()
        holderLock.withLock { holder = pthread_self() }
        defer {
            holderLock.withLock { holder = nil }
            writeLock.unlock()
        }
        return try body()
    }

    var isWriteLockHeldByCurrentThread: Bool {
        holderLock.withLock { holder.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func open() throws -> SQLiteConnection {
        try SQLiteConnection(path: path, isFile: isFile, busyTimeoutMilliseconds: busyTimeoutMilliseconds, readOnly: readOnly, tracer: tracer)
    }
}
