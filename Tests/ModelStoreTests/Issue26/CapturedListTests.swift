import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #26, items 10 and 11: `captured.contains($0.property)` with a long captured array is linear in
/// the array (duplicates dropped through a set) and works past each store's parameter limits (one
/// parameter for the whole list). Item 9: a captured text holding U+0000 matches as
/// `Predicate.evaluate` does on every store, and PostgreSQL refuses to save such a text naming
/// the property. Oracle: `Predicate.evaluate` over every stored model.
@Suite struct CapturedListTests {
    static func seeded(_ kind: StoreKind, count: Int = 20) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, Shop.schema)
        for index in 0..<count {
            let product = Product(sku: "sku-\(index)", name: "name \(index)", price: Decimal(index) / 4)
            product.weight = Double(index) / 3
            product.stock = index * 7 - 30
            product.barcode = index.isMultiple(of: 3) ? nil : Int64(index) << 40
            product.photo = index.isMultiple(of: 2) ? Data([UInt8(index), 0, 255]) : nil
            fixture.context.insert(product)
        }
        try fixture.context.save()
        return fixture
    }

    /// The skus the store returns for `predicate`, and those `evaluate` accepts among all products.
    static func check(_ fixture: StoreFixture, _ predicate: Predicate<Product>, _ what: String,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = ModelContext(fixture.container)
        let all = try context.fetch(FetchDescriptor<Product>())
        let expected = try all.filter { try predicate.evaluate($0) }.map(\.sku).sorted()
        let found = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.sku).sorted()
        #expect(found == expected, "\(what)", sourceLocation: sourceLocation)
        #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count, "\(what)", sourceLocation: sourceLocation)
    }

    @Test("300,000 captured names, most of them repeated, on a small table (item 10)", arguments: StoreKind.allCases)
    func manyRepeatedNames(_ kind: StoreKind) throws {
        let fixture = try Self.seeded(kind)
        // 300,000 names: 1,000 distinct misses repeated, and three of the stored names.
        var names = (0..<300_000).map { "missing \($0 % 1_000)" }
        names[17] = "name 3"
        names[150_000] = "name 11"
        names[299_999] = "name 3"
        try Self.check(fixture, #Predicate<Product> { names.contains($0.name) }, "300k names")
        let none = Array(repeating: "absent", count: 300_000)
        try Self.check(fixture, #Predicate<Product> { none.contains($0.name) }, "300k copies of one name")
    }

    @Test("20,000 distinct captured values of each type, past PostgreSQL's protocol limit and the 1,000 where a list becomes one parameter (item 11)", arguments: StoreKind.allCases)
    func manyDistinctValues(_ kind: StoreKind) throws {
        let fixture = try Self.seeded(kind)
        let stored = try ModelContext(fixture.container).fetch(FetchDescriptor<Product>())
        // 20,000: well past the ~7,500 values one parameter each broke PostgreSQL's protocol at, and
        // past the 1,000 where a list becomes one array parameter; larger lists take the same path.
        let count = 20_000
        // Every list holds the values of some stored products among many others.
        let names = (0..<count).map { "other \($0)" } + stored.prefix(5).map(\.name) + ["quote \" back \\ slash", "ä", ""]
        try Self.check(fixture, #Predicate<Product> { names.contains($0.name) }, "strings")
        let stocks = (0..<count).map { 1_000 + $0 * 3 } + stored.suffix(4).map(\.stock)
        try Self.check(fixture, #Predicate<Product> { stocks.contains($0.stock) }, "integers")
        let weights = (0..<count).map { Double($0) * 0.37 + 1e9 } + stored.dropFirst(3).prefix(6).map(\.weight)
        try Self.check(fixture, #Predicate<Product> { weights.contains($0.weight) }, "doubles")
        let codes = (0..<count).map { _ in UUID() } + stored.prefix(7).map(\.code)
        try Self.check(fixture, #Predicate<Product> { codes.contains($0.code) }, "UUIDs")
        let prices = (0..<count).map { Decimal($0) + Decimal(string: "0.125")! + 1_000 } + stored.suffix(3).map(\.price)
        try Self.check(fixture, #Predicate<Product> { prices.contains($0.price) }, "decimals")
        let barcodes: [Int64?] = (0..<count).map { Int64($0) } + stored.prefix(8).map(\.barcode)
        try Self.check(fixture, #Predicate<Product> { barcodes.contains($0.barcode) }, "optional integers with nil")
        let photos: [Data?] = (0..<count).map { Data([UInt8($0 & 255), UInt8($0 >> 8 & 255), 1, 2]) } + stored.prefix(6).map(\.photo)
        try Self.check(fixture, #Predicate<Product> { photos.contains($0.photo) }, "optional data with nil")
        try Self.check(fixture, #Predicate<Product> { !names.contains($0.name) && stocks.contains($0.stock) }, "two lists, one negated")
        let stored4 = try ModelContext(fixture.container).fetchIdentifiers(FetchDescriptor<Product>()).prefix(4)
        let identifiers = (0..<count).map { PersistentIdentifier(entityName: "Product", rowID: Int64(10_000 + $0 % 50_000),
                                                                    store: fixture.container.storeIdentifier) } + stored4
        try Self.check(fixture, #Predicate<Product> { identifiers.contains($0.persistentModelID) }, "identifiers, repeated")
    }

    static let nulTexts = ["a\u{0}b", "\u{0}", "name 1\u{0}", "name 1\u{0}x", "name 19\u{0}"]

    @Test("A captured text holding U+0000 matches what Predicate.evaluate matches (item 9)", arguments: StoreKind.allCases)
    func capturedNUL(_ kind: StoreKind) throws {
        let fixture = try Self.seeded(kind)
        for text in Self.nulTexts {
            try Self.check(fixture, #Predicate<Product> { $0.name == text }, "== \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { $0.name != text }, "!= \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { $0.name < text }, "< \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { $0.name <= text }, "<= \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { $0.name > text }, "> \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { text >= $0.name }, "captured >= \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { $0.name.contains(text) }, "contains \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { $0.name.starts(with: text) }, "starts(with:) \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { text.contains($0.name) }, "captured contains \(text.debugDescription)")
            try Self.check(fixture, #Predicate<Product> { text.starts(with: $0.name) }, "captured starts(with:) \(text.debugDescription)")
            let list = [text, "name 4"]
            try Self.check(fixture, #Predicate<Product> { list.contains($0.name) }, "in [\(text.debugDescription), name 4]")
            let only = [text]
            try Self.check(fixture, #Predicate<Product> { only.contains($0.name) }, "in [\(text.debugDescription)]")
        }
    }

    @Test("Saving a String holding U+0000: PostgreSQL refuses naming the entity and property; SQLite keeps it", arguments: StoreKind.allCases)
    func storedNUL(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, Shop.schema)
        let product = Product(sku: "nul", name: "before\u{0}after", price: 1)
        fixture.context.insert(product)
        if kind == .postgresql {
            do {
                try fixture.context.save()
                Issue.record("saved a text holding U+0000 on PostgreSQL")
            } catch let error as ModelStoreError {
                guard case .unstorableValue(let entity, let property, let reason) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(entity == "Product" && property == "name" && reason.contains("U+0000"))
            }
            #expect(fixture.context.hasChanges)
            // A change of a saved model too.
            product.name = "fine"
            try fixture.context.save()
            product.name = "\u{0}"
            #expect(throws: ModelStoreError.unstorableValue(entity: "Product", property: "name",
                                                            reason: "the text holds the character U+0000 (NUL), which PostgreSQL text cannot hold")) {
                try fixture.context.save()
            }
        } else {
            try fixture.context.save()
            let read = try ModelContext(fixture.container).fetch(FetchDescriptor<Product>())
            #expect(read.map(\.name) == ["before\u{0}after"])
        }
    }
}
