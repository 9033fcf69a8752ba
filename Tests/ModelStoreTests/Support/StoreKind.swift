import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

/// The stores the runtime's behaviour tests run on: one suite, parameterized by store
/// (`@Test(arguments: StoreKind.allCases)`), not a copy per store.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A SQLite file in a temporary folder.
    case sqliteFile
    /// A SQLite database in memory.
    case sqliteMemory
    /// A fresh database on the PostgreSQL test server (`PostgresTestServer`: the one
    /// `MODELSTORE_TEST_POSTGRES_URL` names, else a throwaway server started once per test process).
    case postgresql

    /// The stores that outlive their containers (a test that reopens a store). Also the kinds of
    /// the heaviest tests (large data sets, many threads): an in-memory SQLite store runs the very
    /// SQL of a file store.
    static let persistent: [StoreKind] = [.sqliteFile, .postgresql]

    var testDescription: String { rawValue }
}

/// A store of one kind for one test: where it is, what opens it, and its removal when released
/// (the file's folder, or the PostgreSQL database).
final class TestStore {
    let kind: StoreKind
    /// The configuration that opens it (the same in-memory database for every container made from it).
    let configuration: ModelConfiguration
    private let file: TemporaryStore?
    private let database: PostgresTestDatabase?
    /// Keeps an in-memory database alive between the test's containers.
    private var keeper: ModelContainer?

    init(_ kind: StoreKind) throws {
        self.kind = kind
        switch kind {
        case .sqliteFile:
            let file = try TemporaryStore()
            self.file = file
            database = nil
            configuration = file.configuration
        case .sqliteMemory:
            file = nil
            database = nil
            configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        case .postgresql:
            let database = try PostgresTestServer.shared().makeDatabase()
            self.database = database
            file = nil
            configuration = ModelConfiguration(url: try #require(database.storeURL))
        }
    }

    /// A container on the store for `schema` (the first one made keeps an in-memory store alive).
    func container(for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                   recordsHistory: Bool = true) throws -> ModelContainer {
        var configuration = configuration
        configuration.recordsHistory = recordsHistory
        let container = try ModelContainer(for: schema, migrationPlan: migrationPlan, configurations: configuration)
        if kind == .sqliteMemory && keeper == nil { keeper = container }
        return container
    }

    /// A connection to the store for looking at what is really stored (SQL in the store's dialect).
    func rawConnection(through container: ModelContainer) throws -> any StoreConnection {
        try container.makeConnection()
    }

    /// The SQLite file (nil for other kinds).
    var url: URL? { file?.url }

    /// The PostgreSQL database (nil for other kinds).
    var postgres: PostgresTestDatabase? { database }
}

/// A test's store, a container on it and a context: what most behaviour suites start from.
final class StoreFixture {
    let store: TestStore
    let container: ModelContainer
    let context: ModelContext

    init(_ kind: StoreKind, _ schema: Schema, recordsHistory: Bool = true) throws {
        store = try TestStore(kind)
        container = try store.container(for: schema, recordsHistory: recordsHistory)
        context = ModelContext(container)
    }
}

extension TestStore {
    /// Makes every insert into `table` of a row whose `column` holds `value` fail, with the store's
    /// own error, until `allowInserts(into:)`: a save that fails half way through.
    func failInserts(into table: String, whereColumn column: String, is value: String, on connection: any StoreConnection) throws {
        let (table, column, value) = (SQLQuote.identifier(table), SQLQuote.identifier(column), SQLQuote.literal(value))
        switch kind {
        case .sqliteFile, .sqliteMemory:
            try connection.execute("CREATE TRIGGER \"boom\" BEFORE INSERT ON \(table) WHEN NEW.\(column) = \(value) BEGIN SELECT RAISE(ABORT, 'boom'); END")
        case .postgresql:
            try connection.execute("CREATE FUNCTION \"boom\"() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN IF NEW.\(column) = \(value) THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END$$")
            try connection.execute("CREATE TRIGGER \"boom\" BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION \"boom\"()")
        }
    }

    /// Removes what `failInserts` added.
    func allowInserts(into table: String, on connection: any StoreConnection) throws {
        switch kind {
        case .sqliteFile, .sqliteMemory: try connection.execute("DROP TRIGGER \"boom\"")
        case .postgresql: try connection.execute("DROP TRIGGER \"boom\" ON \(SQLQuote.identifier(table))")
        }
    }

    /// Whether `error` is the store's own error (`SQLiteError`, `PostgresError`).
    func isStoreError(_ error: any Error) -> Bool {
        switch kind {
        case .sqliteFile, .sqliteMemory: return error is SQLiteError
        case .postgresql: return error is PostgresError
        }
    }
}

extension TestStore {
    /// Where a child process finds the store: the file's path, or the database's URL.
    var location: String {
        if let url { return url.path }
        return configuration.url.absoluteString
    }

    /// A SQLite connection to the file of a file store (nil for other kinds), for SQLite's own checks.
    func sqliteFileConnection() throws -> SQLiteConnection? {
        guard let url else { return nil }
        return try SQLiteConnection(path: url.path, isFile: true)
    }
}
