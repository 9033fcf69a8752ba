import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Text that would break SQL built by pasting values (quotes, statement separators, comment
/// markers, parameter markers, NUL) and 1 MB strings is stored and read back byte for byte in
/// every kind of column: TEXT, optional TEXT, a unique TEXT (upsert path), a column named by an
/// SQL keyword, BLOB, JSON text of an array, decimal text; the schema is left untouched. The
/// same payloads are values inside predicates.
@Suite struct InjectionCorpusTests {
    static let payloads: [String] = {
        let small = ["'", "''", "\"", "`", "'; DROP TABLE \"Product\"; --", "\"; DROP TABLE Product; --",
                     "Robert'); DROP TABLE \"Order\";--", "' OR '1'='1", "/* open comment", "*/", "-- line comment",
                     "#", "\\", "\\'", "%", "_", "?", "?1", ":name", "@p", "$x", ";", "\0", "a\0'; DROP TABLE x; --\0",
                     "\u{2028}\u{2029}", "\r\n\t", "NULL", "null", "X'00'", "0x00", ""]
        let megabyte = 1 << 20
        let quotes = String(repeating: "'\"`;--/*", count: megabyte / 8)
        var mixed = ""
        mixed.reserveCapacity(megabyte)
        var random = ReliabilityRandom(seed: 42)
        while mixed.utf8.count < megabyte {
            mixed.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0...0x2FF, using: &random)) ?? "?")
        }
        return small + [quotes, mixed]
    }()

    func tableNames(_ connection: SQLiteConnection) throws -> [SQLValue] {
        try connection.rows("SELECT name FROM sqlite_master ORDER BY name").map { $0[0] }
    }

    @Test func payloadsRoundTripInEveryKindOfColumn() throws {
        let store = try TemporaryStore()
        let tablesBefore: [SQLValue]
        do {
            let container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
            tablesBefore = try tableNames(try store.rawConnection())
            let context = ModelContext(container)
            for (index, payload) in Self.payloads.enumerated() {
                let product = Product(sku: "\(index)" + payload, name: payload, price: Decimal(index))
                product.photo = Data(payload.utf8)
                product.website = URL(string: "https://example.com/?q=" + (payload.prefix(100).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
                product.tags = [Tag(label: "\(index)" + payload)]
                let order = Order(number: Int32(index), group: payload, placedAt: Day.at(index))
                order.note = payload
                order.products = [product]
                context.insert(order)
            }
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Shop.schema, configurations: store.configuration))
        let orders = try context.fetch(FetchDescriptor<Order>(sortBy: [SortDescriptor(\.number)]))
        #expect(orders.count == Self.payloads.count)
        for order in orders {
            let index = Int(order.number)
            let payload = Array(Self.payloads[index].utf8)
            #expect(Array(order.group.utf8) == payload, "group of payload \(index)")
            #expect(order.note.map { Array($0.utf8) } == payload, "note of payload \(index)")
            let product = try #require(order.products.first)
            #expect(Array(product.name.utf8) == payload, "name of payload \(index)")
            #expect(Array(product.sku.utf8) == Array("\(index)".utf8) + payload, "sku of payload \(index)")
            #expect(product.photo.map(Array.init) == payload, "photo of payload \(index)")
            #expect(product.price == Decimal(index))
            #expect(product.tags.map { Array($0.label.utf8) } == [Array("\(index)".utf8) + payload], "tag of payload \(index)")
        }
        try checkPredicates(context)
        let raw = try store.rawConnection()
        #expect(try tableNames(raw) == tablesBefore, "the schema changed")
        #expect(try StoreDump.integrity(raw) == ["ok"])
    }

    /// Every payload as a value inside predicates: equality finds exactly its own row in every
    /// text column; `contains` and `starts(with:)` (short payloads, searched in every row) find
    /// exactly the rows Swift's own evaluation of the predicate finds.
    func checkPredicates(_ context: ModelContext) throws {
        let products = try context.fetch(FetchDescriptor<Product>())
        for (index, payload) in Self.payloads.enumerated() {
            let number = Int32(index)
            let sku = "\(index)" + payload
            let byGroup = try context.fetch(FetchDescriptor<Order>(predicate: #Predicate { $0.group == payload }))
            #expect(byGroup.map(\.number) == [number], "group == payload \(index)")
            let byNote = try context.fetch(FetchDescriptor<Order>(predicate: #Predicate { $0.note == payload }))
            #expect(byNote.map(\.number) == [number], "note == payload \(index)")
            let bySku = try context.fetch(FetchDescriptor<Product>(predicate: #Predicate { $0.sku == sku }))
            #expect(bySku.count == 1, "sku == payload \(index)")
            let byLabel = try context.fetchCount(FetchDescriptor<Tag>(predicate: #Predicate { $0.label == sku }))
            #expect(byLabel == 1, "label == payload \(index)")
            guard payload.utf8.count < 100 else { continue }
            for predicate in [#Predicate<Product> { $0.name.contains(payload) }, #Predicate<Product> { $0.name.starts(with: payload) }] {
                let found = Set(try context.fetch(FetchDescriptor<Product>(predicate: predicate)).map(\.sku))
                let expected = Set(try products.filter { try predicate.evaluate($0) }.map(\.sku))
                #expect(found == expected, "search for payload \(index): \(found.count) found, \(expected.count) expected")
            }
        }
    }

    @Test func payloadsRoundTripInArrayColumns() throws {
        let store = try TemporaryStore()
        do {
            let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: store.configuration))
            for (index, payload) in Self.payloads.enumerated() {
                let plan = Itinerary(title: "\(index)")
                plan.days = [payload, "\(index)", payload]
                context.insert(plan)
            }
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: store.configuration))
        let plans = try context.fetch(FetchDescriptor<Itinerary>())
        #expect(plans.count == Self.payloads.count)
        for plan in plans {
            let index = try #require(Int(plan.title))
            let payload = Self.payloads[index]
            #expect(plan.days.map { Array($0.utf8) } == [Array(payload.utf8), Array("\(index)".utf8), Array(payload.utf8)],
                    "days of payload \(index)")
        }
    }
}
