/// The store of a custom stage's contexts: the migration's own connection, inside its
/// transaction. A context's `save()` there becomes a savepoint, so the stage stays one transaction.
final class MigrationStageDriver: StoreDriver, @unchecked Sendable {
    /// The migration's connection (used on the opening thread only, while the container opens).
    let connection: any StoreConnection
    /// Whether a context deleted rows (foreign keys are off
    /// during a migration: the migrator then does what their `ON DELETE` actions would have done).
    private(set) var deletedRows = false

    init(connection: any StoreConnection) {
        self.connection = connection
    }

    var dialect: any SQLDialect { connection.dialect }

    func makeConnection() throws -> any StoreConnection { StageConnection(base: connection, driver: self) }

    func withWriteLock<T>(_ body: () throws -> T) rethrows -> T { try body() }

    /// Notes the statements that delete rows.
    func note(_ sql: String) {
        if !deletedRows && sql.hasPrefix("DELETE") { deletedRows = true }
    }
}

/// A context's handle on the migration's connection: transactions become savepoints.
final class StageConnection: StoreConnection {
    private let base: any StoreConnection
    private unowned let driver: MigrationStageDriver
    private static let savepoint = "modelstore_stage"

    init(base: any StoreConnection, driver: MigrationStageDriver) {
        self.base = base
        self.driver = driver
    }

    var dialect: any SQLDialect { base.dialect }

    func execute(_ sql: String) throws {
        driver.note(sql)
        try base.execute(sql)
    }

    func statement(_ sql: String) throws -> any StoreStatement {
        driver.note(sql)
        return try base.statement(sql)
    }

    func beginWriteTransaction() throws { try base.execute("SAVEPOINT \(Self.savepoint)") }

    func commit() throws { try base.execute("RELEASE SAVEPOINT \(Self.savepoint)") }

    func rollback() {
        try? base.execute("ROLLBACK TO SAVEPOINT \(Self.savepoint)")
        try? base.execute("RELEASE SAVEPOINT \(Self.savepoint)")
    }

    var lastInsertedKey: Int64? { base.lastInsertedKey }

    var changes: Int { base.changes }

    var sendsInBatches: Bool { base.sendsInBatches }

    func send(_ statement: any StoreStatement) throws { try base.send(statement) }

    var sentCount: Int { base.sentCount }

    func receiveSent() -> SentResults { base.receiveSent() }
}
