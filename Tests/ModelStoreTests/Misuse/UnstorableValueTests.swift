import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #20, item 8: a value the store cannot give back as it was is refused by `save()`, naming the
/// entity and the property, with nothing written; and a stored row that cannot be read (written by
/// something else) is reported by the fetch that meets it, by identifier and property, without
/// making the rest of the table unreachable.
@Suite struct UnstorableValueTests {
    func expectRefused(_ context: ModelContext, _ store: MisuseStore, entity: String, property: String, reason: String) throws {
        let before = try store.raw().rows("SELECT * FROM \"Product\" ORDER BY 1")
        do {
            try context.save()
            Issue.record("saved \(entity).\(property)")
        } catch let error as ModelStoreError {
            guard case .unstorableValue(let thrownEntity, let thrownProperty, let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(thrownEntity == entity && thrownProperty == property)
            #expect(message.contains(reason), "\(message)")
            #expect(error.description.contains("\(entity).\(property)"))
        }
        #expect(context.hasChanges)
        #expect(try store.raw().rows("SELECT * FROM \"Product\" ORDER BY 1") == before, "the refused save wrote something")
    }

    @Test("Decimal.nan, NaN Double, Float and Date are refused on insert, naming entity and property", arguments: StoreKind.allCases)
    func nanValuesAreRefusedOnInsert(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let context = store.context()
        let product = Product(sku: "P", name: "Pen", price: .nan)
        context.insert(product)
        try expectRefused(context, store, entity: "Product", property: "price", reason: "Decimal.nan")
        product.price = 3
        product.weight = .nan
        try expectRefused(context, store, entity: "Product", property: "weight", reason: "NaN")
        product.weight = 1
        product.rating = .nan
        try expectRefused(context, store, entity: "Product", property: "rating", reason: "NaN")
        product.rating = nil
        product.addedAt = Date(timeIntervalSinceReferenceDate: .nan)
        try expectRefused(context, store, entity: "Product", property: "addedAt", reason: "NaN")
        product.addedAt = Day.at(1)
        let download = DigitalProduct(sku: "D", name: "E-book", price: .nan, downloadURL: URL(string: "https://example.com/e")!, fileSize: 9)
        context.insert(download)
        try expectRefused(context, store, entity: "DigitalProduct", property: "price", reason: "Decimal.nan")
        download.price = 4
        try context.save()
        #expect(try ModelContext(store.container).fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)])).map(\.price) == [4, 3])
    }

    @Test("A NaN set on a saved model is refused on update, and nothing of the save is written", arguments: StoreKind.allCases)
    func nanValuesAreRefusedOnUpdate(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let context = store.context()
        let product = Product(sku: "P", name: "Pen", price: 2)
        context.insert(product)
        try context.save()
        product.price = .nan
        context.insert(Product(sku: "Q", name: "Quill", price: 5))
        try expectRefused(context, store, entity: "Product", property: "price", reason: "Decimal.nan")
        context.rollback()
        #expect(product.price == 2)
    }

    @Test("Arrays whose JSON would not come back are refused", arguments: StoreKind.allCases)
    func arraysAreChecked(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, SpecAllTypesStore.schema)
        let context = store.context()
        let model = SpecEverything(data: Data([1]), url: URL(string: "https://example.com")!)
        context.insert(model)
        model.doubles = [1, .infinity]
        do {
            try context.save()
            Issue.record("saved an infinite Double in an array")
        } catch ModelStoreError.unstorableValue(let entity, let property, let reason) {
            #expect(entity == "SpecEverything" && property == "doubles")
            #expect(reason.contains("JSON cannot hold"), "\(reason)")
        }
        model.doubles = [1]
        model.decimals = [.nan]
        #expect(throws: ModelStoreError.self) { try context.save() }
        model.decimals = [1]
        try context.save()
    }

    @Test("An unreadable stored row is reported by identifier and property; the rest of the table stays reachable", arguments: StoreKind.allCases)
    func unreadableRowDoesNotPoisonTheTable(_ kind: StoreKind) throws {
        let store = try MisuseStore(kind, Shop.schema)
        let seed = store.context()
        for (sku, price) in [("A", 1), ("B", 2), ("C", 3)] { seed.insert(Product(sku: sku, name: sku, price: Decimal(price))) }
        try seed.save()
        // What an older ModelStore (or another program) could have written.
        try store.raw().execute("UPDATE \"Product\" SET price = 'NaN' WHERE sku = 'B'")
        let bad = PersistentIdentifier(entityName: "Product", rowID: 2, store: seed.container.storeIdentifier)

        let context = store.context()
        #expect(throws: ModelStoreError.corruptRow(entity: "Product", identifier: bad, property: "price", storedValue: "'NaN'")) {
            try context.fetch(FetchDescriptor<Product>())
        }
        #expect(try context.fetchCount(FetchDescriptor<Product>()) == 3)
        #expect(try context.fetchIdentifiers(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)])).map(\.rowID) == [1, 2, 3])
        let others = try context.fetch(FetchDescriptor<Product>(predicate: #Predicate { $0.sku != "B" }, sortBy: [SortDescriptor(\.sku)]))
        #expect(others.map(\.sku) == ["A", "C"])
        #expect(context.model(for: PersistentIdentifier(entityName: "Product", rowID: 3, store: seed.container.storeIdentifier)) != nil)
        #expect(context.model(for: bad) == nil)
        // The row is readable again once repaired.
        try store.raw().execute("UPDATE \"Product\" SET price = '2' WHERE sku = 'B'")
        #expect(try context.fetch(FetchDescriptor<Product>()).count == 3)
    }
}
