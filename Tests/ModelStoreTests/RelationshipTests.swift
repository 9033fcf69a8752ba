import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Inverses in memory, lazy to-many, many-to-many, join tables without inverse.
@Suite struct RelationshipTests {
    let store: TemporaryStore
    let container: ModelContainer

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
    }

    @Test func settingOneSideUpdatesTheInverseAtOnce() throws {
        let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let first = Trip(name: "First", startDate: Day.at(1), endDate: Day.at(2))
        let second = Trip(name: "Second", startDate: Day.at(3), endDate: Day.at(4))
        let inn = Accommodation(name: "Inn")
        context.insert(first)
        context.insert(second)
        inn.trip = first
        #expect(first.accommodations.map(\.name) == ["Inn"])
        #expect(inn.modelContext === context)  // joined its trip's context
        inn.trip = second
        #expect(first.accommodations.isEmpty)
        #expect(second.accommodations.map(\.name) == ["Inn"])
        second.accommodations = []
        #expect(inn.trip == nil)
        first.accommodations.append(inn)
        #expect(inn.trip === first)
        try context.save()
        let rereading = ModelContext(context.container)
        let reread = try rereading.fetch(FetchDescriptor<Accommodation>())
        #expect(reread.first?.trip?.name == "First")
    }

    @Test func oneSideSetBeforeInsertStillLinksBoth() throws {
        let context = ModelContext(container)
        let parent = Category(name: "Food")
        let child = Category(name: "Fruit")
        child.parent = parent
        #expect(parent.children.map(\.name) == ["Fruit"])
        context.insert(child)
        #expect(parent.modelContext === context)
        try context.save()
        let other = ModelContext(container)
        let food = try #require(try other.fetch(FetchDescriptor<Category>(sortBy: [SortDescriptor(\.name)])).first)
        #expect(food.name == "Food")
        #expect(food.children.map(\.name) == ["Fruit"])
        #expect(food.children.first?.parent === food)
    }

    @Test func toManyLoadsOnFirstAccess() throws {
        do {
            let context = ModelContext(container)
            let fruit = Category(name: "Fruit")
            fruit.products = [Product(sku: "A1", name: "Apple", price: 1), Product(sku: "P1", name: "Pear", price: 2)]
            context.insert(fruit)
            try context.save()
        }
        let context = ModelContext(container)
        let fruit = try #require(try context.fetch(FetchDescriptor<Category>()).first)
        let slot = 2  // Category.products
        #expect(fruit.slots.count == 3)
        guard case .unloaded = fruit.slots[slot] else { Issue.record("loaded before access"); return }
        #expect(fruit.products.map(\.name).sorted() == ["Apple", "Pear"])
        guard case .objects(let loaded) = fruit.slots[slot] else { Issue.record("not kept after access"); return }
        #expect(loaded.count == 2)
    }

    @Test func manyToManyUsesAJoinTableAndUpdatesBothSides() throws {
        do {
            let context = ModelContext(container)
            let apple = Product(sku: "A1", name: "Apple", price: 1)
            let pear = Product(sku: "P1", name: "Pear", price: 2)
            let red = Tag(label: "red")
            let sweet = Tag(label: "sweet")
            context.insert(apple)
            context.insert(pear)
            apple.tags = [red, sweet]
            pear.tags.append(sweet)
            #expect(red.products.map(\.name) == ["Apple"])
            #expect(Set(sweet.products.map(\.name)) == ["Apple", "Pear"])
            try context.save()
        }
        let joinRows = try store.rawConnection().rows("SELECT count(*) FROM \"Product.tags\"")
        #expect(joinRows.first?.first == .integer(3))
        do {
            let context = ModelContext(container)
            let tags = try context.fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.label)]))
            #expect(tags.map(\.label) == ["red", "sweet"])
            #expect(tags[0].products.map(\.name) == ["Apple"])
            #expect(tags[1].products.map(\.name).sorted() == ["Apple", "Pear"])
            let apple = tags[0].products[0]
            #expect(!apple.hasChanges)
            apple.tags.removeAll { $0.label == "sweet" }
            #expect(apple.hasChanges && tags[1].hasChanges && context.hasChanges)
            #expect(tags[1].products.map(\.name) == ["Pear"])
            try context.save()
        }
        let context = ModelContext(container)
        let sweet = try #require(try context.fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.label)])).last)
        #expect(sweet.products.map(\.name) == ["Pear"])
    }

    @Test func toManyWithoutInverseHasItsOwnJoinTable() throws {
        do {
            let context = ModelContext(container)
            let order = Order(number: 1, group: "g", placedAt: Day.at(1))
            order.products = [Product(sku: "A1", name: "Apple", price: 1), Product(sku: "B1", name: "Bean", price: 3)]
            context.insert(order)
            try context.save()
        }
        let context = ModelContext(container)  // models load relationships through their context: keep it
        let order = try #require(try context.fetch(FetchDescriptor<Order>()).first)
        #expect(order.products.map(\.name).sorted() == ["Apple", "Bean"])
        #expect(try store.rawConnection().rows("SELECT count(*) FROM \"Order.products\"").first?.first == .integer(2))
    }

    @Test func relationshipReadsAndChangesAreObserved() throws {
        let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let trip = Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2))
        context.insert(trip)
        let changed = LockedFlag()
        withObservationTracking {
            _ = trip.accommodations
        } onChange: {
            changed.set()
        }
        let inn = Accommodation(name: "Inn")
        inn.trip = trip  // changes trip.accommodations through the inverse
        #expect(changed.value)
    }
}

/// A flag set from an observation callback.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.withLock { flag = true } }
    var value: Bool { lock.withLock { flag } }
}
