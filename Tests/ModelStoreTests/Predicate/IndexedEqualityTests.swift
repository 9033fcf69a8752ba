import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `==` and `contains` spelled so an index serves them (docs/Predicates.md, "Equality and
/// indexes"): the Unicode facts the spelling rests on, checked on this toolchain against Swift's
/// own `==`; the spellings it finds for a text, against `==` on generated texts; and fetches on
/// every store against `Predicate.evaluate`, on a unique, an indexed and an unindexed property.
@Suite struct IndexedEqualityTests {
    /// Texts that are equal in Swift and differ in their bytes (KELVIN SIGN, OHM SIGN, ANGSTROM
    /// SIGN, GREEK QUESTION MARK, GREEK VARIA, precomposed and combining accents, a mark that is a
    /// singleton of another, marks in either order), case variants, many K's, the empty text.
    static let hard = [
        "Kelvin", "\u{212A}elvin", "kelvin", "KELVIN", "K", "\u{212A}", "Café", "Cafe\u{301}", "Cafe\u{341}", "CAFÉ", "café",
        "Ω", "\u{2126}", "ω", "Å", "\u{212B}", "A\u{30A}", "Ångström", "\u{212B}ngstro\u{308}m", "A\u{30A}ngström",
        "a;b", "a\u{37E}b", "`x`", "\u{1FEF}x`", "KKKKK", "KK\u{212A}KK", "KKKKKx", "KK\u{212A}KKx", "Beach", "beach", "BEACH", "",
        "e", "é", "ệ", "e\u{323}\u{302}", "ê\u{323}", "ẹ\u{302}", "≠", "=\u{338}", "product 7", "Müller", "Mu\u{308}ller", "MÜLLER",
        "日本", "🇫🇷 Paris", "ab\u{212A}", "abK",
    ]

    /// Captured texts the fetches look for: each of `hard`, and some no row holds in these bytes.
    static let wanted = hard + ["nothing", "\u{212A}\u{212A}\u{212A}\u{212A}\u{212A}", "KK\u{212A}K\u{212A}x", "ab", "Beach ", "\u{212B}ngstr\u{F6}m"]

    // MARK: The facts

    /// The only non-ASCII scalars equal to an ASCII text are KELVIN SIGN, GREEK QUESTION MARK and
    /// GREEK VARIA; no scalar decomposes into an ASCII character followed by a starter.
    @Test func theUnicodeFactsTheSpellingRestsOn() {
        var equalToASCII: [UInt32: String] = [:]
        var asciiThenStarter: [UInt32] = []
        var disagreements: [UInt32] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch scalar.properties.generalCategory {
            case .unassigned, .privateUse, .surrogate: continue
            default: break
            }
            let text = String(scalar)
            // Swift's own normal form (what `==` compares).
            let nfc = text._nfcCodeUnits
            if nfc.allSatisfy({ $0 < 0x80 }) { equalToASCII[value] = String(decoding: nfc, as: UTF8.self) }
            let decomposed = Array(text.decomposedStringWithCanonicalMapping.unicodeScalars)
            if decomposed.count > 1 {
                if decomposed[0].isASCII && decomposed[1].properties.canonicalCombiningClass == .notReordered {
                    asciiThenStarter.append(value)
                }
                // Foundation's decomposition is Swift's equality.
                if String(String.UnicodeScalarView(decomposed)) != text { disagreements.append(value) }
            }
        }
        #expect(equalToASCII == [0x212A: "K", 0x037E: ";", 0x1FEF: "`"])
        #expect(CanonicalEquivalents.singletons.count == 3)
        for (ascii, other) in CanonicalEquivalents.singletons {
            #expect(String(ascii) == String(other) && equalToASCII[other.value] == String(ascii))
        }
        #expect(asciiThenStarter.isEmpty, "\(asciiThenStarter.map { String($0, radix: 16) })")
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).map { String($0, radix: 16) })")
    }

    // MARK: The spellings

    /// Pieces equal in Swift, by group: a text made of pieces equals every text made of pieces of
    /// the same groups.
    static let pieces: [[String]] = [
        ["K", "\u{212A}"], [";", "\u{37E}"], ["`", "\u{1FEF}"], ["é", "e\u{301}", "e\u{341}"], ["Å", "\u{212B}", "A\u{30A}"],
        ["Ω", "\u{2126}"], ["ệ", "e\u{323}\u{302}", "ẹ\u{302}", "ê\u{323}"], ["≠", "=\u{338}"], ["ö", "o\u{308}"],
        ["a"], ["k"], ["x"], [" "], ["e"], ["="], ["A"], ["o"], ["日"], ["🇫🇷"], ["\u{0}"],
    ]

    /// For generated texts c and texts s equal to c in Swift: an exact lookup lists s, a prefix
    /// lookup is a prefix of s's bytes; and every listed spelling equals c, once.
    @Test func theSpellingsAreEveryEqualTextAndOnlyThose() {
        var random = SeededGenerator(seed: 29)
        var exact = 0, prefixed = 0, none = 0
        for _ in 0..<20_000 {
            let groups = (0..<Int.random(in: 0...7, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }
            let text = groups.map { $0.randomElement(using: &random)! }.joined()
            let equal = groups.map { $0.randomElement(using: &random)! }.joined()
            let other = (0..<Int.random(in: 0...7, using: &random)).map { _ in Self.pieces.randomElement(using: &random)!.randomElement(using: &random)! }.joined()
            let lookup = CanonicalEquivalents.lookup(text)
            switch lookup {
            case .exact(let spellings):
                exact += 1
                #expect(Set(spellings.map { Array($0.utf8) }).count == spellings.count, "\(text.debugDescription): \(spellings)")
                #expect(spellings.allSatisfy { $0 == text }, "\(text.debugDescription): \(spellings)")
                #expect(spellings.count <= CanonicalEquivalents.maximumSpellings)
                for candidate in [equal, other] where candidate == text {
                    #expect(spellings.contains { Array($0.utf8) == Array(candidate.utf8) }, "\(text.debugDescription) misses \(candidate.debugDescription)")
                }
            case .prefix(let prefix):
                prefixed += 1
                #expect(!prefix.isEmpty && prefix.utf8.allSatisfy { $0 < 0x80 })
                for candidate in [text, equal, other] where candidate == text {
                    #expect(candidate.utf8.starts(with: prefix.utf8), "\(candidate.debugDescription) does not start with \(prefix.debugDescription)")
                }
                let bound = CanonicalEquivalents.upperBound(ofPrefix: prefix)
                #expect(bound.map { Array(text.utf8).lexicographicallyPrecedes($0.utf8) } ?? true, "\(text.debugDescription), \(prefix.debugDescription)")
            case .none:
                none += 1
            }
        }
        #expect(exact > 1_000 && prefixed > 1_000 && none > 1_000, "\(exact) \(prefixed) \(none)")
        #expect(CanonicalEquivalents.lookup("KKKKK") == .none)
        #expect(CanonicalEquivalents.lookup("abKKKKK") == .prefix("ab"))
        #expect(CanonicalEquivalents.lookup("Müller") == .none)
        #expect(CanonicalEquivalents.lookup("product 7 é") == .prefix("product 7"))
        #expect(CanonicalEquivalents.lookup("a;K") == .exact(["a;K", "a;\u{212A}", "a\u{37E}K", "a\u{37E}\u{212A}"]))
        #expect(CanonicalEquivalents.upperBound(ofPrefix: "ab\u{7F}\u{7F}") == "ac")
        #expect(CanonicalEquivalents.upperBound(ofPrefix: "\u{7F}") == nil)
    }

    /// The collation of SQLite's `IN` lists: equal exactly when Swift's `==` says so, and a
    /// consistent order (Swift's `<` is not: `"\u{212A}" == "K" < "Ka" < "\u{212A}"`), so the
    /// B-tree SQLite builds of a list finds every value equal to a row's.
    @Test func theCanonicalCollationIsSwiftsEqualityInAConsistentOrder() {
        func compare(_ lhs: String, _ rhs: String) -> Int32 {
            var (lhs, rhs) = (lhs, rhs)
            return lhs.withUTF8 { left in rhs.withUTF8 { right in
                PredicateFunctions.compareCanonicalUTF8(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
            } }
        }
        #expect("\u{212A}" == "K" && "K" < "Ka" && "\u{212A}" > "Ka")   // Swift's own inconsistency
        #expect(compare("\u{212A}", "K") == 0 && compare("K", "Ka") == -1 && compare("\u{212A}", "Ka") == -1)
        var random = SeededGenerator(seed: 7)
        let texts = (0..<400).map { _ in
            (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.pieces.randomElement(using: &random)!.randomElement(using: &random)! }.joined()
        }
        for a in texts {
            for b in texts {
                let order = compare(a, b)
                #expect((order == 0) == (a == b), "\(a.debugDescription) \(b.debugDescription)")
                #expect(order == -compare(b, a))
            }
        }
        // Sorted with it, every neighbour is in order and equal texts are together: transitive.
        let sorted = texts.sorted { compare($0, $1) < 0 }
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(compare(a, b) <= 0) }
        for (index, a) in sorted.enumerated() {
            for b in sorted[(index + 1)...] where compare(a, b) > 0 { Issue.record("\(a.debugDescription) after \(b.debugDescription)") }
        }
    }

    // MARK: Fetches

    static func populate(_ context: ModelContext) throws {
        for (index, text) in hard.enumerated() {
            context.insert(Customer(name: text, email: text))
            let product = Product(sku: text, name: text, price: 1)
            product.stock = index % 7
            context.insert(product)
            let digital = DigitalProduct(sku: "d" + text, name: text, price: 2, downloadURL: URL(string: "https://example.com/\(index)")!, fileSize: 1)
            digital.stock = index % 5
            context.insert(digital)
        }
        for number in 0..<200 {
            context.insert(Customer(name: "name \(number)", email: "c\(number)@example.com"))
            context.insert(Product(sku: "sku\(number)", name: "product \(number)", price: 3))
        }
        try context.save()
    }

    @Test(arguments: StoreKind.allCases) func stringEqualityOnUniqueIndexedAndPlainPropertiesIsSwiftsEquality(_ kind: StoreKind) throws {
        let oracle = try OracleStore(kind, Shop.schema) { try Self.populate($0) }
        var customers: [OracleCase<Customer>] = []
        var products: [OracleCase<Product>] = []
        for value in Self.wanted {
            let other = "beach"
            let list = [value, other]
            customers.append(.init(name: "email == \(value.debugDescription)", predicate: #Predicate<Customer> { $0.email == value }, mayBeTrivial: true))
            customers.append(.init(name: "name == \(value.debugDescription)", predicate: #Predicate<Customer> { $0.name == value }, mayBeTrivial: true))
            customers.append(.init(name: "\(value.debugDescription) == email", predicate: #Predicate<Customer> { value == $0.email }, mayBeTrivial: true))
            customers.append(.init(name: "!(email == \(value.debugDescription))", predicate: #Predicate<Customer> { !($0.email == value) }, mayBeTrivial: true))
            customers.append(.init(name: "email != \(value.debugDescription)", predicate: #Predicate<Customer> { $0.email != value }, mayBeTrivial: true))
            customers.append(.init(name: "[\(value.debugDescription), beach].contains(email)", predicate: #Predicate<Customer> { list.contains($0.email) }, mayBeTrivial: true))
            products.append(.init(name: "sku == \(value.debugDescription)", predicate: #Predicate<Product> { $0.sku == value }, mayBeTrivial: true))
            products.append(.init(name: "name == \(value.debugDescription)", predicate: #Predicate<Product> { $0.name == value }, mayBeTrivial: true))
            products.append(.init(name: "name == \(value.debugDescription) && stock == 3", predicate: #Predicate<Product> { $0.name == value && $0.stock == 3 }, mayBeTrivial: true))
            products.append(.init(name: "name == \(value.debugDescription) || sku == beach", predicate: #Predicate<Product> { $0.name == value || $0.sku == other }, mayBeTrivial: true))
            products.append(.init(name: "[\(value.debugDescription), beach].contains(name)", predicate: #Predicate<Product> { list.contains($0.name) }, mayBeTrivial: true))
        }
        // Lists: many spellings, and more than an `IN` list holds.
        let many = Self.wanted + (0..<1_200).map { "sku\($0)" }
        // Only ASCII texts, more than an `IN` list holds: their spellings as one parameter, bytewise.
        let manyASCII = ["Kelvin", "a;b", "`x`", "abK", "K"] + (0..<1_200).map { "c\($0)@example.com" }
        customers.append(.init(name: "all wanted contains(email)", predicate: #Predicate<Customer> { many.contains($0.email) }))
        customers.append(.init(name: "many ASCII contains(email)", predicate: #Predicate<Customer> { manyASCII.contains($0.email) }))
        products.append(.init(name: "many ASCII contains(name)", predicate: #Predicate<Product> { manyASCII.contains($0.name) }))
        products.append(.init(name: "all wanted contains(sku)", predicate: #Predicate<Product> { many.contains($0.sku) }))
        try Oracle.check(customers, in: oracle.context, describe: { "\($0.email.debugDescription)" })
        try Oracle.check(products, in: oracle.context, describe: { "\($0.sku.debugDescription)" })
        // The data set has equal texts in other bytes: the fetches found them.
        let kelvin = "Kelvin"
        #expect(try oracle.context.fetchCount(FetchDescriptor<Customer>(predicate: #Predicate { $0.email == kelvin })) == 2)
        #expect(try oracle.context.fetchCount(FetchDescriptor<Product>(predicate: #Predicate { $0.name == "Cafe\u{341}" })) == 6)
    }

    @Test(arguments: StoreKind.allCases) func equalityOnOtherTypesAndIdentifiersIsSwiftsEquality(_ kind: StoreKind) throws {
        let oracle = try OracleStore(kind, Shop.schema) { try Self.populate($0) }
        let context = oracle.context
        let all = try context.fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)]))
        let digital = try #require(all.first { $0 is DigitalProduct })
        let plain = try #require(all.first { !($0 is DigitalProduct) })
        let (digitalID, plainID) = (digital.persistentModelID, plain.persistentModelID)
        // An identifier naming the other entity of the table, with the same row key.
        let wrongEntity = PersistentIdentifier(entityName: "Product", rowID: try #require(digitalID.rowID), store: digitalID.storeIdentifier)
        let ids = [digitalID, plainID, wrongEntity]
        let stock = 3
        let price = Decimal(2)
        var cases: [OracleCase<Product>] = [
            .init(name: "stock == 3", predicate: #Predicate { $0.stock == stock }),
            .init(name: "!(stock == 3)", predicate: #Predicate { !($0.stock == stock) }),
            .init(name: "price == 2", predicate: #Predicate { $0.price == price }),
            .init(name: "[1, 3].contains(stock)", predicate: #Predicate { [1, 3].contains($0.stock) }),
            .init(name: "id == digital", predicate: #Predicate { $0.persistentModelID == digitalID }),
            .init(name: "id == wrong entity", predicate: #Predicate { $0.persistentModelID == wrongEntity }, mayBeTrivial: true),
            .init(name: "!(id == plain)", predicate: #Predicate { !($0.persistentModelID == plainID) }),
            .init(name: "ids.contains(id)", predicate: #Predicate { ids.contains($0.persistentModelID) }),
        ]
        let barcode: Int64? = 5
        cases.append(.init(name: "barcode == 5 (mostly nil)", predicate: #Predicate { $0.barcode == barcode }, mayBeTrivial: true))
        cases.append(.init(name: "!(barcode == 5)", predicate: #Predicate { !($0.barcode == barcode) }, mayBeTrivial: true))
        try Oracle.check(cases, in: context, describe: { "\($0.sku.debugDescription)" })
        #expect(try context.fetchCount(FetchDescriptor<Product>(predicate: #Predicate { ids.contains($0.persistentModelID) })) == 2)
    }
}
