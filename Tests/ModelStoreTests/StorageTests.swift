import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Every attribute type round-trips; keyword names; constraints the schema puts in the file.
@Suite struct StorageTests {
    let store: TemporaryStore
    let container: ModelContainer

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
    }

    @Test func everyAttributeTypeRoundTrips() throws {
        let code = UUID()
        let added = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456)
        do {
            let context = ModelContext(container)
            let ebook = DigitalProduct(sku: "E1", name: "Book", price: Decimal(string: "12345678901234567890.123456789")!,
                                       downloadURL: URL(string: "https://example.com/a%20b?x=1")!, fileSize: .max)
            ebook.weight = 0.1
            ebook.rating = 4.7
            ebook.stock = .min
            ebook.shelf = .max
            ebook.barcode = .max
            ebook.isActive = false
            ebook.code = code
            ebook.website = URL(string: "https://example.com")
            ebook.photo = Data()
            ebook.sizes = [1, -2, 3]
            ebook.addedAt = added
            ebook.isSelected = true
            context.insert(ebook)
            let order = Order(number: .min, group: "", placedAt: Date.distantPast)
            order.channel = .store
            order.priority = .high
            order.quantity = .min
            order.discount = .max
            order.points = .max
            order.note = "Ünïcødé \u{1F600} \"quoted\" 'single'"
            context.insert(order)
            try context.save()
        }
        let context = ModelContext(container)
        let ebook = try #require(try context.fetch(FetchDescriptor<Product>()).first as? DigitalProduct)
        #expect(ebook.price == Decimal(string: "12345678901234567890.123456789")!)
        #expect(ebook.downloadURL == URL(string: "https://example.com/a%20b?x=1")!)
        #expect(ebook.fileSize == .max)
        #expect(ebook.weight == 0.1)
        #expect(ebook.rating == 4.7)
        #expect(ebook.stock == .min)
        #expect(ebook.shelf == .max)
        #expect(ebook.barcode == .max)
        #expect(ebook.isActive == false)
        #expect(ebook.code == code)
        #expect(ebook.website == URL(string: "https://example.com"))
        #expect(ebook.photo == Data())
        #expect(ebook.sizes == [1, -2, 3])
        #expect(ebook.addedAt == added)
        #expect(ebook.isSelected == false, "transient values are not stored")
        let order = try #require(try context.fetch(FetchDescriptor<Order>()).first)
        #expect(order.number == .min)
        #expect(order.group == "")
        #expect(order.placedAt == Date.distantPast)
        #expect(order.channel == .store)
        #expect(order.priority == .high)
        #expect(order.quantity == .min && order.discount == .max && order.points == .max)
        #expect(order.note == "Ünïcødé \u{1F600} \"quoted\" 'single'")
        // Values are stored in their documented forms.
        let raw = try store.rawConnection()
        let row = try raw.rows("SELECT typeof(code), length(code), typeof(price), price, typeof(addedAt), typeof(photo), sizes FROM Product")
        #expect(row.first == [.text("blob"), .integer(16), .text("text"), .text("12345678901234567890.123456789"),
                              .text("real"), .text("blob"), .text("[1,-2,3]")])
        let enums = try raw.rows("SELECT channel, priority FROM \"Order\"")
        #expect(enums.first == [.text("in-store"), .integer(2)])
    }

    @Test func keywordNamesWork() throws {
        do {
            let context = ModelContext(container)
            let ann = Customer(name: "Ann", email: "ann@example.com")
            ann.default = true
            let order = Order(number: 1, group: "select", placedAt: Day.at(1))
            order.customer = ann
            context.insert(order)
            try context.save()
        }
        let context = ModelContext(container)
        let ann = try #require(try context.fetch(FetchDescriptor<Customer>(sortBy: [SortDescriptor(\.name)])).first)
        #expect(ann.default)
        let orders = try context.fetch(FetchDescriptor<Order>(sortBy: [SortDescriptor(\.group)]))
        #expect(orders.map(\.group) == ["select"])
        #expect(orders.first?.customer === ann)
        let columns = try store.rawConnection().rows("SELECT name FROM pragma_table_info('Order')").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
        #expect(columns.contains("group"))
    }

    @Test func subclassRequiredColumnsAreCheckedForTheirRowsOnly() throws {
        let raw = try store.rawConnection()
        try raw.run("INSERT INTO Product (\"$type\", sku, name, price, weight, stock, shelf, isActive, code, sizes, addedAt) VALUES ('Product', 'S', 'n', '1', 0, 0, 0, 1, x'00', '[]', 0)")
        #expect(throws: SQLiteError.self) {
            try raw.run("INSERT INTO Product (\"$type\", sku, name, price, weight, stock, shelf, isActive, code, sizes, addedAt) VALUES ('DigitalProduct', 'T', 'n', '1', 0, 0, 0, 1, x'00', '[]', 0)")
        }
    }

    @Test func foreignKeysAreEnforcedAndIndexed() throws {
        let raw = try store.rawConnection()
        let foreignKeys = try raw.rows("PRAGMA foreign_keys")
        #expect(foreignKeys.first?.first == .integer(1))
        #expect(throws: SQLiteError.self) {
            try raw.run("INSERT INTO Product (\"$type\", sku, name, price, code, sizes, addedAt, category) VALUES ('Product', 'S', 'n', '1', x'00', '[]', 0, 999)")
        }
        let indexes = try raw.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Product' AND name LIKE 'Product.index(category)'")
        #expect(indexes.count == 1)
        let journal = try raw.rows("PRAGMA journal_mode")
        #expect(journal.first?.first == .text("wal"))
    }

    @Test func identifiersAreQuoted() {
        #expect(SQLQuote.identifier("Order") == "\"Order\"")
        #expect(SQLQuote.identifier("a\"b") == "\"a\"\"b\"")
        #expect(SQLQuote.literal("it's") == "'it''s'")
    }
}

/// A stored value that does not fit its property is an error, never a crash.
@Suite struct CorruptStoreTests {
    @Test func anUnknownEnumValueMakesTheFetchThrow() throws {
        let store = try TemporaryStore()
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        let context = ModelContext(container)
        context.insert(PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(2), reason: .vacation))
        try context.save()
        try store.rawConnection().execute("UPDATE Trip SET \"PersonalTrip.reason\" = 'bogus'")
        #expect(throws: ModelStoreError.self) { try ModelContext(container).fetch(FetchDescriptor<Trip>()) }
    }

    @Test func anUnknownTypeNameMakesTheFetchThrow() throws {
        let store = try TemporaryStore()
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        let context = ModelContext(container)
        context.insert(Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2)))
        try context.save()
        try store.rawConnection().execute("UPDATE Trip SET \"$type\" = 'Gone'")
        #expect(throws: ModelStoreError.unknownEntity("Gone")) { try ModelContext(container).fetch(FetchDescriptor<Trip>()) }
    }
}
