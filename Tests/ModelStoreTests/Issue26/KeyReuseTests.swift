import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #26, item 3: a deleted row's key is never given to another row, on every store, so a kept
/// `PersistentIdentifier` of a deleted row finds nothing. A SQLite store written before keys were
/// `AUTOINCREMENT` is upgraded in place when opened (docs/Migrations.md, "Row keys are never reused").
@Suite struct KeyReuseTests {
    /// Deletes the trip with the largest key, inserts another, and checks that the old identifier
    /// finds nothing anywhere.
    func deleteLargestAndInsert(_ container: ModelContainer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        let largest = try #require(trips.max { $0.persistentModelID.rowID! < $1.persistentModelID.rowID! })
        let old = largest.persistentModelID
        context.delete(largest)
        try context.save()
        let new = Trip(name: "New", startDate: Day.at(8), endDate: Day.at(9))
        context.insert(new)
        try context.save()
        #expect(new.persistentModelID.rowID! > old.rowID!, "a key was given again", sourceLocation: sourceLocation)

        let fresh = ModelContext(container)
        #expect(fresh.model(for: old) == nil, sourceLocation: sourceLocation)
        #expect(try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == old })).isEmpty, sourceLocation: sourceLocation)
        let list = [old]
        #expect(try fresh.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { list.contains($0.persistentModelID) })) == 0,
                sourceLocation: sourceLocation)
        // Edits and deletes through the old identifier reach nothing.
        try fresh.delete(model: Trip.self, where: #Predicate { $0.persistentModelID == old })
        try fresh.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).contains { $0.name == "New" }, sourceLocation: sourceLocation)
    }

    @Test("The key of a deleted row is never given again", arguments: StoreKind.allCases)
    func keysAreNotReused(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        for index in 0..<3 { context.insert(Trip(name: "T\(index)", startDate: Day.at(index), endDate: Day.at(index + 1))) }
        try context.save()
        try deleteLargestAndInsert(container)
        try deleteLargestAndInsert(container)
        if kind != .sqliteMemory {
            // After reopening too.
            try deleteLargestAndInsert(try store.container(for: TripStore.schema))
        }
    }

    /// Rewrites the entity tables of a SQLite file as the runtime wrote them before keys were
    /// `AUTOINCREMENT` (plain `INTEGER PRIMARY KEY`, nothing in `sqlite_sequence`).
    func writeOldLayout(_ url: URL) throws {
        let connection = try SQLiteConnection(path: url.path, isFile: true)
        try connection.execute("PRAGMA foreign_keys = OFF")
        try connection.execute("BEGIN IMMEDIATE")
        let tables = try connection.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'")
        for row in tables {
            guard case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
            let indexes = try connection.rows("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", [.text(name)])
            let old = SQLQuote.identifier("old " + name)
            try connection.execute(sql.replacingOccurrences(of: "CREATE TABLE \(SQLQuote.identifier(name))", with: "CREATE TABLE \(old)")
                .replacingOccurrences(of: " AUTOINCREMENT", with: ""))
            try connection.execute("INSERT INTO \(old) SELECT * FROM \(SQLQuote.identifier(name))")
            try connection.execute("DROP TABLE \(SQLQuote.identifier(name))")
            try connection.execute("ALTER TABLE \(old) RENAME TO \(SQLQuote.identifier(name))")
            for index in indexes { if case .text(let create) = index[0] { try connection.execute(create) } }
        }
        try connection.execute("DELETE FROM sqlite_sequence")
        try connection.execute("COMMIT")
    }

    func dump(_ url: URL) throws -> [String] {
        let connection = try SQLiteConnection(path: url.path, isFile: true)
        var lines = try connection.rows("SELECT type, name, tbl_name FROM sqlite_master WHERE name <> 'sqlite_sequence' ORDER BY type, name").map { "\($0)" }
        for table in ["Trip", "Accommodation", "Itinerary"] {
            lines += try connection.rows("SELECT * FROM \(SQLQuote.identifier(table)) ORDER BY \"$pk\"").map { "\(table) \($0)" }
        }
        return lines
    }

    @Test("A SQLite store written before AUTOINCREMENT is upgraded when opened: same rows and keys, no reuse")
    func oldStoreIsUpgraded() throws {
        let file = try TemporaryStore()
        do {
            let container = try ModelContainer(for: TripStore.schema, configurations: file.configuration)
            let context = ModelContext(container)
            for index in 0..<5 {
                let trip = Trip(name: "T\(index)", startDate: Day.at(index), endDate: Day.at(index + 1))
                context.insert(trip)
                context.insert(Accommodation(name: "A\(index)"))
            }
            try context.save()
            for (trip, stay) in zip(try context.fetch(FetchDescriptor<Trip>()), try context.fetch(FetchDescriptor<Accommodation>())) { stay.trip = trip }
            try context.save()
            // The largest trip is deleted before the upgrade: history remembers its key.
            let largest = try #require(context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)])).first)
            context.delete(largest)
            try context.save()
        }
        try writeOldLayout(file.url)
        let raw = try SQLiteConnection(path: file.url.path, isFile: true)
        #expect(try raw.rows("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%AUTOINCREMENT%'") == [[.integer(0)]])
        let before = try dump(file.url)

        let container = try ModelContainer(for: TripStore.schema, configurations: file.configuration)
        #expect(try raw.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' ORDER BY name")
                == [[.text("Accommodation")], [.text("Itinerary")], [.text("Trip")]])
        #expect(try dump(file.url) == before, "the upgrade changed rows, keys, tables or indexes")
        #expect(try raw.rows("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try raw.rows("PRAGMA foreign_key_check").isEmpty)
        // The key history recorded for the deleted trip (5) is not given again.
        let context = ModelContext(container)
        let new = Trip(name: "After", startDate: Day.at(1), endDate: Day.at(2))
        context.insert(new)
        try context.save()
        #expect(new.persistentModelID.rowID == 6)
        try deleteLargestAndInsert(container)
        // Opened again: nothing left to upgrade, nothing written.
        _ = try ModelContainer(for: TripStore.schema, configurations: file.configuration)
    }

    @Test("A failing upgrade leaves the old store as it was (all or nothing)")
    func failedUpgradeChangesNothing() throws {
        let file = try TemporaryStore()
        do {
            let container = try ModelContainer(for: TripStore.schema, configurations: file.configuration)
            let context = ModelContext(container)
            for index in 0..<3 { context.insert(Trip(name: "T\(index)", startDate: Day.at(index), endDate: Day.at(index + 1))) }
            try context.save()
        }
        try writeOldLayout(file.url)
        // A table in the way of the last table's rebuild makes the upgrade fail there.
        let raw = try SQLiteConnection(path: file.url.path, isFile: true)
        try raw.execute("CREATE TABLE \"$migrating:Trip\" (x)")
        let before = try Data(contentsOf: file.url)
        #expect(throws: SQLiteError.self) { _ = try ModelContainer(for: TripStore.schema, configurations: file.configuration) }
        #expect(try Data(contentsOf: file.url) == before)
        #expect(try raw.rows("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%AUTOINCREMENT%'") == [[.integer(0)]])
    }
}
