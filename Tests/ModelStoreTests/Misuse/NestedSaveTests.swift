import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #20, item 6: a `save()` that starts while a save of the same context is running (an observer
/// of a model changed by the save calls it), while a model property is being set (an observer's
/// `onChange` runs at `willSet`), or while this thread holds the container's write lock, neither
/// hangs nor stores the wrong thing: it throws `saveInProgress`, and the change stays pending.
@Suite struct NestedSaveTests {
    /// The context an observer saves, and the errors it saw (observers' closures are `@Sendable`;
    /// everything here runs on the test's thread).
    final class Seen: @unchecked Sendable {
        let context: ModelContext
        var errors: [Error] = []
        var calls = 0
        init(_ context: ModelContext) { self.context = context }

        func save() {
            do { try context.save() } catch { errors.append(error) }
        }
    }

    @Test("A save from an observer of a relationship the save updates throws; nothing is written twice", arguments: StoreKind.allCases)
    func saveFromObserverDuringSave(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let seed = store.context()
        let shelf = Category(name: "Shelf")
        let lamp = Product(sku: "L-1", name: "Lamp", price: 20)
        lamp.category = shelf
        seed.insert(lamp)
        try seed.save()

        let context = store.context()
        let category = try #require(context.fetch(FetchDescriptor<Category>()).first)
        let product = try #require(context.fetch(FetchDescriptor<Product>()).first)
        #expect(product.category === category)
        #expect(category.products.count == 1)  // loaded: deleting the category clears product.category in memory
        let seen = Seen(context)
        withObservationTracking {
            _ = product.category
        } onChange: {
            // Runs inside the save below, when deleting the category clears product.category.
            seen.calls += 1
            seen.context.insert(Category(name: "Late"))  // a change made during the save
            seen.save()
        }
        context.insert(Category(name: "Early"))
        context.delete(category)
        try context.save()

        #expect(seen.calls == 1)
        #expect(seen.errors.count == 1)
        #expect((seen.errors.first as? ModelStoreError) == .saveInProgress)
        #expect(product.category == nil)
        let names = { try ModelContext(store.container).fetch(FetchDescriptor<Category>()).map(\.name).sorted() }
        #expect(try names() == ["Early"], "a nested save wrote the outer save's inserts again, or the late change")
        // The change made during the save is pending, not lost.
        #expect(context.hasChanges)
        try context.save()
        #expect(try names() == ["Early", "Late"])
    }

    @Test("A save from onChange of an attribute (called before the new value is set) throws; the new value is saved next", arguments: StoreKind.allCases)
    func saveFromOnChangeOfAttribute(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let seed = store.context()
        seed.insert(Trip(name: "Old", startDate: Day.at(1), endDate: Day.at(2)))
        try seed.save()
        let context = store.context()
        let trip = try #require(context.fetch(FetchDescriptor<Trip>()).first)
        let seen = Seen(context)
        withObservationTracking {
            _ = trip.name
        } onChange: {
            seen.save()
        }
        trip.name = "New"
        #expect((seen.errors.first as? ModelStoreError) == .saveInProgress)
        #expect(trip.hasChanges && context.hasChanges, "the change was marked saved with the old value")
        try context.save()
        #expect(try ModelContext(store.container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["New"])
    }

    @Test("The same for a new model and a to-one relationship set from onChange", arguments: StoreKind.allCases)
    func saveFromOnChangeOfNewModelRelationship(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let context = store.context()
        let inn = Accommodation(name: "Inn")
        context.insert(inn)
        let seen = Seen(context)
        withObservationTracking {
            _ = inn.trip
        } onChange: {
            seen.save()
        }
        inn.trip = Trip(name: "Rome", startDate: Day.at(1), endDate: Day.at(2))
        #expect((seen.errors.first as? ModelStoreError) == .saveInProgress)
        try context.save()
        let reader = store.context()
        let stored = try #require(reader.fetch(FetchDescriptor<Accommodation>()).first)
        #expect(stored.trip?.name == "Rome")
    }

    @Test("A save from a didSave observer is a new save, not a nested one: it works", arguments: StoreKind.allCases)
    func saveFromDidSaveObserver(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let context = store.context()
        let seen = Seen(context)
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { _ in
            seen.calls += 1
            guard seen.calls == 1 else { return }
            seen.context.insert(Trip(name: "Follow-up", startDate: Day.at(3), endDate: Day.at(4)))
            seen.save()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(Trip(name: "First", startDate: Day.at(1), endDate: Day.at(2)))
        try context.save()
        #expect(seen.errors.isEmpty, "\(seen.errors)")
        #expect(seen.calls == 2 && !context.hasChanges)
        #expect(try store.context().fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["First", "Follow-up"])
    }

    /// The outcome of a save made on a thread of its own.
    final class Outcome: @unchecked Sendable {
        let context: ModelContext
        var error: Error?
        init(_ context: ModelContext) { self.context = context }
    }

    @Test("A save of another context while this thread holds the container's write lock throws instead of waiting forever",
          arguments: StoreKind.allCases)
    func saveOfAnotherContextUnderTheWriteLock(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, TripStore.schema)
        let outcome = Outcome(store.context())
        outcome.context.insert(Trip(name: "Pending", startDate: Day.at(1), endDate: Day.at(2)))
        // On a thread of its own, so a regression (the save waiting for the lock its own thread
        // holds) fails this test after 30 s instead of stopping the run.
        let finished = DispatchSemaphore(value: 0)
        let driver = store.container.driver
        Thread {
            driver.withWriteLock {
                do { try outcome.context.save() } catch { outcome.error = error }
            }
            finished.signal()
        }.start()
        try #require(finished.wait(timeout: .now() + 30) == .success, "the save waited for the write lock its own thread holds")
        #expect((outcome.error as? ModelStoreError) == .saveInProgress)
        #expect(outcome.context.hasChanges)
        try outcome.context.save()
        #expect(try store.context().fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}
