import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A SQLite context that ends hands its connection to the next context of its container
/// (docs/Runtime.md, "Connections"): only an idle one (no transaction, no statement mid-result),
/// and the next context reads what was saved since, as a new connection would.
@Suite struct ConnectionReuseTests {
    static let kinds: [StoreKind] = [.sqliteFile, .sqliteMemory]

    /// The identity of a context's connection (opened by asking for it).
    static func connectionID(of context: ModelContext) throws -> ObjectIdentifier {
        ObjectIdentifier(try context.connection())
    }

    @Test(arguments: kinds) func anEndedContextsConnectionServesTheNextContext(_ kind: StoreKind) throws {
        let fixture = try FetchTests.fixture(kind)
        var first: ModelContext? = ModelContext(fixture.container)
        #expect(try first?.fetchCount(FetchDescriptor<Trip>()) == 5)
        let used = try Self.connectionID(of: try #require(first))
        first = nil
        let next = ModelContext(fixture.container)
        #expect(try Self.connectionID(of: next) == used)
        #expect(try next.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])).map(\.name) == ["Beach", "Audit", "Errand", "Home", "Fair"])
        // A context still open keeps its own: the one after it opens another.
        let another = ModelContext(fixture.container)
        #expect(try Self.connectionID(of: another) != used)
    }

    /// The reused connection's statements (a plain lookup's, kept by the connection) read the
    /// store as it is now: rows another context saved after the first context ended, and rows it
    /// changed and deleted.
    @Test(arguments: kinds) func aReusedConnectionReadsWhatWasSavedSince(_ kind: StoreKind) throws {
        let fixture = try FetchTests.fixture(kind)
        let writer = fixture.context
        func names(in context: ModelContext) throws -> [String] {
            try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        }
        func lookUp(_ name: String, in context: ModelContext) throws -> [String] {
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).map(\.name)
        }
        var reader: ModelContext? = ModelContext(fixture.container)
        #expect(try lookUp("Fair", in: try #require(reader)) == ["Fair"])
        #expect(try lookUp("Picnic", in: try #require(reader)).isEmpty)
        let used = try Self.connectionID(of: try #require(reader))
        reader = nil

        writer.insert(Trip(name: "Picnic", startDate: Day.at(7), endDate: Day.at(7)))
        let fair = try #require(try writer.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Fair" })).first)
        fair.name = "Fair 2"
        let errand = try #require(try writer.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Errand" })).first)
        writer.delete(errand)
        try writer.save()

        let next = ModelContext(fixture.container)
        #expect(try Self.connectionID(of: next) == used)
        #expect(try lookUp("Picnic", in: next) == ["Picnic"])
        #expect(try lookUp("Fair", in: next).isEmpty)
        #expect(try lookUp("Errand", in: next).isEmpty)
        #expect(try names(in: next) == ["Audit", "Beach", "Fair 2", "Home", "Picnic"])
        #expect(try next.fetchCount(FetchDescriptor<Trip>()) == 5)
    }

    /// A connection left inside a transaction, or with a statement part way through its result,
    /// is closed, not reused: the next context opens its own, and the store is not left locked
    /// or pinned to an old snapshot.
    @Test(arguments: kinds) func aConnectionInATransactionOrMidResultIsNotReused(_ kind: StoreKind) throws {
        let fixture = try FetchTests.fixture(kind)
        for leftOver in ["transaction", "mid-result"] {
            var ended: ModelContext? = ModelContext(fixture.container)
            let connection = try #require(ended).connection()
            let used = ObjectIdentifier(connection)
            if leftOver == "transaction" {
                try connection.execute("BEGIN IMMEDIATE")
            } else {
                let statement = try connection.statement("SELECT \"name\" FROM \"Trip\"")
                #expect(try statement.step())
            }
            // Let go of here first: the context is then the connection's only holder.
            _ = consume connection
            ended = nil

            let next = ModelContext(fixture.container)
            #expect(try Self.connectionID(of: next) != used, "\(leftOver)")
            // Not locked by the transaction left open: it was rolled back when its connection closed.
            next.insert(Trip(name: "After \(leftOver)", startDate: Day.at(8), endDate: Day.at(8)))
            try next.save()
            let later = ModelContext(fixture.container)
            let name = "After \(leftOver)"
            #expect(try later.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).count == 1, "\(leftOver)")
        }
    }

    /// Contexts started and ended on several threads at once, each saving and reading: every
    /// context sees every save that returned before it started.
    @Test(arguments: kinds) func contextsOnSeveralThreadsShareTheIdleConnections(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let container = fixture.container
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for round in 0..<25 {
                        let name = "task \(task) round \(round)"
                        let writer = ModelContext(container)
                        writer.insert(Trip(name: name, startDate: Day.at(round), endDate: Day.at(round)))
                        try writer.save()
                        let reader = ModelContext(container)
                        let found = try reader.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
                        #expect(found.count == 1, "\(name)")
                        let prefix = "task \(task) "
                        let mine = try reader.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: prefix) }))
                        #expect(mine == round + 1, "\(name)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 100)
    }
}
