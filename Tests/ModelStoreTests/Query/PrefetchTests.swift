import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `relationshipKeyPathsForPrefetching`: the named relationships of the whole result load in one
/// query per relationship (two for a many-to-many), and hold what loading them one by one gives.
@Suite struct PrefetchTests {
    @Test(arguments: StoreKind.allCases) func toManyLoadsInOneQuery(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seedTrips(store.context(), names: (0..<40).map { "trip \($0)" }, stays: 3)
        let lazy = store.context()
        let lazyCounter = try QueryCounter(lazy)
        let expected = try lazy.fetch(FetchDescriptor<Trip>()).map { $0.accommodations.map(\.name) }
        // Without prefetching: one query for the trips, one per trip.
        #expect(lazyCounter.count == 41)

        let context = store.context()
        let counter = try QueryCounter(context)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        let trips = try context.fetch(descriptor)
        #expect(counter.count == 2)
        #expect(trips.map { $0.accommodations.map(\.name) } == expected)
        #expect(counter.count == 2)
    }

    /// Prefetched stays come ordered by owner, then key (the index on the key column, no sort):
    /// each trip's list is still in key order when the stays' keys interleave across trips, a
    /// trip with no stays gets an empty list, and the pending path (owners by key) does the same.
    @Test(arguments: StoreKind.allCases) func eachOwnersListIsInKeyOrderWhenKeysInterleave(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        let setup = store.context()
        let trips = try seedTrips(setup, names: ["a", "b", "c", "none"])
        // Stay keys interleave: a0, b0, c0, a1, b1, c1, … (the last trip has none).
        for round in 0..<4 {
            for trip in trips.prefix(3) {
                let stay = Accommodation(name: "\(trip.name) \(round)")
                setup.insert(stay)
                stay.trip = trip
            }
        }
        try setup.save()
        let expected = [["a 0", "a 1", "a 2", "a 3"], ["b 0", "b 1", "b 2", "b 3"], ["c 0", "c 1", "c 2", "c 3"], []]
        let lazyContext = store.context()
        let lazy = try lazyContext.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(lazy.map { $0.accommodations.map(\.name) } == expected)

        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        let context = store.context()
        let counter = try QueryCounter(context)
        let fetched = try context.fetch(descriptor)
        #expect(fetched.map { $0.accommodations.map(\.name) } == expected)
        #expect(fetched.map { $0.accommodations.map { $0.persistentModelID } } == lazy.map { $0.accommodations.map { $0.persistentModelID } })
        #expect(counter.count == 2)

        // With a pending insert the owners are read by key (`PrefetchOwners.keys`).
        let pending = store.context()
        pending.insert(Trip(name: "new", startDate: Day.at(9), endDate: Day.at(9)))
        let withPending = try pending.fetch(descriptor)
        #expect(withPending.map { $0.accommodations.map(\.name) } == expected + [[]])
    }

    /// A stay changed in memory is not refreshed, so it keeps the owner it had, even after another
    /// context moved its row: that owner's rows come in two runs (the column orders them), and its
    /// list is still in key order, as it was with the rows ordered by key alone.
    @Test(arguments: StoreKind.allCases) func aStayMovedElsewhereKeepsItsChangedOwnersOrder(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        let setup = store.context()
        let trips = try seedTrips(setup, names: ["a", "b", "c"])
        // Keys: moved (a) first, then a 1 (a), b 0 (b), c 0 (c).
        for (name, trip) in [("moved", trips[0]), ("a 1", trips[0]), ("b 0", trips[1]), ("c 0", trips[2])] {
            let stay = Accommodation(name: name)
            setup.insert(stay)
            stay.trip = trip
        }
        try setup.save()

        let context = store.context()
        let stays = try context.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)]))
        let moved = try #require(stays.first { $0.name == "moved" })
        // Changed in memory (unsaved): its stored owner stays a.
        moved.name = "moved, renamed"
        // Another context moves its row to c.
        let other = store.context()
        let otherStay = try #require(try other.fetch(FetchDescriptor<Accommodation>()).first { $0.name == "moved" })
        otherStay.trip = try other.fetch(FetchDescriptor<Trip>()).first { $0.name == "c" }
        try other.save()

        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        let fetched = try context.fetch(descriptor)
        let lists = fetched.map { $0.accommodations.map(\.name) }
        #expect(lists == [["moved, renamed", "a 1"], ["b 0"], ["c 0"]])
    }

    /// A prefetched to-many of a model with another relationship (`Person.pets`, `Person.passport`
    /// the inverse side, so no to-one key and no slots before the prefetch): the slots made for the
    /// list leave the other relationship unloaded, and it loads on first read.
    @Test(arguments: StoreKind.allCases) func prefetchLeavesTheOtherRelationshipsUnloaded(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, Zoo.schema)
        let setup = store.context()
        for name in ["Ann", "Bo"] {
            let person = Person(name: name)
            setup.insert(person)
            person.passport = Passport(number: "P-\(name)")
            for pet in 0..<2 {
                let animal = Animal(name: "\(name)'s pet \(pet)")
                setup.insert(animal)
                animal.keeper = person
            }
        }
        try setup.save()
        let context = store.context()
        let counter = try QueryCounter(context)
        var descriptor = FetchDescriptor<Person>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.pets]
        let people = try context.fetch(descriptor)
        #expect(people.map { $0.pets.map(\.name) } == [["Ann's pet 0", "Ann's pet 1"], ["Bo's pet 0", "Bo's pet 1"]])
        #expect(counter.count == 2)
        #expect(people.map { $0.passport?.number } == ["P-Ann", "P-Bo"])
        #expect(counter.count == 4)
    }

    @Test(arguments: StoreKind.allCases) func toOneLoadsInOneQueryAndWindowsKeepTheirOwners(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seedTrips(store.context(), names: (0..<30).map { "trip \($0)" }, stays: 2)
        let context = store.context()
        let counter = try QueryCounter(context)
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

    @Test(arguments: StoreKind.allCases) func manyToManyLoadsInTwoQueries(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, Shop.schema)
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
        let counter = try QueryCounter(context)
        var descriptor = FetchDescriptor<Product>()
        descriptor.relationshipKeyPathsForPrefetching = [\.tags, \.category]
        let products = try context.fetch(descriptor)
        // The products, the links and the tags; no category is set, so no query for them.
        #expect(counter.count == 3)
        #expect(products.map { $0.tags.map(\.label) } == expected)
        #expect(products.allSatisfy { $0.category == nil })
        #expect(counter.count == 3)
    }

    @Test(arguments: StoreKind.allCases) func relationshipsInMemoryAreKept(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
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

    @Test(arguments: StoreKind.allCases) func aKeyPathThatIsNoRelationshipIsAnError(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.name]
        #expect {
            _ = try store.context().fetch(descriptor)
        } throws: { error in
            guard case ModelStoreError.invalidFetch(let message) = error else { return false }
            return message.hasPrefix("relationshipKeyPathsForPrefetching[0]") && message.hasSuffix("is not a relationship of Trip (accommodations)")
        }
    }

    @Test(arguments: StoreKind.allCases) func batchesPrefetchEachBatch(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seedTrips(store.context(), names: (0..<20).map { "trip \($0)" }, stays: 2)
        let context = store.context()
        let counter = try QueryCounter(context)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        var stays = 0
        try context.enumerate(descriptor, batchSize: 8) { stays += $0.accommodations.count }
        #expect(stays == 40)
        // The largest key at the start (enumerate visits the rows that matched then: docs/Runtime.md,
        // "Batches"), then three batches: each one query for the trips and one for their stays.
        #expect(counter.count == 7)
    }
}
