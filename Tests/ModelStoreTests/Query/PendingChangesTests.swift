import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `includePendingChanges`: fetches, counts, identifiers and batch deletes see the context's
/// unsaved inserts, changes and deletions, filtered and ordered as stored rows are.
@Suite struct PendingChangesTests {
    let store: QueryStore

    init() throws {
        store = try QueryStore(TripStore.schema)
    }

    /// The story of issue #13: data-generation code (as in Apple's samples) inserts models, then
    /// fetches them to relate others before anything is saved.
    @Test func dataGenerationFindsWhatItInsertedBeforeSaving() throws {
        let context = store.context()
        for (index, name) in ["Tokyo", "Paris", "Lima"].enumerated() {
            context.insert(Trip(name: name, startDate: Day.at(index), endDate: Day.at(index + 3)))
        }
        // The samples write `.first!` here; without pending changes in fetches that crashed.
        let paris = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Paris" })).first)
        for name in ["Hôtel du Nord", "Ritz"] {
            let stay = Accommodation(name: name)
            context.insert(stay)
            stay.trip = paris
        }
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 3)
        #expect(try context.fetchCount(FetchDescriptor<Accommodation>(predicate: #Predicate { $0.trip?.name == "Paris" })) == 2)
        let sorted = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(sorted.map(\.name) == ["Lima", "Paris", "Tokyo"])
        try context.save()
        let check = store.context()
        #expect(try check.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)])).map { $0.trip?.name } == ["Paris", "Paris"])
    }

    @Test func insertedModelsAreFilteredAndOrderedAmongStoredRows() throws {
        let context = store.context()
        try seedTrips(context, names: ["b", "d", "c"])
        let a = Trip(name: "a", startDate: Day.at(9), endDate: Day.at(9))
        let c = Trip(name: "c", startDate: Day.at(9), endDate: Day.at(9))
        let e = Trip(name: "e", startDate: Day.at(9), endDate: Day.at(9))
        for trip in [e, c, a] { context.insert(trip) }
        let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        // The stored "c" (saved first) before the new one.
        try #require(all.map(\.name) == ["a", "b", "c", "c", "d", "e"])
        #expect(all[3] === c && all[2] !== c)
        let before = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name < "d" }, sortBy: [SortDescriptor(\.name, order: .reverse)]))
        #expect(before.map(\.name) == ["c", "c", "b", "a"])
        // Without a sort: stored rows in key order, then new models in insertion order.
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["b", "d", "c", "e", "c", "a"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.name < "d" })) == 4)
    }

    @Test func changedModelsAreJudgedOnTheirValuesInMemory() throws {
        let context = store.context()
        let trips = try seedTrips(context, names: ["a", "b", "c"])
        trips[1].name = "z"        // no longer matches
        trips[2].name = "0"        // now first
        let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name < "x" }, sortBy: [SortDescriptor(\.name)])
        #expect(try context.fetch(descriptor).map(\.name) == ["0", "a"])
        #expect(try context.fetchCount(descriptor) == 2)
        #expect(try context.fetchIdentifiers(descriptor) == [trips[2].persistentModelID, trips[0].persistentModelID])
    }

    @Test func deletedModelsAreLeftOut() throws {
        let context = store.context()
        let trips = try seedTrips(context, names: ["a", "b", "c"])
        context.delete(trips[0])
        let inserted = Trip(name: "d", startDate: Day.at(0), endDate: Day.at(0))
        context.insert(inserted)
        context.delete(inserted)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["b", "c"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
        #expect(try context.fetchIdentifiers(FetchDescriptor<Trip>()).count == 2)
    }

    @Test func limitAndOffsetApplyToTheMergedResult() throws {
        let context = store.context()
        try seedTrips(context, names: ["b", "d", "f", "h"])
        for name in ["a", "e", "i"] { context.insert(Trip(name: name, startDate: Day.at(0), endDate: Day.at(0))) }
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 4
        #expect(try context.fetch(descriptor).map(\.name) == ["b", "d", "e", "f"])
        #expect(try context.fetchCount(descriptor) == 4)
        descriptor.fetchOffset = 5
        #expect(try context.fetch(descriptor).map(\.name) == ["h", "i"])
        #expect(try context.fetchCount(descriptor) == 2)
        #expect(try context.fetchIdentifiers(descriptor).count == 2)
    }

    @Test func withoutPendingChangesTheStoreAnswers() throws {
        let context = store.context()
        let trips = try seedTrips(context, names: ["a", "b", "c"])
        trips[0].name = "z"
        context.delete(trips[1])
        context.insert(Trip(name: "a2", startDate: Day.at(0), endDate: Day.at(0)))
        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name < "b2" })
        descriptor.includePendingChanges = false
        // Stored values decide: the renamed trip still matches as "a", the deleted one is still stored.
        #expect(try context.fetch(descriptor).map { $0 === trips[0] || $0 === trips[1] } == [true, true])
        #expect(try context.fetchCount(descriptor) == 2)
        #expect(try context.fetchIdentifiers(descriptor) == [trips[0].persistentModelID, trips[1].persistentModelID])
        descriptor.includePendingChanges = true
        #expect(try context.fetch(descriptor).map(\.name) == ["a2"])
    }

    @Test func aChangedRelatedModelChangesTheAnswerOfStoredRows() throws {
        let context = store.context()
        let trips = try seedTrips(context, names: ["Lima", "Paris", "Oslo"], stays: 2)
        let fresh = store.context()
        let paris = #Predicate<Accommodation> { $0.trip?.name == "Paris" }
        #expect(try fresh.fetchCount(FetchDescriptor(predicate: paris)) == 2)
        // Renaming a trip in memory changes which stored stays match, and their order.
        let lima = try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lima" }))[0]
        lima.name = "Paris"
        #expect(try fresh.fetch(FetchDescriptor(predicate: paris)).map(\.name).sorted() == ["Lima stay 0", "Lima stay 1", "Paris stay 0", "Paris stay 1"])
        #expect(try fresh.fetchCount(FetchDescriptor(predicate: paris)) == 4)
        let byTrip = try fresh.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.trip?.name), SortDescriptor(\.name)]))
        #expect(byTrip.map(\.name) == ["Oslo stay 0", "Oslo stay 1", "Lima stay 0", "Lima stay 1", "Paris stay 0", "Paris stay 1"])
        #expect(trips.count == 3)
    }

    @Test func toManyPredicatesSeeNewAndChangedRelatedModels() throws {
        let context = store.context()
        try seedTrips(context, names: ["Lima", "Paris", "Oslo"], stays: 1)
        let fresh = store.context()
        let hostel = #Predicate<Trip> { trip in trip.accommodations.contains { $0.name == "Hostel" } }
        #expect(try fresh.fetchCount(FetchDescriptor(predicate: hostel)) == 0)
        let stays = try fresh.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)]))
        stays[0].name = "Hostel"           // Lima's stay, renamed: Lima matches
        let added = Accommodation(name: "Hostel")
        fresh.insert(added)
        let oslo = try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" }))[0]
        added.trip = oslo                   // a new stay of Oslo: Oslo matches
        #expect(try fresh.fetch(FetchDescriptor(predicate: hostel, sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Lima", "Oslo"])
        #expect(try fresh.fetchCount(FetchDescriptor(predicate: hostel)) == 2)
    }

    @Test func aSubclassFetchSeesOnlyItsOwnNewModels() throws {
        let context = store.context()
        context.insert(Trip(name: "plain", startDate: Day.at(0), endDate: Day.at(0)))
        context.insert(BusinessTrip(name: "work", startDate: Day.at(0), endDate: Day.at(0), company: "Acme"))
        context.insert(PersonalTrip(name: "rest", startDate: Day.at(0), endDate: Day.at(0), reason: .vacation))
        #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).map(\.name) == ["work"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 3)
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0 is PersonalTrip })).map(\.name) == ["rest"])
    }

    @Test func batchDeleteSeesPendingChanges() throws {
        let context = store.context()
        let trips = try seedTrips(context, names: ["a", "b", "c"])
        trips[0].name = "old"                      // now matches
        trips[1].name = "keep"                     // the stored "b" matched; no longer
        let new = Trip(name: "old", startDate: Day.at(0), endDate: Day.at(0))
        context.insert(new)
        try context.delete(model: Trip.self, where: #Predicate { $0.name == "old" || $0.name == "b" })
        #expect(trips[0].isDeleted && !trips[1].isDeleted && !trips[2].isDeleted && new.modelContext == nil)
        try context.save()
        #expect(try store.context().fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["c", "keep"])
    }

    @Test func nothingPendingIsOneQueryAndPendingElsewhereIsToo() throws {
        let context = store.context()
        try seedTrips(context, names: ["a", "b", "c"], stays: 1)
        let fresh = store.context()
        guard let counter = try QueryCounter(fresh) else { return }
        let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name != "b" }, sortBy: [SortDescriptor(\.name)])
        _ = try fresh.fetch(descriptor)
        _ = try fresh.fetchCount(descriptor)
        _ = try fresh.fetchIdentifiers(descriptor)
        #expect(counter.count == 3)
        // A change the fetch cannot see (a stay, while the trips' predicate and sort stay on trips).
        let stay = try fresh.fetch(FetchDescriptor<Accommodation>())[0]
        stay.name = "renamed"
        counter.reset()
        _ = try fresh.fetch(descriptor)
        _ = try fresh.fetchCount(descriptor)
        #expect(counter.count == 2)
    }

    @Test func aLimitedFetchWithPendingChangesReadsAWindowNotTheTable() throws {
        let context = store.context()
        try seedTrips(context, names: (0..<1_000).map { String(format: "trip %04d", $0) })
        let fresh = store.context()
        let changed = try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 0500" }))[0]
        changed.name = "trip 0000a"
        fresh.insert(Trip(name: "trip 0001a", startDate: Day.at(0), endDate: Day.at(0)))
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.fetchLimit = 5
        #expect(try fresh.fetch(descriptor).map(\.name) == ["trip 0000", "trip 0000a", "trip 0001", "trip 0001a", "trip 0002"])
        // The window's stored rows and the changed model: not a thousand models.
        #expect(fresh.registeredCount <= 6)
    }

    @Test func identifiersAreReadWithoutMakingModels() throws {
        let context = store.context()
        let trips = try seedTrips(context, names: ["b", "a"])
        let fresh = store.context()
        let ids = try fresh.fetchIdentifiers(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(ids == [trips[1].persistentModelID, trips[0].persistentModelID])
        #expect(fresh.registeredCount == 0)
        let new = BusinessTrip(name: "aa", startDate: Day.at(0), endDate: Day.at(0), company: "Acme")
        fresh.insert(new)
        let merged = try fresh.fetchIdentifiers(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(merged == [trips[1].persistentModelID, new.persistentModelID, trips[0].persistentModelID])
        #expect(merged[1].isTemporary && merged[1].entityName == "BusinessTrip")
    }
}
