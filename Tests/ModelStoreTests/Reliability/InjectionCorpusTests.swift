import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Text that would break SQL built by pasting values (quotes, statement separators, comment
/// markers, parameter markers, NUL) and 1 MB strings is stored and read back byte for byte in
/// every kind of column: TEXT, optional TEXT, a unique TEXT (upsert path), a column named by an
/// SQL keyword, BLOB, JSON text of an array, decimal text; the schema is left untouched. The
/// same payloads are values inside predicates. On every store; PostgreSQL's text cannot hold
/// U+0000, so there payloads with a NUL are left out, and refused with a clear error (below).
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

    /// The payloads a store of `kind` holds.
    static func payloads(_ kind: StoreKind) -> [String] {
        kind == .postgresql ? payloads.filter { !$0.unicodeScalars.contains("\0") } : payloads
    }

    /// `payload` as a unique or indexed column of a store of `kind` takes it: PostgreSQL's B-tree
    /// indexes hold entries of at most about 2,700 bytes, so the megabyte payloads go only into
    /// columns without an index there.
    static func indexable(_ payload: String, index: Int, _ kind: StoreKind) -> String {
        kind == .postgresql && payload.utf8.count > 2_000 ? "too long for an index \(index)" : payload
    }

    func tableNames(_ store: TestStore) throws -> Set<String> {
        try store.objectNames(type: "table").union(store.objectNames(type: "index"))
    }

    @Test(arguments: StoreKind.persistent) func payloadsRoundTripInEveryKindOfColumn(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let tablesBefore: Set<String>
        let payloads = Self.payloads(kind)
        do {
            let container = try store.container(for: Shop.schema)
            tablesBefore = try tableNames(store)
            let context = ModelContext(container)
            for (index, payload) in payloads.enumerated() {
                let indexed = Self.indexable(payload, index: index, kind)
                let product = Product(sku: "\(index)" + indexed, name: indexed, price: Decimal(index))
                product.photo = Data(payload.utf8)
                product.website = URL(string: "https://example.com/?q=" + (payload.prefix(100).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
                product.tags = [Tag(label: "\(index)" + indexed)]
                let order = Order(number: Int32(index), group: payload, placedAt: Day.at(index))
                order.note = payload
                order.products = [product]
                context.insert(order)
            }
            try context.save()
        }
        let context = ModelContext(try store.container(for: Shop.schema))
        let orders = try context.fetch(FetchDescriptor<Order>(sortBy: [SortDescriptor(\.number)]))
        #expect(orders.count == payloads.count)
        for order in orders {
            let index = Int(order.number)
            let payload = Array(payloads[index].utf8)
            let indexed = Array(Self.indexable(payloads[index], index: index, kind).utf8)
            #expect(Array(order.group.utf8) == payload, "group of payload \(index)")
            #expect(order.note.map { Array($0.utf8) } == payload, "note of payload \(index)")
            let product = try #require(order.products.first)
            #expect(Array(product.name.utf8) == indexed, "name of payload \(index)")
            #expect(Array(product.sku.utf8) == Array("\(index)".utf8) + indexed, "sku of payload \(index)")
            #expect(product.photo.map(Array.init) == payload, "photo of payload \(index)")
            #expect(product.price == Decimal(index))
            #expect(product.tags.map { Array($0.label.utf8) } == [Array("\(index)".utf8) + indexed], "tag of payload \(index)")
        }
        try checkPredicates(context, payloads, kind)
        #expect(try tableNames(store) == tablesBefore, "the schema changed")
        if let file = try store.sqliteFileConnection() { #expect(try StoreDump.integrity(file) == ["ok"]) }
    }

    /// Every payload as a value inside predicates: equality finds exactly its own row in every
    /// text column; `contains` and `starts(with:)` (short payloads, searched in every row) find
    /// exactly the rows Swift's own evaluation of the predicate finds.
    func checkPredicates(_ context: ModelContext, _ payloads: [String], _ kind: StoreKind) throws {
        let products = try context.fetch(FetchDescriptor<Product>())
        for (index, payload) in payloads.enumerated() {
            let number = Int32(index)
            let sku = "\(index)" + Self.indexable(payload, index: index, kind)
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

    @Test(arguments: StoreKind.persistent) func payloadsRoundTripInArrayColumns(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let payloads = Self.payloads(kind)
        do {
            let context = ModelContext(try store.container(for: TripStore.schema))
            for (index, payload) in payloads.enumerated() {
                let plan = Itinerary(title: "\(index)")
                plan.days = [payload, "\(index)", payload]
                context.insert(plan)
            }
            try context.save()
        }
        let context = ModelContext(try store.container(for: TripStore.schema))
        let plans = try context.fetch(FetchDescriptor<Itinerary>())
        #expect(plans.count == payloads.count)
        for plan in plans {
            let index = try #require(Int(plan.title))
            let payload = payloads[index]
            #expect(plan.days.map { Array($0.utf8) } == [Array(payload.utf8), Array("\(index)".utf8), Array(payload.utf8)],
                    "days of payload \(index)")
        }
    }

    /// PostgreSQL's text cannot hold U+0000: a save of such a string (or of an array holding one,
    /// whose JSON would hold `\u0000`) fails with an error saying so, and writes nothing.
    @Test func aNulCharacterIsRefusedOnPostgreSQL() throws {
        let store = try TestStore(.postgresql)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        context.insert(Trip(name: "fine", startDate: Day.at(0), endDate: Day.at(1)))
        context.insert(Trip(name: "a\0b", startDate: Day.at(0), endDate: Day.at(1)))
        #expect { try context.save() } throws: { "\($0)".contains("U+0000") || "\($0)".contains("NUL") }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
        context.rollback()
        let plan = Itinerary(title: "plan")
        plan.days = ["a\0b"]
        context.insert(plan)
        #expect { try context.save() } throws: { $0 is PostgresError }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Itinerary>()) == 0)
    }
}
