import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `enumerate` sends each batch's query as soon as the batch before is read, so a PostgreSQL server
/// runs it while the block runs (docs/Runtime.md, "Batches"): the guarantees of the batches stay,
/// on every store, with the next batch in flight while the block fetches, saves and deletes, and a
/// block that throws leaves every connection of the pool free and idle.
@Suite struct EnumerateReadAheadTests {
    /// `count` trips named "trip 0000"… in key order, of the three classes in turn.
    func seed(_ store: QueryStore, _ count: Int) throws {
        try seed(store.container, count)
    }

    func seed(_ container: ModelContainer, _ count: Int) throws {
        let context = ModelContext(container)
        for index in 0..<count {
            let name = String(format: "trip %04d", index)
            switch index % 3 {
            case 0: context.insert(Trip(name: name, startDate: Day.at(index % 7), endDate: Day.at(index)))
            case 1: context.insert(BusinessTrip(name: name, startDate: Day.at(index % 7), endDate: Day.at(index), company: "Acme"))
            default: context.insert(PersonalTrip(name: name, startDate: Day.at(index % 7), endDate: Day.at(index), reason: .family))
            }
        }
        try context.save()
    }

    /// A store of `trips` seeded trips and a container of it whose pool lends at most
    /// `connections` connections (the store is kept with the container: it removes its database).
    func pooledStore(_ kind: StoreKind, connections: Int, trips: Int) throws -> (store: TestStore, container: ModelContainer) {
        let store = try TestStore(kind)
        var configuration = store.configuration
        configuration.maximumConnections = connections
        let container = try ModelContainer(for: TripStore.schema, configurations: configuration)
        try seed(container, trips)
        return (store, container)
    }

    /// The reads a PostgreSQL context sent ahead and took (nil on SQLite, which sends none).
    func readsAhead(_ context: ModelContext) throws -> (sent: Int, taken: Int)? {
        guard let postgres = try context.connection() as? PostgresStoreConnection else { return nil }
        return (postgres.readsSentAhead, postgres.readsTakenAhead)
    }

    @Test(arguments: StoreKind.allCases) func batchesReadAheadGiveWhatFetchGives(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 50)
        var descriptors: [FetchDescriptor<Trip>] = [FetchDescriptor(), FetchDescriptor(predicate: #Predicate { $0.name != "trip 0003" })]
        // Windows whose limit and offset cross batches.
        for (offset, limit) in [(0, 23), (5, 17), (12, 50), (49, 3), (0, 0), (60, 5)] {
            var windowed = FetchDescriptor<Trip>(predicate: #Predicate { $0.name != "trip 0020" })
            windowed.fetchOffset = offset
            windowed.fetchLimit = limit
            descriptors.append(windowed)
        }
        for descriptor in descriptors {
            // The oracle: a plain fetch on a context of its own.
            let expected = try store.context().fetch(descriptor).map(\.name)
            for batchSize in [1, 4, 7, 50] {
                let context = store.context()
                var seen: [String] = []
                try context.enumerate(descriptor, batchSize: batchSize) { seen.append($0.name) }
                #expect(seen == expected, "limit \(descriptor.fetchLimit.map(String.init) ?? "-"), offset \(descriptor.fetchOffset.map(String.init) ?? "-"), batch size \(batchSize)")
                if let ahead = try readsAhead(context) {
                    // Every batch after the first full one was sent ahead and taken.
                    let batches = (expected.count + batchSize - 1) / batchSize
                    #expect(ahead.taken == ahead.sent && ahead.taken >= max(0, batches - 1), "batch size \(batchSize): \(ahead)")
                }
            }
        }
        let oneBatch = store.context()
        try oneBatch.enumerate(FetchDescriptor<Trip>(), batchSize: 100) { _ in }
        if let ahead = try readsAhead(oneBatch) { #expect(ahead.sent == 0) }
    }

    @Test(arguments: StoreKind.allCases) func aBlockThatFetchesWhileTheNextBatchIsInFlight(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 30)
        let context = store.context()
        var seen: [String] = []
        var echoes: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 4) { trip in
            seen.append(trip.name)
            let name = trip.name
            // Another read on the same context (the batch read ahead waits in memory meanwhile).
            echoes += try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).map(\.name)
            let count = try context.fetchCount(FetchDescriptor<Trip>())
            #expect(count == 30)
        }
        let expected = try store.context().fetch(FetchDescriptor<Trip>()).map(\.name)
        #expect(seen == expected && echoes == expected)
        if let ahead = try readsAhead(context) { #expect(ahead.taken == ahead.sent && ahead.taken == 7) }
    }

    /// Rows of the next batch deleted and saved by the block, through its own context or another
    /// one, are not visited, though the next batch was sent before the block ran: a read sent
    /// ahead of a write is read again.
    @Test(arguments: StoreKind.allCases) func rowsOfTheNextBatchDeletedAndSavedByTheBlockAreNotVisited(_ kind: StoreKind) throws {
        for sameContext in [true, false] {
            let store = try QueryStore(kind, TripStore.schema)
            try seed(store, 20)
            let context = store.context()
            // By the visit that deletes them: rows of the next batch, and of a later one.
            let deletes: [Int: Set<String>] = [2: ["trip 0005", "trip 0006"], 7: ["trip 0013", "trip 0019"]]
            let doomed = deletes.values.reduce(Set<String>()) { $0.union($1) }
            var seen: [String] = []
            try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in
                seen.append(trip.name)
                guard let names = deletes[seen.count] else { return }
                let deleting = sameContext ? context : store.context()
                for row in try deleting.fetch(FetchDescriptor<Trip>()) where names.contains(row.name) { deleting.delete(row) }
                try deleting.save()
            }
            let expected = (0..<20).map { String(format: "trip %04d", $0) }.filter { !doomed.contains($0) }
            #expect(seen == expected, "deleted through \(sameContext ? "the same context" : "another context")")
            #expect(try store.context().fetch(FetchDescriptor<Trip>()).map(\.name) == expected)
            if let ahead = try readsAhead(context) {
                // Batches 2 and 3 were sent ahead before a save and read again; batch 4 was taken.
                #expect(ahead.sent == 3 && ahead.taken == 1, "\(ahead)")
            }
        }
    }

    /// A PostgreSQL container of two connections has both back, with no result pending and no
    /// transaction open, each reading `trips` trips.
    func expectFreeAndIdle(_ container: ModelContainer, trips: Int) throws {
        guard let driver = container.driver as? PostgresDriver else { return }
        #expect(driver.pool.idleConnectionCount == driver.pool.openConnectionCount)
        let first = try driver.pool.borrow(), second = try driver.pool.borrow()
        for connection in [first, second] {
            #expect(connection.activeStatement == nil && !connection.isInTransaction)
            #expect(try connection.rows("SELECT count(*) FROM \"Trip\"") == [[.integer(Int64(trips))]])
        }
        driver.pool.giveBack(first)
        driver.pool.giveBack(second)
    }

    /// A PostgreSQL context sends the next batch as soon as it has the batch before, before that
    /// batch's models are made (the server runs it meanwhile): a row of the first batch that
    /// cannot be read (an entity the schema does not have) fails the enumeration with the next
    /// batch already sent, and the pool is left free and idle.
    @Test(arguments: StoreKind.allCases) func theNextBatchIsSentBeforeTheModelsAreMade(_ kind: StoreKind) throws {
        let (test, container) = try pooledStore(kind, connections: 2, trips: 20)
        defer { withExtendedLifetime(test) {} }
        try container.makeConnection().execute(#"UPDATE "Trip" SET "$type" = 'Gone' WHERE "name" = 'trip 0003'"#)
        let context = ModelContext(container)
        var visits = 0
        #expect(throws: ModelStoreError.unknownEntity("Gone")) {
            try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { _ in visits += 1 }
        }
        #expect(visits == 0)
        if let ahead = try readsAhead(context) { #expect(ahead.sent == 1 && ahead.taken == 0) }
        try expectFreeAndIdle(container, trips: 20)
        // With the row readable again, the same context enumerates to the end, each batch after
        // the first sent ahead and taken.
        try container.makeConnection().execute(#"UPDATE "Trip" SET "$type" = 'Trip' WHERE "name" = 'trip 0003'"#)
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { names.append($0.name) }
        #expect(names == (0..<20).map { String(format: "trip %04d", $0) })
        if let ahead = try readsAhead(context) { #expect(ahead.sent == 4 && ahead.taken == 3) }
    }

    @Test(arguments: StoreKind.allCases) func anErrorInTheBlockLeavesThePoolFreeAndIdle(_ kind: StoreKind) throws {
        struct Stop: Error {}
        let (test, container) = try pooledStore(kind, connections: 2, trips: 20)
        defer { withExtendedLifetime(test) {} }
        let context = ModelContext(container)
        var visits = 0
        #expect(throws: Stop.self) {
            try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { _ in
                visits += 1
                if visits == 3 { throw Stop() }
            }
        }
        if let ahead = try readsAhead(context) { #expect(ahead.sent == 1 && ahead.taken == 0) }
        try expectFreeAndIdle(container, trips: 20)
        // The context goes on: a save, and an enumeration to the end.
        let extra = Trip(name: "trip 0020", startDate: Day.at(0), endDate: Day.at(1))
        context.insert(extra)
        try context.save()
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { names.append($0.name) }
        #expect(names == (0...20).map { String(format: "trip %04d", $0) })
    }

    /// With a pool of one connection nothing is sent ahead (the block could not run a statement
    /// of another context while the read ahead held the connection): the block's other contexts
    /// read and save as before.
    @Test(arguments: StoreKind.allCases) func aPoolOfOneSendsNothingAhead(_ kind: StoreKind) throws {
        let (test, container) = try pooledStore(kind, connections: 1, trips: 12)
        defer { withExtendedLifetime(test) {} }
        let context = ModelContext(container)
        let other = ModelContext(container)
        var seen: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in
            seen.append(trip.name)
            let count = try other.fetchCount(FetchDescriptor<Trip>())
            #expect(count == 12)
        }
        #expect(seen == (0..<12).map { String(format: "trip %04d", $0) })
        if let ahead = try readsAhead(context) { #expect(ahead.sent == 0) }
    }
}
