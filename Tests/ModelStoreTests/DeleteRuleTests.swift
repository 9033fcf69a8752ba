import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Delete rules applied at save: cascade (recursive), nullify, deny, noAction.
@Suite struct DeleteRuleTests {
    /// The test's store, with a container on it and a context.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        try StoreFixture(kind, Shop.schema)
    }

    func count<T: PersistentModel>(_ type: T.Type, in container: ModelContainer) throws -> Int {
        try ModelContext(container).fetchCount(FetchDescriptor<T>())
    }

    @Test(arguments: StoreKind.allCases) func cascadeDeletesRelatedModelsRecursively(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Zoo.schema)
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

    @Test(arguments: StoreKind.allCases) func cascadeInTheTripsModel(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        let trip = PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(2), reason: .vacation)
        trip.accommodations = [Accommodation(name: "Hotel"), Accommodation(name: "Tent")]
        context.insert(trip)
        try context.save()
        context.delete(trip)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Accommodation>()) == 0)
    }

    @Test(arguments: StoreKind.allCases) func nullifyClearsTheInverseInMemoryAndInTheStore(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = ModelContext(container)
        let fruit = Category(name: "Fruit")
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        apple.category = fruit
        context.insert(apple)
        try context.save()
        context.delete(fruit)  // Category.products: .nullify
        try context.save()
        #expect(apple.category == nil)
        #expect(try count(Product.self, in: container) == 1)
        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Product>()).first)
        #expect(stored.category == nil)
        let raw = try container.makeConnection().rows(#"SELECT "category" FROM "Product""#)
        #expect(raw.first?.first == .null)
    }

    @Test(arguments: StoreKind.allCases) func nullifyFromTheToOneSideRemovesFromTheList(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
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

    @Test(arguments: StoreKind.allCases) func cascadeFollowsASelfRelationshipRecursively(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
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
        #expect(try count(Category.self, in: container) == 1)
        #expect(fruit.isDeleted && apples.isDeleted)
    }

    @Test(arguments: StoreKind.allCases) func denyThrowsAndLeavesStoreAndContextUnchanged(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = ModelContext(container)
        let red = Tag(label: "red")
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        apple.tags = [red]
        context.insert(apple)
        try context.save()
        context.delete(red)  // Tag.products: .deny
        #expect(throws: ModelStoreError.deleteDenied(entity: "Tag", relationship: "products")) { try context.save() }
        #expect(try count(Tag.self, in: container) == 1)
        #expect(context.hasChanges && red.isDeleted)
        #expect(apple.tags.map(\.label) == ["red"] && red.products.first === apple)
        context.rollback()
        #expect(!red.isDeleted)
        // Deleting the related model too lets the delete go through.
        context.delete(red)
        context.delete(apple)
        try context.save()
        #expect(try count(Tag.self, in: container) == 0)
    }

    @Test(arguments: StoreKind.allCases) func noActionTouchesNothing(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
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
        #expect(try count(Customer.self, in: container) == 1)
        // Customer.orders cascades the other way.
        let second = Order(number: 8, group: "retail", placedAt: Day.at(2))
        second.customer = ann
        try context.save()
        context.delete(ann)
        try context.save()
        #expect(try count(Order.self, in: container) == 0)
    }
}
