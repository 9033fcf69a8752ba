import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Delete rules applied at save: cascade (recursive), nullify, deny, noAction.
@Suite struct DeleteRuleTests {
    let store: TemporaryStore
    let container: ModelContainer

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
    }

    func count<T: PersistentModel>(_ type: T.Type) throws -> Int {
        try ModelContext(container).fetchCount(FetchDescriptor<T>())
    }

    @Test func cascadeDeletesRelatedModelsRecursively() throws {
        let container = try ModelContainer(for: Zoo.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let ann = Person(name: "Ann")
        let rex = Dog(name: "Rex", breed: "Collie")
        let ball = Toy(label: "ball")
        rex.toys = [ball]
        ann.pets = [rex, Animal(name: "Cat")]
        context.insert(ann)
        context.insert(Person(name: "Bo"))
        try context.save()
        context.delete(ann)  // Person.pets: .cascade, then Dog.toys: .cascade
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Person>()) == 1)
        #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Toy>()) == 0)
        #expect(rex.isDeleted && ball.isDeleted)
    }

    @Test func cascadeInTheTripsModel() throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let trip = PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(2), reason: .vacation)
        trip.accommodations = [Accommodation(name: "Hotel"), Accommodation(name: "Tent")]
        context.insert(trip)
        try context.save()
        context.delete(trip)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Accommodation>()) == 0)
    }

    @Test func nullifyClearsTheInverseInMemoryAndInTheStore() throws {
        let context = ModelContext(container)
        let fruit = Category(name: "Fruit")
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        apple.category = fruit
        context.insert(apple)
        try context.save()
        context.delete(fruit)  // Category.products: .nullify
        try context.save()
        #expect(apple.category == nil)
        #expect(try count(Product.self) == 1)
        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Product>()).first)
        #expect(stored.category == nil)
        let raw = try store.rawConnection().rows("SELECT category FROM Product")
        #expect(raw.first?.first == .null)
    }

    @Test func nullifyFromTheToOneSideRemovesFromTheList() throws {
        let context = ModelContext(container)
        let fruit = Category(name: "Fruit")
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        let pear = Product(sku: "P1", name: "Pear", price: 1)
        fruit.products = [apple, pear]
        context.insert(fruit)
        try context.save()
        context.delete(apple)  // Product.category: .nullify
        try context.save()
        #expect(fruit.products.map(\.name) == ["Pear"])
    }

    @Test func cascadeFollowsASelfRelationshipRecursively() throws {
        let context = ModelContext(container)
        let food = Category(name: "Food")
        let fruit = Category(name: "Fruit")
        let apples = Category(name: "Apples")
        fruit.parent = food
        apples.parent = fruit
        context.insert(food)
        context.insert(Category(name: "Tools"))
        try context.save()
        context.delete(food)  // Category.children: .cascade
        try context.save()
        #expect(try count(Category.self) == 1)
        #expect(fruit.isDeleted && apples.isDeleted)
    }

    @Test func denyThrowsAndLeavesStoreAndContextUnchanged() throws {
        let context = ModelContext(container)
        let red = Tag(label: "red")
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        apple.tags = [red]
        context.insert(apple)
        try context.save()
        context.delete(red)  // Tag.products: .deny
        #expect(throws: ModelStoreError.deleteDenied(entity: "Tag", relationship: "products")) { try context.save() }
        #expect(try count(Tag.self) == 1)
        #expect(context.hasChanges && red.isDeleted)
        #expect(apple.tags.map(\.label) == ["red"] && red.products.first === apple)
        context.rollback()
        #expect(!red.isDeleted)
        // Deleting the related model too lets the delete go through.
        context.delete(red)
        context.delete(apple)
        try context.save()
        #expect(try count(Tag.self) == 0)
    }

    @Test func noActionTouchesNothing() throws {
        let context = ModelContext(container)
        let ann = Customer(name: "Ann", email: "ann@example.com")
        let order = Order(number: 7, group: "retail", placedAt: Day.at(1))
        order.customer = ann
        context.insert(order)
        try context.save()
        #expect(ann.orders.count == 1)
        context.delete(order)  // Order.customer: .noAction
        try context.save()
        #expect(ann.orders.count == 1, "noAction leaves the inverse as it was in memory")
        #expect(try count(Customer.self) == 1)
        // Customer.orders cascades the other way.
        let second = Order(number: 8, group: "retail", placedAt: Day.at(2))
        second.customer = ann
        try context.save()
        context.delete(ann)
        try context.save()
        #expect(try count(Order.self) == 0)
    }
}
