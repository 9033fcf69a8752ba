import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #20, item 4: a save that changes a row another context deleted throws, naming the model,
/// writes nothing, and the context keeps its changes (SwiftData's save fails too). Deleting a row
/// another context deleted is no error: what was asked holds, and nothing is lost (item 10).
@Suite struct DeletedElsewhereTests {
    /// Two contexts holding the same saved trip; A deletes it and saves.
    func deletedByA(_ store: MisuseStore) throws -> (b: ModelContext, trip: Trip) {
        let seed = store.context()
        seed.insert(Trip(name: "Gone", startDate: Day.at(1), endDate: Day.at(2)))
        seed.insert(Trip(name: "Kept", startDate: Day.at(3), endDate: Day.at(4)))
        try seed.save()
        let (a, b) = (store.context(), store.context())
        let trip = try #require(b.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Gone" })).first)
        let doomed = try #require(a.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Gone" })).first)
        a.delete(doomed)
        try a.save()
        return (b, trip)
    }

    @Test("Changing a row another context deleted: the save throws and the change stays pending", arguments: StoreKind.allCases)
    func updateOfDeletedRow(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let (b, trip) = try deletedByA(store)
        trip.name = "Renamed"
        b.insert(Trip(name: "New", startDate: Day.at(5), endDate: Day.at(6)))
        let before = try store.rows("Trip")
        #expect(throws: ModelStoreError.rowMissing(entity: "Trip", identifier: trip.persistentModelID)) { try b.save() }
        #expect(b.hasChanges && trip.hasChanges)
        #expect(trip.name == "Renamed" && b.insertedModelsArray.count == 1)
        #expect(try store.rows("Trip") == before, "the failed save wrote something")
        #expect(throws: ModelStoreError.self) { try b.save() }  // still pending, still refused
        b.rollback()
        #expect(!b.hasChanges)
    }

    @Test("Deleting a row another context deleted is no error: the row is gone, as asked, and deleted once", arguments: StoreKind.allCases)
    func deleteOfDeletedRow(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let (b, trip) = try deletedByA(store)
        b.delete(trip)
        let kept = try #require(b.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Kept" })).first)
        kept.name = "Kept 2"
        try b.save()
        #expect(!b.hasChanges && trip.isDeleted && trip.modelContext == nil)
        #expect(try store.context().fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kept 2"])
        // One deletion in the history (with its tombstone), not two (#20, item 10).
        #expect(try store.raw().rows("SELECT count(*) FROM \"$history_changes\" WHERE kind = 2") == [[.integer(1)]])
    }

    @Test("The error names the entity and the identifier")
    func message() {
        let error = ModelStoreError.rowMissing(entity: "Trip", identifier: PersistentIdentifier(entityName: "Trip", rowID: 7, store: nil))
        #expect(error.description.contains("Trip Trip/7"))
        #expect(error.description.contains("changes stay pending"))
    }
}
