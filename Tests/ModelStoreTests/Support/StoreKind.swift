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

    /// The stores that outlive their containers (a test that reopens a store).
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
            configuration = ModelConfiguration(url: try #require(URL(string: database.url.description)))
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
