import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #20, item 7: two new models with the same `.unique` values in one save become one row (the
/// upsert) and one model: the last inserted keeps the row (its values are the row's), the other
/// leaves the context (`modelContext == nil`, not deleted), as a stored model an upsert takes over
/// does. Nothing done to the displaced model afterwards reaches the row.
@Suite struct DuplicateUniqueInsertTests {
    @Test("One row, one registered model; the displaced one is detached and harmless", arguments: StoreKind.allCases)
    func twoNewModelsWithTheSameUniqueValue(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let context = store.context()
        let shelf = Category(name: "Shelf")
        let first = Product(sku: "S-1", name: "First", price: 1)
        first.category = shelf
        let second = Product(sku: "S-1", name: "Second", price: 2)
        context.insert(first)
        context.insert(second)
        try context.save()

        #expect(try store.rows("Product").count == 1)
        #expect(second.modelContext === context && !second.isDeleted)
        #expect(first.modelContext == nil && !first.isDeleted && !first.hasChanges)
        #expect(first.persistentModelID == second.persistentModelID)
        #expect((context.registeredModel(for: second.persistentModelID) as Product?) === second)
        let fetched = try context.fetch(FetchDescriptor<Product>())
        #expect(fetched.count == 1 && fetched.first === second)
        #expect(fetched.first?.name == "Second")
        // The relationship in memory follows the row (the second product has no category).
        #expect(shelf.products.isEmpty)
        #expect(second.category == nil)

        // Editing or deleting the displaced model does not touch the row.
        first.name = "Stale edit"
        context.delete(first)
        #expect(!context.hasChanges)
        try context.save()
        let row = try #require(ModelContext(store.container).fetch(FetchDescriptor<Product>()).first)
        #expect(row.name == "Second" && !second.isDeleted)

        // The survivor is the row's model: deleting it deletes the row.
        context.delete(second)
        try context.save()
        #expect(second.isDeleted)
        #expect(try store.rows("Product").isEmpty)
    }

    @Test("A stored model whose row a new model takes over keeps no pending change that would overwrite it", arguments: StoreKind.allCases)
    func upsertOverAChangedStoredModel(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let context = store.context()
        let stored = Tag(label: "sale")
        context.insert(stored)
        try context.save()
        let sale = try #require(context.fetch(FetchDescriptor<Tag>()).first)
        let lamp = Product(sku: "L-1", name: "Lamp", price: 3)
        context.insert(lamp)
        try context.save()
        lamp.tags = [sale]  // a pending link of the stored model
        let replacement = Tag(label: "sale")
        context.insert(replacement)
        try context.save()
        #expect(sale.modelContext == nil && replacement.modelContext === context)
        #expect(try store.rows("Tag").count == 1)
        #expect(try store.rows("Product.tags").count == 1, "the pending link of the displaced model goes to the row")
        // The product's tags follow the store: the row's model, not the displaced one.
        #expect(lamp.tags.count == 1 && lamp.tags.first === replacement)
    }
}

extension DuplicateUniqueInsertTests {
    @Test("A stored model and two new ones with its unique value: the last new one keeps the row, both others leave", arguments: StoreKind.allCases)
    func storedModelAndTwoNewOnes(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let context = store.context()
        context.insert(Customer(name: "Stored", email: "ann@example.com"))
        try context.save()
        let stored = try #require(context.fetch(FetchDescriptor<Customer>()).first)
        let first = Customer(name: "First", email: "ann@example.com")
        let second = Customer(name: "Second", email: "ann@example.com")
        context.insert(first)
        context.insert(second)
        try context.save()
        #expect(stored.modelContext == nil && first.modelContext == nil && second.modelContext === context)
        #expect(try context.fetch(FetchDescriptor<Customer>()).map { $0 === second } == [true])
        #expect(try store.rows("Customer").count == 1)
    }
}
