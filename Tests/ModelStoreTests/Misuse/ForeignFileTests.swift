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

    /// Leaves at `target` what a process killed in the middle of a rollback-journal transaction
    /// leaves: `committed` run and committed, then `inFlight` run in a transaction whose pages
    /// spill into the file (a one-page cache) before the file and its journal are copied, the
    /// transaction still open. The copy has a hot journal: no process holds the file's lock.
    func killedMidTransaction(at target: TemporaryStore, committed: String?, inFlight: String) throws {
        let source = try TemporaryStore()
        let connection = try SQLiteConnection(path: source.url.path, isFile: false)  // rollback journal
        if let committed { try connection.execute(committed) }
        try connection.execute("PRAGMA cache_size = 1; BEGIN; " + inFlight)
        let journal = source.url.path + "-journal"
        let journalSize = (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? NSNumber)?.intValue
        try #require((journalSize ?? 0) > 0, "no journal written")
        try FileManager.default.copyItem(atPath: source.url.path, toPath: target.url.path)
        try FileManager.default.copyItem(atPath: journal, toPath: target.url.path + "-journal")
        try connection.execute("ROLLBACK")
    }

    /// Rows spilling out of a one-page cache.
    static let spillingRows = "CREATE TABLE spill (body BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO spill SELECT randomblob(3000) FROM n"

    @Test("A new store whose creator was killed mid-write (a hot journal) opens: SQLite rolls the journal back first")
    func aHotJournalOfANewStoreIsRolledBack() throws {
        let store = try TemporaryStore()
        try killedMidTransaction(at: store, committed: nil, inFlight: Self.spillingRows)
        // The state CI met once: a read-only connection cannot roll a hot journal back.
        #expect(throws: SQLiteError.self) { try SQLiteConnection(path: store.url.path, isFile: false, readOnly: true).rows("SELECT count(*) FROM sqlite_master") }
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        let context = ModelContext(container)
        context.insert(Trip(name: "Lisbon", startDate: Day.at(0), endDate: Day.at(1)))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
        #expect(!FileManager.default.fileExists(atPath: store.url.path + "-journal"))
        let tables = try store.rawConnection().rows("SELECT name FROM sqlite_master WHERE name = 'spill'")
        #expect(tables.isEmpty, "the killed transaction's table is in the store")
    }

    @Test("Another application's database with a hot journal is rolled back to its last commit, then refused")
    func aHotJournalOfAForeignDatabaseIsRolledBackThenRefused() throws {
        let store = try TemporaryStore()
        try killedMidTransaction(at: store, committed: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')",
                                 inFlight: Self.spillingRows + "; DELETE FROM notes")
        do {
            _ = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
            Issue.record("opened another application's database")
        } catch let error as ModelStoreError {
            guard case .notAModelStore(_, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reason.contains("'notes'") && !reason.contains("spill"), "\(reason)")
        }
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: store.url.path + suffix), "\(suffix) left")
        }
        let connection = try SQLiteConnection(path: store.url.path, isFile: false)
        #expect(try connection.rows("SELECT body FROM notes") == [[.text("keep me")]])
        #expect(try connection.rows("PRAGMA journal_mode").first?.first == .text("delete"))
    }
}
