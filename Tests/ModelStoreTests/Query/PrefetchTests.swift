import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `relationshipKeyPathsForPrefetching`: the named relationships of the whole result load in one
/// query per relationship (two for a many-to-many), and hold what loading them one by one gives.
@Suite struct PrefetchTests {
    @Test func toManyLoadsInOneQuery() throws {
        let store = try QueryStore(TripStore.schema)
        try seedTrips(store.context(), names: (0..<40).map { "trip \($0)" }, stays: 3)
        let lazy = store.context()
        guard let lazyCounter = try QueryCounter(lazy) else { return }
        let expected = try lazy.fetch(FetchDescriptor<Trip>()).map { $0.accommodations.map(\.name) }
        // Without prefetching: one query for the trips, one per trip.
        #expect(lazyCounter.count == 41)

        let context = store.context()
        guard let counter = try QueryCounter(context) else { return }
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        let trips = try context.fetch(descriptor)
        #expect(counter.count == 2)
        #expect(trips.map { $0.accommodations.map(\.name) } == expected)
        #expect(counter.count == 2)
    }

    @Test func toOneLoadsInOneQueryAndWindowsKeepTheirOwners() throws {
        let store = try QueryStore(TripStore.schema)
        try seedTrips(store.context(), names: (0..<30).map { "trip \($0)" }, stays: 2)
        let context = store.context()
        guard let counter = try QueryCounter(context) else { return }
        var descriptor = FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name, order: .reverse)])
        descriptor.fetchOffset = 7
        descriptor.fetchLimit = 20
        descriptor.relationshipKeyPathsForPrefetching = [\.trip]
        let stays = try context.fetch(descriptor)
        #expect(counter.count == 2)
        let tripNames = stays.map { $0.trip?.name }
        #expect(counter.count == 2)
        #expect(tripNames == stays.map { $0.name.components(separatedBy: " stay").first })
        // Only the window's trips were read.
        #expect(context.registeredCount == 20 + Set(tripNames).count)
    }

    @Test func manyToManyLoadsInTwoQueries() throws {
        let store = try QueryStore(Shop.schema)
        let setup = store.context()
        let tags = ["a", "b", "c", "d"].map { Tag(label: $0) }
        tags.forEach(setup.insert)
        for index in 0..<12 {
            let product = Product(sku: "P\(index)", name: "product \(index)", price: 1)
            setup.insert(product)
            product.tags = tags.enumerated().filter { (index + $0.offset) % 3 != 0 }.map(\.element)
        }
        try setup.save()
        let lazy = store.context()
        let expected = try lazy.fetch(FetchDescriptor<Product>()).map { $0.tags.map(\.label) }
        #expect(expected.allSatisfy { $0.count >= 2 })
        let context = store.context()
        guard let counter = try QueryCounter(context) else { return }
        var descriptor = FetchDescriptor<Product>()
        descriptor.relationshipKeyPathsForPrefetching = [\.tags, \.category]
        let products = try context.fetch(descriptor)
        // The products, the links and the tags; no category is set, so no query for them.
        #expect(counter.count == 3)
        #expect(products.map { $0.tags.map(\.label) } == expected)
        #expect(products.allSatisfy { $0.category == nil })
        #expect(counter.count == 3)
    }

    @Test func relationshipsInMemoryAreKept() throws {
        let store = try QueryStore(TripStore.schema)
        try seedTrips(store.context(), names: ["a", "b"], stays: 2)
        let context = store.context()
        let trips = try context.fetch(FetchDescriptor<Trip>())
        // Move a stay from a to b in memory (unsaved), and add a new one to a.
        let moved = trips[0].accommodations[0]
        moved.trip = trips[1]
        let new = Accommodation(name: "new")
        context.insert(new)
        new.trip = trips[0]
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        let again = try context.fetch(descriptor)
        #expect(again.map { $0.accommodations.map(\.name) } == [["a stay 1", "new"], ["b stay 0", "b stay 1", "a stay 0"]])
        // Through the pending path too (a new trip), and for to-one.
        context.insert(Trip(name: "c", startDate: Day.at(0), endDate: Day.at(0)))
        var stays = FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)])
        stays.relationshipKeyPathsForPrefetching = [\.trip]
        let fetchedStays = try context.fetch(stays)
        // "a stay 0" (moved to b), "a stay 1", "b stay 0", "b stay 1", "new" (of a).
        #expect(fetchedStays.map { $0.trip?.name } == ["b", "a", "b", "b", "a"])
        #expect(try context.fetch(descriptor).map(\.name) == ["a", "b", "c"])
    }

    @Test func aKeyPathThatIsNoRelationshipIsAnError() throws {
        let store = try QueryStore(TripStore.schema)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.name]
        #expect {
            _ = try store.context().fetch(descriptor)
        } throws: { error in
            guard case ModelStoreError.invalidFetch(let message) = error else { return false }
            return message.hasPrefix("relationshipKeyPathsForPrefetching[0]") && message.hasSuffix("is not a relationship of Trip (accommodations)")
        }
    }

    @Test func batchesPrefetchEachBatch() throws {
        let store = try QueryStore(TripStore.schema)
        try seedTrips(store.context(), names: (0..<20).map { "trip \($0)" }, stays: 2)
        let context = store.context()
        guard let counter = try QueryCounter(context) else { return }
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        var stays = 0
        try context.enumerate(descriptor, batchSize: 8) { stays += $0.accommodations.count }
        #expect(stays == 40)
        // Three batches: each one query for the trips and one for their stays.
        #expect(counter.count == 6)
    }
}
