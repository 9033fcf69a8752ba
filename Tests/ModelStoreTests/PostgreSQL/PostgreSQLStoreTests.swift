import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

/// What only the PostgreSQL store has: its URLs and their errors, the connection pool, a
/// connection lost in the middle of a save, prepared statements across schema changes, upserts
/// over several unique groups, and its table layout.
@Suite struct PostgreSQLStoreTests {
    /// Opens a Trips container at `url`, expecting a `PostgresError` of `kind`, whose text must
    /// not hold `secret`.
    func expectOpenFails(_ url: String, _ kind: PostgresError.Kind, secret: String? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = try #require(URL(string: url), sourceLocation: sourceLocation)
        let error = try #require(throws: PostgresError.self, sourceLocation: sourceLocation) {
            _ = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: url))
        }
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        if let secret { #expect(!error.description.contains(secret), "\(error)", sourceLocation: sourceLocation) }
    }

    @Test func badURLsAreClearErrors() throws {
        try expectOpenFails("postgresql://ann:hunter2@db.example:99999/app", .invalidURL, secret: "hunter2")
        try expectOpenFails("postgresql://ann:hunter2@db.example/app?color=red", .invalidURL, secret: "hunter2")
        try expectOpenFails("postgres://ann:hunter2@db.example:0/app", .invalidURL, secret: "hunter2")
    }

    @Test func unreachableServersAreClearErrors() throws {
        let start = Date()
        try expectOpenFails("postgresql://ann:hunter2@/app?host=/tmp/modelstore-no-server-\(UUID().uuidString)", .connectionFailed, secret: "hunter2")
        try expectOpenFails("postgresql://ann:hunter2@127.0.0.1:1/app?connect_timeout=2", .connectionFailed, secret: "hunter2")
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func aMissingDatabaseIsAClearError() throws {
        var url = try PostgresTestServer.shared().url
        url.database = "modelstore_no_such_database"
        try expectOpenFails(url.description, .databaseMissing)
    }

    /// Needs a server that asks for passwords: the throwaway one does for its password group.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MODELSTORE_TEST_POSTGRES_URL"] == nil))
    func authenticationFailuresAreClearErrors() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let admin = try PostgresTestServer.shared().adminConnection()
        let role = "store_" + UUID().uuidString.prefix(8).lowercased()
        try admin.execute("CREATE ROLE \(role) LOGIN PASSWORD 'right-one' IN ROLE \(PostgresTestServer.passwordGroup)")
        defer { try? admin.execute("DROP ROLE \(role)") }
        var url = database.url
        url.user = role
        url.password = "wrong-one"
        try expectOpenFails(url.description.replacingOccurrences(of: "***", with: "wrong-one"), .authenticationFailed, secret: "wrong-one")
        url.user = "modelstore_no_such_role"
        url.password = nil
        try expectOpenFails(url.description, .authenticationFailed)
    }

    /// `postgres://`, a socket folder as the URL's `host` option, and the database in the path.
    @Test func everySpellingOfTheURLOpensTheStore() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let server = try PostgresTestServer.shared()
        var spellings = [database.url.description, database.url.description.replacingOccurrences(of: "postgresql://", with: "postgres://")]
        if let folder = server.folder {
            spellings.append("postgresql:///\(database.name)?host=\(folder)&user=postgres")
        }
        for (index, spelling) in spellings.enumerated() {
            let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: try #require(URL(string: spelling))))
            let context = ModelContext(container)
            context.insert(Trip(name: "via \(index)", startDate: Day.at(index), endDate: Day.at(index)))
            try context.save()
        }
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: try #require(URL(string: spellings[0]))))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == spellings.count)
    }

    /// Contexts share the container's few connections: one is held only while a statement or a
    /// save runs, so twenty contexts on four threads never open more than `maximumConnections`.
    @Test func contextsShareTheContainersPool() throws {
        let store = try TestStore(.postgresql)
        var configuration = store.configuration
        configuration.maximumConnections = 2
        let container = try ModelContainer(for: TripStore.schema, configurations: configuration)
        let pool = try #require(container.driver as? PostgresDriver).pool
        let errors = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            // Five contexts per thread, each used by its thread alone.
            let contexts = (0..<5).map { offset in (thread * 5 + offset, ModelContext(container)) }
            for (index, context) in contexts {
                do {
                    for round in 0..<5 {
                        context.insert(Trip(name: "c\(index)-\(round)", startDate: Day.at(round), endDate: Day.at(round)))
                        try context.save()
                        _ = try context.fetchCount(FetchDescriptor<Trip>())
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        #expect(pool.openConnectionCount <= 2)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 100)
    }

    /// The server ends the connection in the middle of a save (a trigger terminates its own
    /// backend on one row): the save throws `.connectionLost`, nothing of it is stored, the context
    /// keeps its changes, and the next save (on a connection opened again) stores them.
    @Test func aConnectionLostInTheMiddleOfASaveAppliesNothing() throws {
        let store = try TestStore(.postgresql)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        let kept = Trip(name: "Kept", startDate: Day.at(0), endDate: Day.at(1))
        context.insert(kept)
        try context.save()
        let raw = try container.makeConnection()
        try raw.execute(#"CREATE FUNCTION "crash"() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN IF NEW."name" = 'Crash' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END$$"#)
        try raw.execute(#"CREATE TRIGGER "crash" BEFORE INSERT ON "Trip" FOR EACH ROW EXECUTE FUNCTION "crash"()"#)

        kept.name = "Changed"
        let fine = Trip(name: "Fine", startDate: Day.at(1), endDate: Day.at(2))
        let crash = Trip(name: "Crash", startDate: Day.at(2), endDate: Day.at(3))
        context.insert(fine)
        context.insert(crash)
        let error = try #require(throws: PostgresError.self) { try context.save() }
        #expect(error.kind == .connectionLost, "\(error)")
        let names = #"SELECT "name" FROM "Trip" ORDER BY "name""#
        #expect(try raw.rows(names) == [[.text("Kept")]])
        #expect(context.hasChanges && kept.hasChanges)
        #expect(fine.persistentModelID.isTemporary && crash.persistentModelID.isTemporary)

        try raw.execute(#"DROP TRIGGER "crash" ON "Trip""#)
        try context.save()
        #expect(try raw.rows(names) == [[.text("Changed")], [.text("Crash")], [.text("Fine")]])
    }

    /// A query prepared on one connection still runs after another connection changed the type
    /// of a column it returns (PostgreSQL refuses the old plan; the statement is prepared again).
    @Test func aQueryPreparedBeforeAnotherConnectionChangedItsTableRunsAgain() throws {
        let database = try PostgresTestServer.shared().makeDatabase()
        let url = try #require(URL(string: database.url.description))
        let reader = try PostgresDriver(url: url, maximumConnections: 1).makeConnection()
        try reader.execute(#"CREATE TABLE "t" ("v" bigint)"#)
        try reader.run(#"INSERT INTO "t" VALUES (?)"#, [.integer(7)])
        #expect(try reader.rows(#"SELECT "v" FROM "t""#) == [[.integer(7)]])
        let writer = try database.connect()
        try writer.execute(#"ALTER TABLE "t" ALTER COLUMN "v" TYPE text"#)
        #expect(try reader.rows(#"SELECT "v" FROM "t""#) == [[.text("7")]])
    }

    /// Several unique groups: an insert matching a stored row by either group updates that row.
    @Test func anUpsertOverTwoUniqueGroupsFindsTheRowByEither() throws {
        let store = try TestStore(.postgresql)
        let container = try store.container(for: Schema([Badge.self]))
        let context = ModelContext(container)
        context.insert(Badge(code: "A", holder: "door", slot: 1, label: "first"))
        context.insert(Badge(code: "B", holder: "wall", slot: 2, label: "second"))
        try context.save()
        // By code, then by holder and slot.
        context.insert(Badge(code: "A", holder: "door", slot: 3, label: "moved"))
        context.insert(Badge(code: "C", holder: "wall", slot: 2, label: "recoded"))
        try context.save()
        let badges = try ModelContext(container).fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.code)]))
        #expect(badges.map { "\($0.code) \($0.holder) \($0.slot) \($0.label)" } == ["A door 3 moved", "C wall 2 recoded"])
        // Matching two different rows, one by each group: the update breaks the other group, as
        // SQLite's upsert does, and the save stores nothing.
        context.insert(Badge(code: "A", holder: "wall", slot: 2, label: "both"))
        #expect(throws: PostgresError.self) { try context.save() }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Badge>()) == 2)
    }

    /// The same upsert on SQLite, for comparison: SQLite's `ON CONFLICT DO UPDATE` without a target
    /// covers every unique group.
    @Test(arguments: StoreKind.allCases) func upsertsOverTwoGroupsAgreeAcrossStores(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Schema([Badge.self]))
        let context = ModelContext(container)
        context.insert(Badge(code: "A", holder: "door", slot: 1, label: "first"))
        try context.save()
        context.insert(Badge(code: "Z", holder: "door", slot: 1, label: "same place"))
        try context.save()
        let badges = try ModelContext(container).fetch(FetchDescriptor<Badge>())
        #expect(badges.map { "\($0.code) \($0.label)" } == ["Z same place"])
    }

    /// The tables, columns, constraints and indexes a PostgreSQL store gets, from the server's
    /// catalog, kept as reviewed golden files (SQLite's: SchemaLayoutTests).
    @Test(arguments: ["Trips", "Shop"])
    func layout(_ sample: String) throws {
        let store = try TestStore(.postgresql)
        _ = try store.container(for: sample == "Trips" ? TripStore.schema : Shop.schema)
        let raw = try store.rawConnection()
        var text = ""
        for table in try store.objectNames(type: "table").sorted() {
            text += try store.tableSQL(table) + ";\n"
            let indexes = try raw.rows("SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? ORDER BY indexname", [.text(table)])
            for case .text(let definition)? in indexes.map(\.first) { text += definition + ";\n" }
        }
        try expectGolden(text, named: "\(sample).postgresql.schema.sql")
    }
}
