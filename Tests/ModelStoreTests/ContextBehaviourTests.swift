import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Identity map, change tracking, rollback, model(for:), transaction.
@Suite struct ContextBehaviourTests {
    let store: TemporaryStore
    let container: ModelContainer

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
    }

    func seed() throws {
        let context = ModelContext(container)
        let trip = Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2))
        trip.accommodations = [Accommodation(name: "Inn")]
        context.insert(trip)
        context.insert(BusinessTrip(name: "Fair", startDate: Day.at(5), endDate: Day.at(6), company: "Acme"))
        try context.save()
    }

    @Test func fetchingARowTwiceGivesTheSameInstance() throws {
        try seed()
        let context = ModelContext(container)
        let first = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let second = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(first.count == 2)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        let business = try context.fetch(FetchDescriptor<BusinessTrip>())
        #expect(business.first === first.first { $0 is BusinessTrip })
        // Through a relationship and through model(for:) too.
        let walk = try #require(first.first { $0.name == "Walk" })
        let inn = try #require(walk.accommodations.first)
        #expect(inn.trip === walk)
        #expect(context.model(for: walk.persistentModelID) as? Trip === walk)
        // Another context has its own instances.
        let other = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(other[0] !== first[0])
    }

    @Test func hasChangesFollowsInsertsChangesDeletesAndSaves() throws {
        let context = ModelContext(container)
        #expect(!context.hasChanges)
        let trip = Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2))
        #expect(!trip.hasChanges)
        context.insert(trip)
        #expect(context.hasChanges && trip.hasChanges)
        #expect(trip.modelContext === context)
        #expect(trip.persistentModelID.isTemporary)
        try context.save()
        #expect(!context.hasChanges && !trip.hasChanges)
        #expect(!trip.persistentModelID.isTemporary)
        trip.name = "Long walk"
        #expect(context.hasChanges && trip.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        context.delete(trip)
        #expect(context.hasChanges && trip.isDeleted)
        try context.save()
        #expect(!context.hasChanges && trip.isDeleted)
        #expect(trip.modelContext == nil)
    }

    @Test func rollbackRestoresSavedValuesAndForgetsInsertsAndDeletes() throws {
        try seed()
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let fair = try #require(trips[0] as? BusinessTrip)
        let walk = trips[1]
        fair.company = "Other"
        fair.name = "Renamed"
        context.delete(walk)
        let extra = Trip(name: "Extra", startDate: Day.at(9), endDate: Day.at(9))
        context.insert(extra)
        let inn = try #require(walk.accommodations.first)
        inn.trip = fair
        #expect(fair.accommodations.count == 1)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(fair.company == "Acme" && fair.name == "Fair")
        #expect(!walk.isDeleted)
        #expect(extra.modelContext == nil)
        #expect(inn.trip === walk)
        #expect(fair.accommodations.isEmpty)
        #expect(walk.accommodations.map(\.name) == ["Inn"])
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    @Test func changesOfSavedModelsAreWritten() throws {
        try seed()
        do {
            let context = ModelContext(container)
            let fair = try #require(try context.fetch(FetchDescriptor<BusinessTrip>()).first)
            fair.meetingAgenda = "Demo"
            fair.endDate = Day.at(7)
            try context.save()
        }
        let fair = try #require(try ModelContext(container).fetch(FetchDescriptor<BusinessTrip>()).first)
        #expect(fair.meetingAgenda == "Demo")
        #expect(fair.endDate == Day.at(7))
    }

    @Test func transactionSavesOrRollsBack() throws {
        let context = ModelContext(container)
        try context.transaction {
            context.insert(Trip(name: "A", startDate: Day.at(1), endDate: Day.at(1)))
        }
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try context.transaction {
                context.insert(Trip(name: "B", startDate: Day.at(1), endDate: Day.at(1)))
                throw Stop()
            }
        }
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func insertingAModelOfAnotherSchemaFailsAtSave() throws {
        let container = try ModelContainer(for: Accommodation.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Itinerary(title: "x"))
        #expect(throws: ModelStoreError.self) { try context.save() }
    }

    @Test func batchDeleteMarksMatchingModelsForTheNextSave() throws {
        try seed()
        let context = ModelContext(container)
        try context.delete(model: Trip.self, includeSubclasses: false)
        #expect(context.hasChanges)
        try context.save()
        let left = try context.fetch(FetchDescriptor<Trip>())
        #expect(left.map(\.name) == ["Fair"])
        try context.delete(model: Trip.self)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    }
}

/// Looking models up by identifier.
@Suite struct IdentifierLookupTests {
    @Test func modelForIdentifierFindsInsertedSavedAndStoredModels() throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let trip = BusinessTrip(name: "Fair", startDate: Day.at(1), endDate: Day.at(2), company: "Acme")
        context.insert(trip)
        let temporary = trip.persistentModelID
        #expect(context.model(for: temporary) as? BusinessTrip === trip)
        try context.save()
        let permanent = trip.persistentModelID
        #expect(permanent != temporary && permanent.entityName == "BusinessTrip")
        #expect((context.registeredModel(for: permanent) as BusinessTrip?) === trip)
        let other = ModelContext(container)
        #expect(other.registeredModel(for: permanent) as BusinessTrip? == nil)
        let loaded = try #require(other.model(for: permanent) as? BusinessTrip)
        #expect(loaded.company == "Acme" && loaded !== trip)
        let encoded = try JSONEncoder().encode(permanent)
        #expect(try JSONDecoder().decode(PersistentIdentifier.self, from: encoded) == permanent)
    }
}

/// The container's main-actor context.
@Suite struct MainContextTests {
    @MainActor @Test func mainContextIsOneContextPerContainer() throws {
        let store = try TemporaryStore()
        weak var released: ModelContainer?
        do {
            let container = try ModelContainer(for: Trip.self, configurations: store.configuration)
            #expect(container.mainContext === container.mainContext)
            container.mainContext.insert(Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2)))
            try container.mainContext.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
            released = container
        }
        #expect(released == nil, "the main context does not keep its container alive")
    }
}
