import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// What a fetched model starts with: its relationship slots and Observation registrar are made
/// only when needed, and the identity map still gives one instance per row.
@Suite struct FetchedModelStateTests {
    let container: ModelContainer

    init() throws {
        container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let trip = PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(2), reason: .adventure)
        context.insert(trip)
        let stay = Accommodation(name: "Hut")
        context.insert(stay)
        stay.trip = trip
        context.insert(BusinessTrip(name: "Fair", startDate: Day.at(3), endDate: Day.at(4), company: "Acme"))
        try context.save()
    }

    @Test func fetchedModelsHaveNoSlotsOrRegistrarUntilUsed() throws {
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 2)
        #expect(trips.allSatisfy { $0.slots.isEmpty && $0.registrar == nil })
        let stays = try context.fetch(FetchDescriptor<Accommodation>())
        #expect(stays.allSatisfy { !$0.slots.isEmpty }, "a row with a to-one key keeps it in its slots")
        let beach = try #require(trips.first { $0.name == "Beach" })
        #expect(beach.registrar != nil, "reading a property makes the registrar")
        #expect(beach.accommodations.map(\.name) == ["Hut"])
        #expect(stays.first?.trip === beach)
    }

    @Test func aFreshContextsMapGivesTheSameInstancesOnTheNextFetch() throws {
        let context = ModelContext(container)
        let first = try context.fetch(FetchDescriptor<Trip>())
        let second = try context.fetch(FetchDescriptor<Trip>())
        #expect(first.count == 2 && second.count == 2)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        let business = try #require(try context.fetch(FetchDescriptor<BusinessTrip>()).first)
        #expect(first.contains { $0 === business })
    }

    @Test func changesBeforeAnyObserverAreKeptAndLaterChangesReported() throws {
        let context = ModelContext(container)
        let trip = try #require(try context.fetch(FetchDescriptor<PersonalTrip>()).first)
        trip.companions = ["Ann"]
        #expect(trip.hasChanges)
        let changed = LockedFlag()
        withObservationTracking {
            _ = trip.companions
            _ = trip.accommodations
        } onChange: {
            changed.set()
        }
        #expect(trip.companions == ["Ann"] && trip.reason == .adventure)
        let stay = Accommodation(name: "Tent")
        context.insert(stay)
        stay.trip = trip
        #expect(changed.value, "adding to an observed to-many reports")
        try context.save()
        let fresh = ModelContext(container)
        let reread = try #require(try fresh.fetch(FetchDescriptor<PersonalTrip>()).first)
        #expect(reread.companions == ["Ann"])
        #expect(reread.accommodations.map(\.name).sorted() == ["Hut", "Tent"])
    }
}
