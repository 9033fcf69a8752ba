import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Every attribute type round-trips; keyword names; constraints the schema puts in the file.
@Suite struct StorageTests {
    /// The test's store, with a container on it and a context.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        try StoreFixture(kind, Shop.schema)
    }

    @Test(arguments: StoreKind.allCases) func everyAttributeTypeRoundTrips(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
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
        let raw = try container.makeConnection()
        switch kind {
        case .sqliteFile, .sqliteMemory:
            let row = try raw.rows(#"SELECT typeof("code"), length("code"), typeof("price"), "price", typeof("addedAt"), typeof("photo"), "sizes" FROM "Product""#)
            #expect(row.first == [.text("blob"), .integer(16), .text("text"), .text("12345678901234567890.123456789"),
                                  .text("real"), .text("blob"), .text("[1,-2,3]")])
        case .postgresql:
            let row = try raw.rows(#"SELECT pg_typeof("code")::text, "code"::text, pg_typeof("price")::text, "price", pg_typeof("addedAt")::text, pg_typeof("photo")::text, "sizes"::text, pg_typeof("isActive")::text FROM "Product""#)
            #expect(row.first == [.text("uuid"), .text(code.uuidString.lowercased()), .text("numeric"), .text("12345678901234567890.123456789"),
                                  .text("double precision"), .text("bytea"), .text("[1, -2, 3]"), .text("bigint")])
        }
        let enums = try raw.rows(#"SELECT "channel", "priority" FROM "Order""#)
        #expect(enums.first == [.text("in-store"), .integer(2)])
    }

    @Test(arguments: StoreKind.allCases) func keywordNamesWork(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
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
        let catalog = kind == .postgresql
            ? "SELECT column_name::text FROM information_schema.columns WHERE table_name = 'Order'"
            : "SELECT name FROM pragma_table_info('Order')"
        let columns = try container.makeConnection().rows(catalog).compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
        #expect(columns.contains("group"))
    }

    /// A product row of type `type`, written by hand (no digital product columns).
    static func insertProductRow(_ type: String, sku: String, category: Int64?, _ raw: any StoreConnection) throws {
        try raw.run(#"INSERT INTO "Product" ("$type", "sku", "name", "price", "weight", "stock", "shelf", "isActive", "code", "sizes", "addedAt", "category") "#
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [.text(type), .text(sku), .text("n"), .text("1"), .real(0), .integer(0), .integer(0), .integer(1),
                     .blob(Data(count: 16)), .text("[]"), .real(0), category.map(SQLValue.integer) ?? .null])
    }

    @Test(arguments: StoreKind.allCases) func subclassRequiredColumnsAreCheckedForTheirRowsOnly(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let raw = try fixture.container.makeConnection()
        try Self.insertProductRow("Product", sku: "S", category: nil, raw)
        #expect { try Self.insertProductRow("DigitalProduct", sku: "T", category: nil, raw) } throws: { fixture.store.isStoreError($0) }
    }

    @Test(arguments: StoreKind.allCases) func foreignKeysAreEnforcedAndIndexed(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let raw = try fixture.container.makeConnection()
        #expect { try Self.insertProductRow("Product", sku: "S", category: 999, raw) } throws: { fixture.store.isStoreError($0) }
        let indexQuery = kind == .postgresql
            ? "SELECT indexname FROM pg_indexes WHERE tablename = 'Product' AND indexname = 'Product.index(category)'"
            : "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Product' AND name LIKE 'Product.index(category)'"
        #expect(try raw.rows(indexQuery).count == 1)
        if kind != .postgresql {
            #expect(try raw.rows("PRAGMA foreign_keys").first?.first == .integer(1))
        }
        if kind == .sqliteFile {
            #expect(try raw.rows("PRAGMA journal_mode").first?.first == .text("wal"))
        }
    }

    @Test func identifiersAreQuoted() {
        #expect(SQLQuote.identifier("Order") == "\"Order\"")
        #expect(SQLQuote.identifier("a\"b") == "\"a\"\"b\"")
        #expect(SQLQuote.literal("it's") == "'it''s'")
    }
}

/// A stored value that does not fit its property is an error, never a crash.
@Suite struct CorruptStoreTests {
    @Test(arguments: StoreKind.allCases) func anUnknownEnumValueMakesTheFetchThrow(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let container = fixture.container
        let context = fixture.context
        context.insert(PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(2), reason: .vacation))
        try context.save()
        try container.makeConnection().execute(#"UPDATE "Trip" SET "PersonalTrip.reason" = 'bogus'"#)
        #expect(throws: ModelStoreError.self) { try ModelContext(container).fetch(FetchDescriptor<Trip>()) }
    }

    @Test(arguments: StoreKind.allCases) func anUnknownTypeNameMakesTheFetchThrow(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let container = fixture.container
        let context = fixture.context
        context.insert(Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2)))
        try context.save()
        try container.makeConnection().execute(#"UPDATE "Trip" SET "$type" = 'Gone'"#)
        #expect(throws: ModelStoreError.unknownEntity("Gone")) { try ModelContext(container).fetch(FetchDescriptor<Trip>()) }
    }

    /// Type names near a member's (`TypeNameTable` compares a word at a time, then the bytes left):
    /// one byte off at the end or within the first word, a prefix, one byte longer, another case,
    /// empty. Each is unknown, and the rows of the members around it still read as their classes.
    @Test(arguments: StoreKind.allCases) func typeNamesNearAMembersAreUnknown(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let container = fixture.container
        let context = fixture.context
        context.insert(Trip(name: "Walk", startDate: Day.at(1), endDate: Day.at(2)))
        context.insert(BusinessTrip(name: "Fair", startDate: Day.at(1), endDate: Day.at(2), company: "Acme"))
        context.insert(PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(2), reason: .vacation))
        try context.save()
        let connection = try container.makeConnection()
        for name in ["BusinessTrap", "BusinesXTrip", "Business", "Tri", "Trips", "PersonalTrip ", "businesstrip", ""] {
            try connection.execute(#"UPDATE "Trip" SET "$type" = '\#(name)' WHERE "name" = 'Walk'"#)
            #expect(throws: ModelStoreError.unknownEntity(name)) { try ModelContext(container).fetch(FetchDescriptor<Trip>()) }
        }
        try connection.execute(#"UPDATE "Trip" SET "$type" = 'Trip' WHERE "name" = 'Walk'"#)
        let trips = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(trips.map { "\(type(of: $0))" } == ["Trip", "BusinessTrip", "PersonalTrip"])
    }
}

/// `ModelContext.TypeNameTable` against comparing the names as arrays.
@Suite struct TypeNameTableTests {
    @Test func findsExactlyTheEqualName() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let names: [[UInt8]] = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                (0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 97...99, using: &generator) }
            }
            let table = ModelContext.TypeNameTable(names)
            var probes = names
            for name in names where !name.isEmpty {
                // Each byte changed, the last dropped, one added.
                for position in name.indices {
                    var changed = name
                    changed[position] = changed[position] == 97 ? 98 : 97
                    probes.append(changed)
                }
                probes.append(Array(name.dropLast()))
                probes.append(name + [97])
            }
            for probe in probes {
                let found = probe.withUnsafeBufferPointer { table.index(of: $0) }
                #expect(found == names.firstIndex(of: probe), "\(names) \(probe)")
            }
        }
    }
}
