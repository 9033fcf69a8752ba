import Foundation
import ModelStore
import StoreTestSupport

/// Which store the benchmark runs on (`--store sqlite|postgresql`).
enum BenchStoreKind: String {
    /// SQLite files in a temporary folder; the hand-written side is SQLite C API code.
    case sqlite
    /// Databases on a PostgreSQL server: the one `MODELSTORE_TEST_POSTGRES_URL` names, else a
    /// throwaway server started for the run (Tests/StoreTestSupport); the hand-written side is
    /// libpq code.
    case postgresql
}

/// The stores of one side in one repetition, by name: each name is one SQLite file in the
/// repetition's folder, or one fresh PostgreSQL database; asking twice for a name gives the same
/// store. Everything is removed by `close()`.
final class BenchStores {
    let kind: BenchStoreKind
    private let directory: URL
    private var databases: [String: PostgresTestDatabase] = [:]

    init(kind: BenchStoreKind, directory: URL) throws {
        self.kind = kind
        self.directory = directory
        if kind == .sqlite { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
    }

    /// The URL ModelStore opens for store `name`.
    ///
    /// - Throws: the server's error when a database cannot be created.
    func url(_ name: String) throws -> URL {
        switch kind {
        case .sqlite:
            return directory.appending(path: name + ".store")
        case .postgresql:
            let database = try self.database(name)
            guard let url = database.storeURL else { throw HandSQLiteError(message: "bad database URL \(database.url)") }
            return url
        }
    }

    /// The PostgreSQL database of store `name` (made on first use).
    ///
    /// - Throws: the server's error when it cannot be created.
    func database(_ name: String) throws -> PostgresTestDatabase {
        if let known = databases[name] { return known }
        let database = try PostgresTestServer.shared().makeDatabase()
        databases[name] = database
        return database
    }

    /// Runs `sql` on store `name` through a connection of its own (SQLite C API or libpq).
    ///
    /// - Throws: the store's error.
    func execute(_ sql: String, on name: String) throws {
        switch kind {
        case .sqlite: try HandConnection(url: try url(name)).execute(sql)
        case .postgresql: try HandPQ(parameters: try database(name).url.connectionParameters).execute(sql)
        }
    }

    /// Removes the stores (files, databases).
    func close() {
        databases = [:]
        try? FileManager.default.removeItem(at: directory)
    }
}
