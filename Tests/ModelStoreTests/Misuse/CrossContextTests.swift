import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #20, items 3 and 5: models of two contexts are never related, and a model of one context is
/// never inserted into (or deleted from) another. Such a save throws, writes nothing, and keeps
/// throwing while the cross-context relationship exists (SwiftData traps at that save).
@Suite struct CrossContextTests {
    @Test("To-one: a model of B related to an unsaved model of A makes both saves throw, nothing written", arguments: StoreKind.allCases)
    func toOneAcrossContexts(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let (a, b) = (store.context(), store.context())
        let trip = Trip(name: "Rome", startDate: Day.at(1), endDate: Day.at(2))
        a.insert(trip)
        let inn = Accommodation(name: "Inn")
        b.insert(inn)
        try b.save()

        inn.trip = trip  // B's inn, A's trip
        let expected = ModelStoreError.relationshipAcrossContexts(entity: "Accommodation", relationship: "trip", relatedEntity: "Trip")
        #expect(throws: expected) { try b.save() }
        #expect(throws: ModelStoreError.relationshipAcrossContexts(entity: "Trip", relationship: "accommodations", relatedEntity: "Accommodation")) {
            try a.save()
        }
        // It keeps failing: no later save stores the link half.
        #expect(throws: expected) { try b.save() }
        #expect(a.hasChanges && b.hasChanges)
        #expect(try store.rows("Trip").isEmpty)
        #expect(try store.rows("Accommodation").map { $0.last } == [.null])

        // Relating the model of A's own context instead works, once B lets go of its change.
        b.rollback()
        trip.accommodations = []
        let innOfA = try #require(a.model(for: inn.persistentModelID) as? Accommodation)
        innOfA.trip = trip
        try a.save()
        try b.save()
        let reader = store.context()
        let stored = try #require(reader.fetch(FetchDescriptor<Accommodation>()).first)
        #expect(stored.trip?.name == "Rome")
    }

    @Test("Many-to-many: linking models of two contexts makes both saves throw, no link stored", arguments: StoreKind.allCases)
    func manyToManyAcrossContexts(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let (a, b) = (store.context(), store.context())
        let sale = Tag(label: "sale")
        a.insert(sale)
        let lamp = Product(sku: "L-1", name: "Lamp", price: 20)
        b.insert(lamp)
        try b.save()

        lamp.tags = [sale]
        #expect(throws: ModelStoreError.relationshipAcrossContexts(entity: "Product", relationship: "tags", relatedEntity: "Tag")) { try b.save() }
        #expect(throws: ModelStoreError.relationshipAcrossContexts(entity: "Tag", relationship: "products", relatedEntity: "Product")) { try a.save() }
        #expect(try store.rows("Tag").isEmpty)
        #expect(try store.rows("Product.tags").isEmpty)
        #expect(a.hasChanges && b.hasChanges)

        // Undone on both sides, each context saves what is its own.
        lamp.tags = []
        a.rollback()
        try b.save()
        #expect(try store.rows("Product.tags").isEmpty)
    }

    @Test("Relating two saved models of two contexts is refused too (SwiftData's rule)", arguments: StoreKind.allCases)
    func savedModelsOfTwoContexts(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let seed = store.context()
        seed.insert(Trip(name: "Oslo", startDate: Day.at(1), endDate: Day.at(2)))
        seed.insert(Accommodation(name: "Hut"))
        try seed.save()
        let (a, b) = (store.context(), store.context())
        let trip = try #require(a.fetch(FetchDescriptor<Trip>()).first)
        let hut = try #require(b.fetch(FetchDescriptor<Accommodation>()).first)
        hut.trip = trip
        #expect(throws: ModelStoreError.self) { try b.save() }
        #expect(throws: ModelStoreError.self) { try a.save() }
        #expect(try store.rows("Accommodation").map { $0.last } == [.null])
    }

    @Test("Inserting a model of context A into context B is an error; the model stays A's", arguments: StoreKind.allCases)
    func insertIntoAnotherContext(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let (a, b) = (store.context(), store.context())
        let trip = Trip(name: "Paris", startDate: Day.at(1), endDate: Day.at(2))
        a.insert(trip)
        b.insert(trip)
        b.insert(Trip(name: "Own", startDate: Day.at(3), endDate: Day.at(4)))
        #expect(throws: ModelStoreError.modelInOtherContext("Trip")) { try b.save() }
        #expect(trip.modelContext === a)
        #expect(try store.rows("Trip").isEmpty, "the failed save wrote something")
        try b.save()  // the refused insert had no effect; B's own insert is saved
        try a.save()
        let names = try ModelContext(store.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Own", "Paris"])

        // A saved model of A: inserting it into B, or deleting it from B, is refused the same way.
        trip.name = "Paris 2"
        b.insert(trip)
        #expect(throws: ModelStoreError.modelInOtherContext("Trip")) { try b.save() }
        b.delete(trip)
        #expect(throws: ModelStoreError.modelInOtherContext("Trip")) { try b.save() }
        #expect(!trip.isDeleted && trip.modelContext === a)
        try a.save()
        #expect(try ModelContext(store.container).fetch(FetchDescriptor<Trip>()).map(\.name).sorted() == ["Own", "Paris 2"])
    }
}
