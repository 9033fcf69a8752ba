import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The oracle over the Shop sample: every attribute type, many-to-many, self relationships,
/// keyword names, negative numbers, Decimal text, Float, optional values.
@Suite struct ShopOracleTests {
    let store: TemporaryStore
    let context: ModelContext

    init() throws {
        store = try TemporaryStore()
        let container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
        try ShopDataSet.populate(ModelContext(container))
        context = ModelContext(container)
    }

    @Test func productPredicates() throws {
        let posix = Locale(identifier: "en_US_POSIX")
        let ten = Decimal(string: "10", locale: posix)!
        let cheap = Decimal(string: "9.995", locale: posix)!
        let zero = Decimal.zero
        let addedCutoff = OracleValues.cutoff
        let siteA = URL(string: "https://shop.example/a")!
        let rating: Float = 2.5
        let someCode = try #require(try context.fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)])).dropFirst(17).first).code
        var cases: [OracleCase<Product>] = []
        cases.append(.init(name: "price > 9.995 (numeric, not text)", predicate: #Predicate<Product> { $0.price > cheap }))
        cases.append(.init(name: "price == 10 (also 10.00)", predicate: #Predicate<Product> { $0.price == ten }))
        cases.append(.init(name: "price < 0", predicate: #Predicate<Product> { $0.price < zero }))
        cases.append(.init(name: "weight * 2 > 0.6", predicate: #Predicate<Product> { $0.weight * 2 > 0.6 }))
        cases.append(.init(name: "weight == 0.30000000000000004", predicate: #Predicate<Product> { $0.weight == 0.30000000000000004 }))
        cases.append(.init(name: "weight / 3 < 0.1", predicate: #Predicate<Product> { $0.weight / 3 < 0.1 }))
        cases.append(.init(name: "weight == -0.0 (== 0.0)", predicate: #Predicate<Product> { $0.weight == 0.0 }))
        cases.append(.init(name: "rating == nil", predicate: #Predicate<Product> { $0.rating == nil }))
        cases.append(.init(name: "rating ?? 0 > 2.5", predicate: #Predicate<Product> { ($0.rating ?? 0) > rating }))
        cases.append(.init(name: "rating == 0.1 (Float)", predicate: #Predicate<Product> { $0.rating == 0.1 }))
        cases.append(.init(name: "stock < 0", predicate: #Predicate<Product> { $0.stock < 0 }))
        cases.append(.init(name: "-stock > 10", predicate: #Predicate<Product> { -$0.stock > 10 }))
        cases.append(.init(name: "stock % 3 == -1", predicate: #Predicate<Product> { $0.stock % 3 == -1 }))
        cases.append(.init(name: "stock / 4 == -2", predicate: #Predicate<Product> { $0.stock / 4 == -2 }))
        cases.append(.init(name: "(stock + 5) * 2 - 1 >= 3", predicate: #Predicate<Product> { ($0.stock + 5) * 2 - 1 >= 3 }))
        cases.append(.init(name: "shelf >= 3 (UInt16)", predicate: #Predicate<Product> { $0.shelf >= 3 }))
        cases.append(.init(name: "(barcode ?? -1) < 0", predicate: #Predicate<Product> { ($0.barcode ?? -1) < 0 }))
        cases.append(.init(name: "barcode != 0", predicate: #Predicate<Product> { $0.barcode != 0 }))
        cases.append(.init(name: "isActive", predicate: #Predicate<Product> { $0.isActive }))
        cases.append(.init(name: "!isActive && stock > 0", predicate: #Predicate<Product> { !$0.isActive && $0.stock > 0 }))
        cases.append(.init(name: "isActive == false", predicate: #Predicate<Product> { $0.isActive == false }))
        cases.append(.init(name: "code == captured UUID", predicate: #Predicate<Product> { $0.code == someCode }))
        cases.append(.init(name: "code != captured UUID", predicate: #Predicate<Product> { $0.code != someCode }))
        cases.append(.init(name: "Predicate.true", predicate: Predicate<Product>.true, mayBeTrivial: true))
        cases.append(.init(name: "website == nil", predicate: #Predicate<Product> { $0.website == nil }))
        cases.append(.init(name: "website == a", predicate: #Predicate<Product> { $0.website == siteA }))
        cases.append(.init(name: "sizes.contains(42)", predicate: #Predicate<Product> { $0.sizes.contains(42) }))
        cases.append(.init(name: "sizes.isEmpty", predicate: #Predicate<Product> { $0.sizes.isEmpty }))
        cases.append(.init(name: "sizes.count == 2", predicate: #Predicate<Product> { $0.sizes.count == 2 }))
        cases.append(.init(name: "sizes.contains(where: > 40)", predicate: #Predicate<Product> { $0.sizes.contains { $0 > 40 } }))
        cases.append(.init(name: "addedAt >= cutoff", predicate: #Predicate<Product> { $0.addedAt >= addedCutoff }))
        cases.append(.init(name: "sku.starts(with: D-1)", predicate: #Predicate<Product> { $0.sku.starts(with: "D-1") }))
        cases.append(.init(name: "tags.contains(where: sale)", predicate: #Predicate<Product> { $0.tags.contains { $0.label == "sale" } }))
        cases.append(.init(name: "tags.contains(where: localized eco)", predicate: #Predicate<Product> { $0.tags.contains { $0.label.localizedStandardContains("ECO") } }))
        cases.append(.init(name: "tags.isEmpty", predicate: #Predicate<Product> { $0.tags.isEmpty }))
        cases.append(.init(name: "category?.name == Books", predicate: #Predicate<Product> { $0.category?.name == "Books" }))
        cases.append(.init(name: "category?.parent?.name == Root", predicate: #Predicate<Product> { $0.category?.parent?.name == "Root" }))
        cases.append(.init(name: "category == nil", predicate: #Predicate<Product> { $0.category == nil }))
        cases.append(.init(name: "is DigitalProduct", predicate: #Predicate<Product> { $0 is DigitalProduct }))
        cases.append(.init(name: "as? DigitalProduct fileSize > 1000", predicate: #Predicate<Product> { product in
            if let digital = product as? DigitalProduct { digital.fileSize > 1_000 } else { false }
        }))
        cases.append(.init(name: "as? DigitalProduct downloadURL or stock", predicate: #Predicate<Product> { product in
            if let digital = product as? DigitalProduct { digital.stock > 0 } else { product.stock < -10 }
        }))
        try Oracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.sku)" })
    }

    @Test func categoryCustomerOrderPredicates() throws {
        var categories: [OracleCase<Category>] = []
        categories.append(.init(name: "parent == nil", predicate: #Predicate<Category> { $0.parent == nil }))
        categories.append(.init(name: "children.isEmpty", predicate: #Predicate<Category> { $0.children.isEmpty }))
        categories.append(.init(name: "children with few products", predicate: #Predicate<Category> { $0.children.contains { $0.products.count < 20 } }))
        categories.append(.init(name: "parent?.name == name", predicate: #Predicate<Category> { category in
            if let parent = category.parent { parent.name == category.name } else { false }
        }))
        categories.append(.init(name: "products.count > 25", predicate: #Predicate<Category> { $0.products.count > 25 }))
        try Oracle.check(categories, in: context, describe: { "\($0.persistentModelID) \($0.name)" })

        let high = Priority.high
        var customers: [OracleCase<Customer>] = []
        customers.append(.init(name: "default", predicate: #Predicate<Customer> { $0.default }))
        customers.append(.init(name: "orders contain high priority", predicate: #Predicate<Customer> { $0.orders.contains { $0.priority == high } }))
        customers.append(.init(name: "orders.count >= 10", predicate: #Predicate<Customer> { $0.orders.count >= 10 }))
        customers.append(.init(name: "email.contains(1@)", predicate: #Predicate<Customer> { $0.email.contains("1@") }))
        try Oracle.check(customers, in: context, describe: { "\($0.persistentModelID) \($0.email)" })

        let store = Order.Channel.store
        let low = Priority.low
        let channels = [Order.Channel.web, Order.Channel.phone]
        var orders: [OracleCase<Order>] = []
        orders.append(.init(name: "channel == store", predicate: #Predicate<Order> { $0.channel == store }))
        orders.append(.init(name: "channels.contains(channel)", predicate: #Predicate<Order> { channels.contains($0.channel) }))
        orders.append(.init(name: "priority != low", predicate: #Predicate<Order> { $0.priority != low }))
        orders.append(.init(name: "discount < 0", predicate: #Predicate<Order> { $0.discount < 0 }))
        orders.append(.init(name: "quantity + 1 > 4 (Int8)", predicate: #Predicate<Order> { $0.quantity + 1 > 4 }))
        orders.append(.init(name: "points > 200 (UInt8)", predicate: #Predicate<Order> { $0.points > 200 }))
        orders.append(.init(name: "number % 2 == 0 (negatives)", predicate: #Predicate<Order> { $0.number % 2 == 0 }))
        orders.append(.init(name: "number in -10..<10", predicate: #Predicate<Order> { (-10..<10).contains($0.number) }))
        orders.append(.init(name: "group == group", predicate: #Predicate<Order> { $0.group == "group" }))
        orders.append(.init(name: "group < order", predicate: #Predicate<Order> { $0.group < "order" }))
        orders.append(.init(name: "note == nil", predicate: #Predicate<Order> { $0.note == nil }))
        orders.append(.init(name: "note?.isEmpty == true", predicate: #Predicate<Order> { $0.note?.isEmpty == true }))
        orders.append(.init(name: "note != fragile", predicate: #Predicate<Order> { $0.note != "fragile" }))
        orders.append(.init(name: "note?.localized FRAGILE ?? false", predicate: #Predicate<Order> { $0.note?.localizedStandardContains("FRAGILE") ?? false }))
        orders.append(.init(name: "customer?.default == true", predicate: #Predicate<Order> { $0.customer?.default == true }))
        orders.append(.init(name: "customer?.name.starts(with: B)", predicate: #Predicate<Order> { $0.customer?.name.starts(with: "B") ?? false }))
        orders.append(.init(name: "products.isEmpty (join table, no inverse)", predicate: #Predicate<Order> { $0.products.isEmpty }))
        orders.append(.init(name: "products contain negative stock", predicate: #Predicate<Order> { $0.products.contains { $0.stock < 0 } }))
        orders.append(.init(name: "products contain digital", predicate: #Predicate<Order> { $0.products.contains { $0 is DigitalProduct } }))
        try Oracle.check(orders, in: context, describe: { "\($0.persistentModelID) \($0.number)" })
    }
}
