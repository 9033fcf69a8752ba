import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Foundation's sort rules one by one (what docs/Predicates.md states), each on a small store.
@Suite struct SortTests {
    let store: TemporaryStore
    let container: ModelContainer
    let context: ModelContext

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        context = ModelContext(container)
    }

    private func trips(_ names: [String]) throws {
        for name in names { context.insert(Trip(name: name, startDate: Day.at(0), endDate: Day.at(1))) }
        try context.save()
    }

    private func names(_ sortBy: [SortDescriptor<Trip>]) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: sortBy)).map(\.name)
    }

    @Test func aStringSortIsSwiftsOrderOnLinux() throws {
        // swift-foundation 6.3.1 has no `.localizedStandard` outside Apple platforms: there,
        // `SortDescriptor(\.name)` is `Comparable`'s `<`, and `.lexical` is the same order.
        try trips(["backyard 10", "Backyard 9", "item2", "Item10", "Backyard 10", "backyard 9"])
        let expected = ["Backyard 10", "Backyard 9", "Item10", "backyard 10", "backyard 9", "item2"]
        #expect(try names([SortDescriptor(\.name)]) == expected)
        #expect(try names([SortDescriptor(\.name, comparator: .lexical)]) == expected)
        #expect(try names([SortDescriptor(\.name, order: .reverse)]) == expected.reversed())
    }

    @Test func stringsCompareAsSwiftNotAsBytesAndTiesKeepStoreOrder() throws {
        // Rows 1…7. "e" + COMBINING ACUTE is "é", which Swift orders after "f" (its bytes order
        // before); KELVIN SIGN is "K". Canonically equal names tie, and ties keep store order.
        try trips(["f", "e\u{301}", "é", "e", "\u{212A}", "K", "L"])
        let rows = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map { $0.persistentModelID.rowID! }
        #expect(rows == [5, 6, 7, 4, 1, 2, 3])
        let reversed = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)])).map { $0.persistentModelID.rowID! }
        #expect(reversed == [2, 3, 1, 4, 7, 5, 6])
    }

    @Test func nilSortsFirstForwardAndLastInReverse() throws {
        for (index, report) in ["b", nil, "a", nil].enumerated() {
            let trip = BusinessTrip(name: "\(index)", startDate: Day.at(0), endDate: Day.at(1), company: "c")
            trip.expenseReport = report
            context.insert(trip)
        }
        try context.save()
        let fresh = ModelContext(container)
        func order(_ descriptor: SortDescriptor<BusinessTrip>) throws -> [String] {
            try fresh.fetch(FetchDescriptor<BusinessTrip>(sortBy: [descriptor])).map(\.name)
        }
        #expect(try order(SortDescriptor(\.expenseReport)) == ["1", "3", "2", "0"])
        #expect(try order(SortDescriptor(\.expenseReport, order: .reverse)) == ["0", "2", "1", "3"])
        #expect(try order(SortDescriptor(\.expenseReport, comparator: .lexical, order: .reverse)) == ["0", "2", "1", "3"])
    }

    @Test func anOrderChangedAfterInitIsIgnoredAsFoundationIgnoresIt() throws {
        // `SortDescriptor.order` is a stored property; Foundation's comparison keeps the order
        // the descriptor was made with (for a `String?` with a comparator, nils follow `order`).
        try trips(["b", "a", "c"])
        var descriptor = SortDescriptor(\Trip.name)
        descriptor.order = .reverse
        #expect(descriptor.order == .reverse)
        let models = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(models.sorted(using: descriptor).map(\.name) == ["a", "b", "c"])
        #expect(try names([descriptor]) == ["a", "b", "c"])
    }

    @Test func toOneKeyPathsSortThroughTheRelationship() throws {
        let beach = Trip(name: "Beach", startDate: Day.at(0), endDate: Day.at(1))
        let alps = Trip(name: "alps", startDate: Day.at(0), endDate: Day.at(1))
        for (name, trip) in [("tent", beach), ("hut", alps), ("none", nil), ("hotel", beach)] as [(String, Trip?)] {
            let stay = Accommodation(name: name)
            stay.trip = trip
            context.insert(stay)
        }
        try context.save()
        let fresh = ModelContext(container)
        let stays = try fresh.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.trip?.name), SortDescriptor(\.name)]))
        #expect(stays.map(\.name) == ["none", "hotel", "tent", "hut"])
    }

    @Test func sortsWithoutSQLEquivalentAreNamed() throws {
        try trips(["a"])
        let cases: [(() throws -> Void, String)] = [
            ({ _ = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name.count)])) }, "sort by \\Trip."),
            ({ _ = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.accommodations.count)])) }, "sort by \\Trip."),
            ({ _ = try context.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.trip?.accommodations.count)])) }, "sort by \\Accommodation."),
            ({ _ = try context.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.trip?.name.count)])) }, "sort by \\Accommodation."),
        ]
        for (fetch, prefix) in cases {
            expectUnsupported(prefix, fetch)
            expectUnsupported("can be sorted on", fetch)
        }
    }

    @Test func aComparableConformanceTheAppWroteIsNamed() throws {
        // Generated enums are not Comparable; one an app makes Comparable orders by its own code.
        context.insert(PersonalTrip(name: "a", startDate: Day.at(0), endDate: Day.at(1), reason: .family))
        try context.save()
        expectUnsupported("Reason values are ordered by their own Comparable conformance") {
            _ = try context.fetch(FetchDescriptor<PersonalTrip>(sortBy: [SortDescriptor(\.reason)]))
        }
    }

    @Test func sortsOfNonStringValuesUseNoCollation() throws {
        // A sort on numbers or dates stays SQLite's own comparison (an index can serve it);
        // strings and decimals get the collation that compares them as Swift does.
        let schema = TripStore.schema
        let trip = try #require(schema.entity(for: Trip.self))
        let stay = try #require(schema.entity(for: Accommodation.self))
        #expect(try SortSQL.orderBy([SortDescriptor(\Trip.startDate, order: .reverse)], entity: trip, schema: schema).sql
                == #" ORDER BY "Trip"."startDate" DESC, "Trip"."$pk" ASC"#)
        #expect(try SortSQL.orderBy([SortDescriptor(\Trip.name)], entity: trip, schema: schema).sql
                == #" ORDER BY "Trip"."name" COLLATE MODELSTORE_SWIFT ASC, "Trip"."$pk" ASC"#)
        #expect(try SortSQL.orderBy([SortDescriptor(\Accommodation.trip?.startDate)], entity: stay, schema: schema).sql
                == #" ORDER BY (SELECT "$p1"."startDate" FROM "Trip" AS "$p1" WHERE "$p1"."$pk" = "Accommodation"."trip") ASC NULLS FIRST, "Accommodation"."$pk" ASC"#)
    }
}

/// The string collations' shortcut: bytes decide only where Swift's order would agree.
@Suite struct StringCollationTests {
    /// Pieces that make the shortcut's edge cases: ASCII, combining marks that compose with the
    /// letter before them, precomposed letters, other scripts, emoji with modifiers, CR LF.
    static let pieces = ["a", "b", "e", "f", "A", "E", "K", "z", "0", "9", " ", "\r", "\n", "\u{301}", "\u{30A}", "\u{308}",
                         "é", "Å", "\u{212A}", "ß", "中", "😀", "🏽", "１", "\u{0}", "~"]

    @Test func bytewiseOrderAgreesWithSwiftWheneverItDecides() {
        var random = SeededGenerator(seed: 11)
        var decided = 0
        for _ in 0..<40_000 {
            // Up to 12 pieces: texts longer than the 8 bytes compared at once, differing anywhere.
            let left = (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let right: String
            switch Int.random(in: 0..<3, using: &random) {
            case 0: right = left + Self.pieces.randomElement(using: &random)!
            case 1:
                let cut = Int.random(in: 0...left.count, using: &random)
                right = String(left.prefix(cut)) + Self.pieces.randomElement(using: &random)! + String(left.dropFirst(cut))
            default: right = (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            }
            let swift = PredicateFunctions.compare(left, right)
            let (fast, full) = Array(left.utf8).withUnsafeBytes { lhs in
                Array(right.utf8).withUnsafeBytes { rhs in
                    (PredicateFunctions.bytewiseOrder(lhs, rhs), PredicateFunctions.compareUTF8(lhs, rhs))
                }
            }
            if let fast {
                decided += 1
                #expect(fast == swift, "\(left.debugDescription) vs \(right.debugDescription): bytes \(fast), Swift \(swift)")
            }
            #expect(full == swift, "\(left.debugDescription) vs \(right.debugDescription)")
        }
        #expect(decided > 10_000, "the shortcut should decide most pairs")
    }

    @Test func lexicalIsSwiftsOrder() {
        // `MODELSTORE_LEXICAL` may take the bytewise shortcut because `.lexical` orders as `<`.
        for left in SortValues.names {
            for right in SortValues.names {
                let lexical = String.StandardComparator.lexical.compare(left, right).rawValue
                #expect(Int32(lexical) == PredicateFunctions.compare(left, right), "\(left.debugDescription) vs \(right.debugDescription)")
            }
        }
        #expect(PredicateFunctions.collation(for: .lexical) == "MODELSTORE_LEXICAL")
        #expect(PredicateFunctions.collation(for: String.StandardComparator(.lexical, order: .reverse)) == "MODELSTORE_LEXICAL")
    }
}

/// An order an app could give its enum (by declaration order), which SQL cannot know.
extension PersonalTrip.Reason: Comparable {
    static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
