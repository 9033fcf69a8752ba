import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Upserts, tombstones (in the history), atomic saves, concurrent contexts, observation.
@Suite struct SaveTests {
    let store: TemporaryStore
    let container: ModelContainer

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
    }

    @Test func insertingAMatchingUniqueValueUpdatesTheRow() throws {
        let context = ModelContext(container)
        context.insert(Customer(name: "Ann", email: "ann@example.com"))
        context.insert(Product(sku: "A1", name: "Apple", price: 1))
        try context.save()
        let ann = try #require(try context.fetch(FetchDescriptor<Customer>()).first)
        let again = Customer(name: "Ann Smith", email: "ann@example.com")
        context.insert(again)
        let apple = Product(sku: "A1", name: "Green apple", price: 2)
        context.insert(apple)
        try context.save()
        let reader = ModelContext(container)
        let customers = try reader.fetch(FetchDescriptor<Customer>())
        #expect(customers.map(\.name) == ["Ann Smith"])
        let products = try reader.fetch(FetchDescriptor<Product>())
        #expect(products.map(\.name) == ["Green apple"])
        #expect(products.first?.persistentModelID == apple.persistentModelID)
        #expect(try reader.fetchCount(FetchDescriptor<Product>()) == 1)
        // The row now belongs to the inserted model, in this context too.
        #expect(try context.fetch(FetchDescriptor<Customer>()).first === again)
        #expect(ann.modelContext == nil && !ann.isDeleted)
    }

    @Test func preservedValuesSurviveDeletionInTheHistory() throws {
        let context = ModelContext(container)
        let order = Order(number: 42, group: "web", placedAt: Day.at(1))
        context.insert(order)
        context.insert(Order(number: 43, group: "web", placedAt: Day.at(1)))
        try context.save()
        let id = order.persistentModelID
        #expect(try context.allHistory().deletes(of: Order.self).isEmpty)
        context.delete(order)
        try context.save()
        let deletes = try context.allHistory().deletes(of: Order.self)
        #expect(deletes.count == 1)
        #expect(deletes.first?.changedPersistentIdentifier == id)
        #expect(deletes.first?.tombstone[\.number] as? Int32 == 42)
        #expect(deletes.first?.tombstone[\.group] == nil, "only preserved properties are kept")
        let preserved = deletes.first.map { Array($0.tombstone) } ?? []
        #expect(preserved.count == 1 && preserved.first?.value as? Int32 == 42 && preserved.first?.keyPath == \Order.number)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(try context.allHistory().isEmpty)
    }

    @Test func tombstonesOfSubclassesAreTypedByTheRowsClass() throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let trip = BusinessTrip(name: "Fair", startDate: Day.at(1), endDate: Day.at(2), company: "Acme")
        context.insert(trip)
        try context.save()
        let identifier = trip.identifier
        context.delete(trip)
        try context.save()
        let history = try ModelContext(container).allHistory()
        #expect(history.deletes(of: Trip.self).isEmpty, "the change is typed by the row's own class")
        let deletes = history.deletes(of: BusinessTrip.self)
        #expect(deletes.map { $0.tombstone[\.identifier] as? UUID } == [identifier])
        #expect(deletes.first?.changedPersistentIdentifier.entityName == "BusinessTrip")
    }

    @Test func aFailedSaveLeavesStoreAndContextAsTheyWere() throws {
        let context = ModelContext(container)
        let kept = Product(sku: "K", name: "Kept", price: 1)
        context.insert(kept)
        try context.save()
        // A trigger makes the second insert of the next save fail inside the transaction.
        try store.rawConnection().execute("CREATE TRIGGER boom BEFORE INSERT ON Product WHEN NEW.name = 'Boom' BEGIN SELECT RAISE(ABORT, 'boom'); END")
        kept.name = "Changed"
        let first = Product(sku: "F", name: "Fine", price: 1)
        let second = Product(sku: "B", name: "Boom", price: 1)
        context.insert(first)
        context.insert(second)
        #expect(throws: SQLiteError.self) { try context.save() }
        // Store: nothing of the failed save.
        let raw = try store.rawConnection()
        #expect(try raw.rows("SELECT name FROM Product ORDER BY name") == [[.text("Kept")]])
        // Context: the same unsaved changes as before.
        #expect(context.hasChanges)
        #expect(first.persistentModelID.isTemporary && second.persistentModelID.isTemporary)
        #expect(kept.name == "Changed" && kept.hasChanges)
        try raw.execute("DROP TRIGGER boom")
        try context.save()
        #expect(try raw.rows("SELECT name FROM Product ORDER BY name") == [[.text("Boom")], [.text("Changed")], [.text("Fine")]])
    }

    @Test(arguments: [false, true])
    func twoContextsOnTwoThreadsShareTheContainer(inMemory: Bool) throws {
        let container = inMemory
            ? try ModelContainer(for: Shop.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            : self.container
        let threads = 2
        let perThread = 200
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            do {
                let context = ModelContext(container)
                for index in 0..<perThread {
                    context.insert(Customer(name: "c\(thread)-\(index)", email: "c\(thread)-\(index)@example.com"))
                    if index % 50 == 49 { try context.save() }
                }
                try context.save()
                _ = try context.fetchCount(FetchDescriptor<Customer>())
            } catch {
                errors.add(error)
            }
        }
        #expect(errors.all.isEmpty)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Customer>()) == threads * perThread)
    }

    @Test func attributeReadsAreObservedAndChangesReported() throws {
        let context = ModelContext(container)
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        context.insert(apple)
        try context.save()
        let changed = LockedFlag()
        withObservationTracking {
            _ = apple.name
        } onChange: {
            changed.set()
        }
        apple.stock = 3
        #expect(!changed.value, "a property that was not read does not report")
        apple.name = "Green apple"
        #expect(changed.value)
    }
}

/// Errors collected from several threads.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []
    func add(_ error: Error) { lock.withLock { errors.append(error) } }
    var all: [Error] { lock.withLock { errors } }
}
