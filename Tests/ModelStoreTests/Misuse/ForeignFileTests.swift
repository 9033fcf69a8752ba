import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #20, item 2: a file that is neither empty nor a ModelStore store is refused before anything is
/// written to it: no WAL switch, no table, not one byte changed.
@Suite struct ForeignFileTests {
    /// Another application's SQLite database at the store's path (rollback journal, as most are).
    func foreignDatabase(_ store: TemporaryStore, _ sql: String) throws {
        let connection = try SQLiteConnection(path: store.url.path, isFile: false)  // no WAL, no ModelStore table
        try connection.execute(sql)
    }

    func expectRefusedUntouched(_ store: TemporaryStore, reason: String, _ comment: Comment) throws {
        let before = try Data(contentsOf: store.url)
        do {
            _ = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
            Issue.record("opened \(comment)")
        } catch let error as ModelStoreError {
            guard case .notAModelStore(let path, let message) = error else {
                Issue.record("unexpected error \(error) for \(comment)")
                return
            }
            #expect(path == store.url.path)
            #expect(message.contains(reason), "\(message)")
            #expect(error.description.contains("left untouched"))
        }
        #expect(try Data(contentsOf: store.url) == before, "the file changed: \(comment)")
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: store.url.path + suffix), "\(suffix) made for \(comment)")
        }
    }

    @Test("A database with a table of the same name as an entity is refused untouched (no WAL switch)")
    func clashingTableIsRefused() throws {
        let store = try TemporaryStore()
        try foreignDatabase(store, "CREATE TABLE Trip (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO Trip (title) VALUES ('mine')")
        try expectRefusedUntouched(store, reason: "'Trip'", "a database with its own Trip table")
        let journal = try SQLiteConnection(path: store.url.path, isFile: false).rows("PRAGMA journal_mode")
        #expect(journal.first?.first == .text("delete"))
    }

    @Test("A database with no clashing table is refused untouched (no ModelStore table added)")
    func unrelatedDatabaseIsRefused() throws {
        let store = try TemporaryStore()
        try foreignDatabase(store, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
        try expectRefusedUntouched(store, reason: "'notes'", "another application's database")
        let tables = try SQLiteConnection(path: store.url.path, isFile: false).rows("SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(tables == [[.text("notes")]])
    }

    @Test("A file that is not a SQLite database is refused untouched")
    func textFileIsRefused() throws {
        let store = try TemporaryStore()
        try Data(String(repeating: "not a database, just some text\n", count: 200).utf8).write(to: store.url)
        try expectRefusedUntouched(store, reason: "not a SQLite database", "a text file")
    }

    @Test("An empty file, an empty database and a ModelStore store open")
    func emptyFilesAndOwnStoresOpen() throws {
        let empty = try TemporaryStore()
        _ = FileManager.default.createFile(atPath: empty.url.path, contents: Data())
        let blank = try TemporaryStore()
        try foreignDatabase(blank, "PRAGMA user_version = 7")  // a database file with no table
        for store in [empty, blank] {
            let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
            let context = ModelContext(container)
            context.insert(Trip(name: "Lisbon", startDate: Day.at(0), endDate: Day.at(1)))
            try context.save()
        }
        // Reopened, and opened with another schema (which adds its tables to a ModelStore store).
        for store in [empty, blank] {
            #expect(try ModelContext(ModelContainer(for: TripStore.schema, configurations: store.configuration)).fetchCount(FetchDescriptor<Trip>()) == 1)
            _ = try ModelContainer(for: Shop.schema, configurations: store.configuration)
        }
    }
}
