import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A model's Observation registrar, made on the first observed read and kept in storage the model
/// destroys itself (`RegistrarStorage`): observers registered before and after it is made see the
/// changes, not the reads; a model kept past its batch keeps its observers; a model that goes
/// destroys its registrar, and with it the observers' closures.
@Suite struct ModelRegistrarTests {
    /// How many times an observer's `onChange` ran.
    final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// An object an observer's `onChange` holds: it goes when the closure goes.
    final class Token: Sendable {}

    /// A weak reference.
    struct Weak {
        weak var object: AnyObject?
    }

    /// `count` trips named "trip 0000"… in key order; the first has a stay.
    static func seed(_ kind: StoreKind, _ count: Int) throws -> QueryStore {
        let store = try QueryStore(kind, TripStore.schema)
        let context = store.context()
        for index in 0..<count {
            let trip = Trip(name: String(format: "trip %04d", index), startDate: Day.at(index % 7), endDate: Day.at(index))
            context.insert(trip)
            if index == 0 {
                let stay = Accommodation(name: "Inn")
                context.insert(stay)
                stay.trip = trip
            }
        }
        try context.save()
        return store
    }

    func trip(_ context: ModelContext, _ name: String) throws -> Trip {
        try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).first)
    }

    @Test(arguments: StoreKind.allCases) func anObserverRegisteredAsTheRegistrarIsMadeSeesChangesNotReads(_ kind: StoreKind) throws {
        let store = try Self.seed(kind, 3)
        let context = store.context()
        let trip = try trip(context, "trip 0000")
        #expect(!trip.hasRegistrar)
        let count = Count()
        withObservationTracking { _ = trip.name } onChange: { count.add() }
        #expect(trip.hasRegistrar, "the read made the registrar")
        _ = trip.name
        _ = trip.accommodations
        trip.endDate = Day.at(30)
        #expect(count.value == 0, "reads and a change of another attribute are not a change of name")
        trip.name = "renamed"
        #expect(count.value == 1)
        trip.name = "renamed again"
        #expect(count.value == 1, "an observation fires once")
        #expect(trip.name == "renamed again")
        try context.save()
        #expect(try self.trip(store.context(), "renamed again").endDate == Day.at(30))
    }

    @Test(arguments: StoreKind.allCases) func observersRegisteredAfterTheRegistrarIsMadeSeeEachChange(_ kind: StoreKind) throws {
        let store = try Self.seed(kind, 3)
        let context = store.context()
        let trip = try trip(context, "trip 0000")
        trip.name = "before any read"           // no registrar: nobody to tell
        #expect(!trip.hasRegistrar)
        _ = trip.startDate                      // an untracked read makes it
        #expect(trip.hasRegistrar)
        let names = Count(), stays = Count(), other = Count()
        withObservationTracking { _ = trip.name } onChange: { names.add() }
        withObservationTracking { _ = trip.accommodations } onChange: { stays.add() }
        let second = try self.trip(context, "trip 0001")
        withObservationTracking { _ = second.name } onChange: { other.add() }
        trip.name = "after"
        #expect(names.value == 1 && stays.value == 0 && other.value == 0)
        let stay = Accommodation(name: "Tent")
        context.insert(stay)
        stay.trip = trip
        #expect(stays.value == 1, "adding to an observed to-many reports")
        second.name = "second"
        #expect(other.value == 1 && names.value == 1)
        try context.save()
        let reader = store.context()
        let reread = try self.trip(reader, "after")
        #expect(reread.accommodations.map(\.name).sorted() == ["Inn", "Tent"])
    }

    @Test(arguments: StoreKind.allCases) func aTransientPropertyIsObservedBeforeAndAfterTheRegistrarIsMade(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, Shop.schema)
        fixture.context.insert(Product(sku: "A1", name: "Lamp", price: 10))
        try fixture.context.save()
        let context = ModelContext(fixture.container)
        let product = try #require(try context.fetch(FetchDescriptor<Product>()).first)
        product.isSelected = true               // no registrar yet: the value is set, nobody told
        #expect(!product.hasRegistrar && product.isSelected)
        let first = Count(), second = Count()
        withObservationTracking { _ = product.isSelected } onChange: { first.add() }
        product.isSelected = false
        #expect(first.value == 1 && !product.isSelected)
        withObservationTracking { _ = product.isSelected } onChange: { second.add() }
        product.isSelected = true
        #expect(first.value == 1 && second.value == 1)
    }

    @Test(arguments: StoreKind.allCases) func aModelKeptPastItsBatchKeepsItsObservers(_ kind: StoreKind) throws {
        let store = try Self.seed(kind, 30)
        let context = store.context()
        var kept: [Trip] = []
        let inBatch = Count()
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 4) { trip in
            guard !trip.name.isEmpty else { return }
            if trip.name == "trip 0005" {
                withObservationTracking { _ = trip.name } onChange: { inBatch.add() }
                kept.append(trip)
            } else if trip.name == "trip 0022" {
                kept.append(trip)
            }
        }
        #expect(context.registeredCount == 2, "the other batches' models went")
        let afterward = Count()
        withObservationTracking { _ = kept[1].name } onChange: { afterward.add() }
        kept[0].name = "five"
        kept[1].name = "twenty-two"
        #expect(inBatch.value == 1 && afterward.value == 1)
        #expect(try trip(context, "five") === kept[0], "still the row's one instance")
        try context.save()
        #expect(try trip(store.context(), "twenty-two").endDate == Day.at(22))
    }

    @Test(arguments: StoreKind.allCases) func aModelThatGoesDestroysItsRegistrarAndItsObservers(_ kind: StoreKind) throws {
        let store = try Self.seed(kind, 30)
        let context = store.context()
        var models: [Weak] = [], tokens: [Weak] = []
        let fired = Count()
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 4) { trip in
            let token = Token()
            withObservationTracking { _ = trip.name } onChange: { withExtendedLifetime(token) { fired.add() } }
            models.append(Weak(object: trip))
            tokens.append(Weak(object: token))
        }
        #expect(models.count == 30 && tokens.count == 30 && fired.value == 0)
        #expect(models.allSatisfy { $0.object == nil }, "every batch's models went")
        #expect(tokens.allSatisfy { $0.object == nil }, "their registrars went, and the observers' closures with them")
        // A plain fetch's models, observed, go with their context, and their observers with them.
        var watched = Weak()
        do {
            let other = store.context()
            let trips = try other.fetch(FetchDescriptor<Trip>())
            let token = Token()
            watched.object = token
            withObservationTracking { _ = trips.map(\.name) } onChange: { withExtendedLifetime(token) { fired.add() } }
        }
        #expect(watched.object == nil)
        #expect(fired.value == 0)
    }
}
