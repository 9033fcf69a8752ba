import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// SwiftData's `String` order (`localizedStandardCompare`, the oracle) in SQL on every store, with
/// generated strings: case, digits inside strings, accents (precomposed and combining), full-width
/// forms, punctuation, symbols, other scripts, emoji and equal keys (docs/Predicates.md, "Sorting").
@Suite struct LocalizedStandardOrderTests {
    /// Pieces the generated strings are made of.
    static let pieces = ["a", "A", "b", "B", "z", "Z", "e", "E", "é", "É", "e\u{301}", "ß", "ss", "SS", "å", "Å", "ø", "ｱ", "ａ", "Ａ",
                         "1", "2", "9", "10", "42", "100", "0", " ", "-", "_", ".", ",", "'", "!", "(", "/", "&", "#", "$", "+", "~", "@",
                         "Backyard", "backyard", "item", "Item", "codellama", "MyAssistant", "Ω", "ω", "中", "文", "😀", "ı", "i", "I"]

    /// Pieces the stores agree on exactly (docs/PostgreSQL.md, "Sort order", lists where PostgreSQL
    /// differs: full-width digits, leading zeros, ligatures and some of ß's comparisons).
    static let commonPieces = ["a", "A", "b", "B", "z", "Z", "e", "E", "é", "É", "å", "Å", "ø", "1", "2", "9", "10", "42", "100",
                               " ", "-", "_", ".", ",", "'", "(", "/", "&", "Backyard", "backyard", "item", "Item", "codellama",
                               "MyAssistant", "Ω", "ω", "中", "😀"]

    /// `count` strings of one to four pieces, a tenth of them repeated (equal keys).
    static func strings(_ pieces: [String], count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        var strings = (0..<count).map { _ in
            (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        strings += strings.prefix(count / 10)
        return strings
    }

    /// Random ASCII texts: letters of both cases, digit runs (leading zeros too), punctuation,
    /// symbols and spaces, the shapes a sort by name meets most.
    static func asciiStrings(count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        let alphabets = ["abcABC", "aAbBxyzXYZ", "0123456789", " -_.,'!/&#$+~@^|`\"()[]{}<>=?;:*%\\", "aB1 -"]
        return (0..<count).map { _ in
            var text = ""
            for _ in 0..<Int.random(in: 0...7, using: &random) {
                let alphabet = alphabets.randomElement(using: &random)!
                for _ in 0..<Int.random(in: 1...3, using: &random) { text.append(alphabet.randomElement(using: &random)!) }
            }
            return text
        }
    }

    @Test func theComparisonIsFoundationsOnEveryPair() {
        let strings = Self.strings(Self.pieces, count: 300, seed: 27)
        for left in strings {
            for right in strings {
                let oracle = left.localizedStandardCompare(right)
                #expect(StringSortOrder.localizedStandard.compare(left, right) == oracle, "\(left.debugDescription) vs \(right.debugDescription)")
                #expect(StringSortOrder.localized.compare(left, right) == left.localizedCompare(right), "\(left.debugDescription) vs \(right.debugDescription)")
            }
        }
    }

    @Test func asciiTextsCompareAsFoundationDoes() {
        let strings = Self.asciiStrings(count: 700, seed: 2027) + ["", "a", "A", "a1", "a01", "a001", "A1", "a10", "a9", "1", "01", "-1", "a-b", "ab"]
        for left in strings {
            for right in strings {
                let oracle = left.localizedStandardCompare(right)
                #expect(StringSortOrder.localizedStandard.compare(left, right) == oracle, "\(left.debugDescription) vs \(right.debugDescription)")
            }
        }
    }

    @Test func localizedStandardCompiles() {
        // SwiftData's spelling compiles on Linux and names the comparator the store sorts with.
        let descriptor = SortDescriptor(\Trip.name, comparator: .localizedStandard)
        #expect(descriptor.stringComparator == .localizedStandard)
        #expect(String.StandardComparator.localizedStandard != .lexical)
        #expect(String.StandardComparator.localized != .localizedStandard)
    }

    /// Stores `names` as trips (in this order: row keys 1, 2, …).
    private func store(_ names: [String], _ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, TripStore.schema)
        for name in names { fixture.context.insert(Trip(name: name, startDate: Day.at(0), endDate: Day.at(1))) }
        try fixture.context.save()
        return fixture
    }

    /// The fetched order against the oracle's, for each way of asking for SwiftData's order.
    private func check(_ names: [String], _ fixture: StoreFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = ModelContext(fixture.container)
        let models = try context.fetch(FetchDescriptor<Trip>()).sorted { $0.persistentModelID.rowID! < $1.persistentModelID.rowID! }
        let descriptors: [[SortDescriptor<Trip>]] = [
            [SortDescriptor(\.name)], [SortDescriptor(\.name, order: .reverse)],
            [SortDescriptor(\.name, comparator: .localizedStandard)], [SortDescriptor(\.name, comparator: .localizedStandard, order: .reverse)],
            [SortDescriptor(\.name, comparator: .localized)],
            [SortDescriptor(\.endDate), SortDescriptor(\.name, order: .reverse)],
        ]
        for sortBy in descriptors {
            let fetched = try context.fetch(FetchDescriptor<Trip>(sortBy: sortBy)).map(\.persistentModelID)
            let expected = AppleSortOrder.sorted(models, using: sortBy).map(\.persistentModelID)
            if fetched != expected {
                let index = zip(fetched, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
                Issue.record("\(sortBy.map { "\($0)" }): first difference at \(index) of \(names.count)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func storesSortAsSwiftDataOnCommonText(_ kind: StoreKind) throws {
        let names = Self.strings(Self.commonPieces, count: 600, seed: 5)
        try check(names, try store(names, kind))
    }

    /// Pairs of neighbours `localizedStandardCompare` calls descending.
    private func descendingNeighbours(_ names: [String]) -> Int {
        zip(names, names.dropFirst()).filter { $0.localizedStandardCompare($1) == .orderedDescending }.count
    }

    @Test(arguments: [StoreKind.sqliteFile, .sqliteMemory]) func sqliteSortsAsSwiftDataOnHardText(_ kind: StoreKind) throws {
        // On such text `localizedStandardCompare` is not a consistent order (docs/PostgreSQL.md,
        // "Sort order" 3.): two sort algorithms given the same comparison (SQLite's and Swift's)
        // end in different orders, each leaving some neighbours the comparison calls descending.
        // The collation is Foundation's comparison on every pair (`theComparisonIsFoundationsOnEveryPair`);
        // here the fetched order may leave only as few such neighbours as an in-memory sort does
        // (which ones depends on the input order the algorithm sees, so the bound is Foundation's
        // count or 1 % of the neighbours, whichever is larger).
        let names = Self.strings(Self.pieces, count: 600, seed: 6) + Self.asciiStrings(count: 300, seed: 7)
        let fixture = try store(names, kind)
        let fetched = try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(fetched.sorted() == names.sorted())
        let inMemory = names.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        #expect(descendingNeighbours(fetched) <= max(descendingNeighbours(inMemory), names.count / 100), "\(descendingNeighbours(fetched)) descending neighbours, Foundation's sort \(descendingNeighbours(inMemory))")
    }

    @Test func postgreSQLAgreesWithSwiftDataOnAlmostEveryPairOfHardText() throws {
        // Measured (docs/PostgreSQL.md, "Sort order"): ICU's numeric collation and Foundation's
        // comparison disagree on about 0.07 % of pairs of these strings.
        let names = Self.strings(Self.pieces, count: 600, seed: 6)
        let fixture = try store(names, .postgresql)
        let fetched = try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        var inverted = 0
        for (index, left) in fetched.enumerated() {
            for right in fetched[(index + 1)...] where left.localizedStandardCompare(right) == .orderedDescending { inverted += 1 }
        }
        let pairs = fetched.count * (fetched.count - 1) / 2
        #expect(Double(inverted) / Double(pairs) < 0.002, "\(inverted) of \(pairs) pairs in another order than Foundation's")
    }

    @Test(arguments: StoreKind.allCases) func pendingChangesMergeInTheSameOrder(_ kind: StoreKind) throws {
        let stored = Self.strings(Self.commonPieces, count: 200, seed: 8)
        let fixture = try store(stored, kind)
        let context = fixture.context
        let pending = Self.strings(Self.commonPieces, count: 40, seed: 9)
        let inserted = pending.map { Trip(name: $0, startDate: Day.at(0), endDate: Day.at(1)) }
        for trip in inserted { context.insert(trip) }
        let renamed = try context.fetch(FetchDescriptor<Trip>()).filter { !$0.persistentModelID.isTemporary }.prefix(20)
        for (trip, name) in zip(renamed, Self.strings(Self.commonPieces, count: 20, seed: 10)) { trip.name = name }
        let saved = try context.fetch(FetchDescriptor<Trip>(sortBy: [])).filter { !$0.persistentModelID.isTemporary }
            .sorted { $0.persistentModelID.rowID! < $1.persistentModelID.rowID! }
        for sortBy in [[SortDescriptor<Trip>(\.name)], [SortDescriptor(\.name, order: .reverse)]] {
            let expected = AppleSortOrder.sorted(saved + inserted, using: sortBy).map(ObjectIdentifier.init)
            #expect(try context.fetch(FetchDescriptor<Trip>(sortBy: sortBy)).map(ObjectIdentifier.init) == expected)
        }
    }
}
