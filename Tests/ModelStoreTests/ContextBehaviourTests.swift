import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Identity map, change tracking, rollback, model(for:), transaction.
@Suite struct ContextBehaviourTests {
    /// The test's store, with a container on it and a context.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        try StoreFixture(kind, TripStore.schema)
    }

    func seed(_ fixture: StoreFixture) throws {
        let container = fixture.container
        let context = ModelContext(container)
        let trip = Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2))
        trip.accommodations = [Accommodation(name: "Inn")]
        context.insert(trip)
        context.insert(BusinessTrip(name: "Fair", startDate: Day.at(5), endDate: Day.at(6), company: "Acme"))
        try context.save()
    }

    @Test(arguments: StoreKind.allCases) func fetchingARowTwiceGivesTheSameInstance(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        try seed(fixture)
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

    @Test(arguments: StoreKind.allCases) func hasChangesFollowsInsertsChangesDeletesAndSaves(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
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

    @Test(arguments: StoreKind.allCases) func rollbackRestoresSavedValuesAndForgetsInsertsAndDeletes(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        try seed(fixture)
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

    @Test(arguments: StoreKind.allCases) func changesOfSavedModelsAreWritten(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        try seed(fixture)
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

    @Test(arguments: StoreKind.allCases) func transactionSavesOrRollsBack(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
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

    @Test(arguments: StoreKind.allCases) func insertingAModelOfAnotherSchemaFailsAtSave(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: Schema([Accommodation.self])))
        context.insert(Itinerary(title: "x"))
        #expect(throws: ModelStoreError.self) { try context.save() }
    }

    @Test(arguments: StoreKind.allCases) func batchDeleteMarksMatchingModelsForTheNextSave(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        try seed(fixture)
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

    /// Models kept after their context is gone find no context: `modelContext` is nil, and
    /// changing an attribute (change tracking), a relationship and an observed property (the
    /// two-thread guard) reach no context. The context's link does not keep it alive (it is not a
    /// weak reference, but for a main context: `ContextLink`), so the context's `deinit` clears it;
    /// the memory the context freed is reused in between, so a stale link would show here.
    @Test(arguments: StoreKind.allCases) func modelsKeptAfterTheirContextFindNone(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        try seed(fixture)
        weak var gone: ModelContext?
        func modelsOfAContext() throws -> (walk: Trip, inn: Accommodation, fair: BusinessTrip) {
            let context = ModelContext(fixture.container)
            gone = context
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            let walk = try #require(trips.first { $0.name == "Walk" })
            let fair = try #require(trips.first { $0 is BusinessTrip } as? BusinessTrip)
            let inn = try #require(walk.accommodations.first)
            fair.company = "Changed, not saved"
            #expect(walk.modelContext === context && fair.hasChanges)
            return (walk, inn, fair)
        }
        let (walk, inn, fair) = try modelsOfAContext()
        #expect(gone == nil, "nothing but the test held the context")
        let filler = (0..<2_000).map { ModelContext(fixture.container).author ?? "\($0) \(UUID().uuidString)" }
        #expect(filler.count == 2_000)
        #expect(walk.modelContext == nil && inn.modelContext == nil && fair.modelContext == nil)
        let changes = Locked(0)
        withObservationTracking { _ = walk.name } onChange: { changes.withLock { $0 += 1 } }
        walk.name = "Walk, kept"
        fair.company = "Changed again"
        inn.trip = nil
        #expect(walk.name == "Walk, kept" && fair.company == "Changed again" && inn.trip == nil)
        #expect(changes.value == 1)
        #expect(walk.modelContext == nil && inn.modelContext == nil && fair.modelContext == nil)
        // The store holds what was saved.
        let names = try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Fair", "Walk"])
    }
}

/// Looking models up by identifier.
@Suite struct IdentifierLookupTests {
    @Test(arguments: StoreKind.allCases) func modelForIdentifierFindsInsertedSavedAndStoredModels(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let container = fixture.container
        let context = fixture.context
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
    @MainActor @Test(arguments: StoreKind.allCases) func mainContextIsOneContextPerContainer(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
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

    /// A main context's models kept after its container is gone find no context (its link stays
    /// a weak reference: the container, `Sendable`, may go on another thread), and can still be
    /// read and changed.
    @MainActor @Test(arguments: StoreKind.allCases) func mainContextModelsKeptAfterTheContainerFindNone(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        weak var released: ModelContainer?
        weak var gone: ModelContext?
        let trip = Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2))
        do {
            let container = try ModelContainer(for: Trip.self, configurations: store.configuration)
            container.mainContext.insert(trip)
            try container.mainContext.save()
            trip.name = "Walk, changed"
            #expect(trip.modelContext === container.mainContext && trip.hasChanges)
            released = container
            gone = container.mainContext
        }
        #expect(released == nil && gone == nil)
        #expect(trip.modelContext == nil)
        trip.name = "Walk, kept"
        #expect(trip.name == "Walk, kept" && trip.modelContext == nil)
    }
}
