import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `ModelContext.willSave` and `didSave` on `NotificationCenter.default`.
@Suite struct SaveNotificationTests {
    /// What the observers of one context saw, in order.
    struct Seen: Sendable {
        enum Event: Equatable, Sendable {
            case willSave(hadChanges: Bool)
            case didSave(inserted: [PersistentIdentifier], updated: [PersistentIdentifier], deleted: [PersistentIdentifier])
        }
        var events: [Event] = []
    }

    /// Observes `context`'s save notifications while `body` runs.
    static func observing(_ context: ModelContext, _ body: () throws -> Void) rethrows -> [Seen.Event] {
        let seen = Locked(Seen())
        let center = NotificationCenter.default
        let will = center.addObserver(forName: ModelContext.willSave, object: context, queue: nil) { note in
            let hadChanges = (note.object as? ModelContext)?.hasChanges ?? false
            seen.withLock { $0.events.append(.willSave(hadChanges: hadChanges)) }
        }
        let did = center.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
            func ids(_ key: ModelContext.NotificationKey) -> [PersistentIdentifier] {
                note.userInfo?[key.rawValue] as? [PersistentIdentifier] ?? [PersistentIdentifier(entityName: "missing", rowID: -1, store: nil)]
            }
            seen.withLock { $0.events.append(.didSave(inserted: ids(.insertedIdentifiers), updated: ids(.updatedIdentifiers), deleted: ids(.deletedIdentifiers))) }
        }
        defer {
            center.removeObserver(will)
            center.removeObserver(did)
        }
        try body()
        return seen.value.events
    }

    @Test(arguments: StoreKind.allCases) func didSaveListsInsertedUpdatedAndDeletedIdentifiers(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        let paris = Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1))
        let rome = PersonalTrip(name: "Rome", startDate: Day.at(2), endDate: Day.at(3), reason: .family)
        let hotel = Accommodation(name: "Hotel")
        let inn = Accommodation(name: "Inn")
        for model in [paris, rome, hotel, inn] as [any PersistentModel] { context.insert(model) }
        hotel.trip = paris
        inn.trip = rome
        let first = try Self.observing(context) { try context.save() }
        let inserted = [paris, rome, hotel, inn].map(\.persistentModelID)
        #expect(inserted.allSatisfy { !$0.isTemporary }, "identifiers are permanent after the save")
        #expect(first == [.willSave(hadChanges: true), .didSave(inserted: inserted, updated: [], deleted: [])])

        // An update, a relationship moved, a delete with its cascade.
        paris.name = "Paris in May"
        hotel.trip = nil
        let romeID = rome.persistentModelID
        let innID = inn.persistentModelID
        context.delete(rome)
        let second = try Self.observing(context) { try context.save() }
        #expect(second == [.willSave(hadChanges: true),
                           .didSave(inserted: [], updated: [paris.persistentModelID, hotel.persistentModelID], deleted: [romeID, innID])])

        // Nothing to save: nothing posted.
        #expect(try Self.observing(context) { try context.save() } == [])
    }

    @Test(arguments: StoreKind.allCases) func aFailedSavePostsWillSaveOnly(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Shop.schema)
        let context = ModelContext(container)
        let product = Product(sku: "A", name: "A", price: 1)
        product.weight = .nan
        context.insert(product)
        let events = Self.observing(context) { #expect(throws: ModelStoreError.self) { try context.save() } }
        #expect(events == [.willSave(hadChanges: true)])
    }

    /// A willSave observer may still change the context: its changes are part of the save.
    @Test(arguments: StoreKind.allCases) func changesMadeInWillSaveAreSaved(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        context.insert(Trip(name: "Saved", startDate: Day.at(0), endDate: Day.at(1)))
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.willSave, object: context, queue: nil) { note in
            (note.object as? ModelContext)?.insert(Itinerary(title: "Added in willSave"))
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Itinerary>()).map(\.title) == ["Added in willSave"])
    }
}
