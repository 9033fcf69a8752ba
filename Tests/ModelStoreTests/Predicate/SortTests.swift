import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Foundation's sort rules one by one (what docs/Predicates.md states), each on a small store.
@Suite struct SortTests {
    /// The test's store, with a container on it and a context.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        try StoreFixture(kind, TripStore.schema)
    }

    private func trips(_ fixture: StoreFixture, _ names: [String]) throws {
        let context = fixture.context
        for name in names { context.insert(Trip(name: name, startDate: Day.at(0), endDate: Day.at(1))) }
        try context.save()
    }

    private func names(_ fixture: StoreFixture, _ sortBy: [SortDescriptor<Trip>]) throws -> [String] {
        try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>(sortBy: sortBy)).map(\.name)
    }

    @Test(arguments: StoreKind.allCases) func aStringSortIsLocalizedStandardAsSwiftDatasAndLexicalIsSwiftsOrder(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        // SwiftData's `SortDescriptor(\.name)` holds `.localizedStandard` (Finder order: digits as
        // numbers, case ignored but lowercase first among equals); `.lexical` is Swift's `<`.
        let stored = ["backyard 10", "Backyard 9", "item2", "Item10", "Backyard 10", "backyard 9", "codellama", "MyAssistant"]
        try trips(fixture, stored)
        let standard = ["backyard 9", "Backyard 9", "backyard 10", "Backyard 10", "codellama", "item2", "Item10", "MyAssistant"]
        #expect(stored.sorted { $0.localizedStandardCompare($1) == .orderedAscending } == standard)
        #expect(try names(fixture, [SortDescriptor(\.name)]) == standard)
        #expect(try names(fixture, [SortDescriptor(\.name, comparator: .localizedStandard)]) == standard)
        #expect(try names(fixture, [SortDescriptor(\.name, order: .reverse)]) == standard.reversed())
        #expect(try names(fixture, [SortDescriptor(\.name, comparator: .localizedStandard, order: .reverse)]) == standard.reversed())
        let lexical = ["Backyard 10", "Backyard 9", "Item10", "MyAssistant", "backyard 10", "backyard 9", "codellama", "item2"]
        #expect(try names(fixture, [SortDescriptor(\.name, comparator: .lexical)]) == lexical)
        let localized = stored.sorted { $0.localizedCompare($1) == .orderedAscending }
        #expect(try names(fixture, [SortDescriptor(\.name, comparator: .localized)]) == localized)
    }

    @Test(arguments: StoreKind.allCases) func stringsCompareAsSwiftNotAsBytesAndTiesKeepStoreOrder(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        // Rows 1…7. "e" + COMBINING ACUTE is "é", which Swift orders after "f" (its bytes order
        // before); KELVIN SIGN is "K". Canonically equal names tie, and ties keep store order.
        try trips(fixture, ["f", "e\u{301}", "é", "e", "\u{212A}", "K", "L"])
        let rows = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, comparator: .lexical)])).map { $0.persistentModelID.rowID! }
        #expect(rows == [5, 6, 7, 4, 1, 2, 3])
        let reversed = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, comparator: .lexical, order: .reverse)])).map { $0.persistentModelID.rowID! }
        #expect(reversed == [2, 3, 1, 4, 7, 5, 6])
    }

    @Test(arguments: StoreKind.allCases) func nilSortsFirstForwardAndLastInReverse(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = fixture.context
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

    @Test(arguments: StoreKind.allCases) func anOrderChangedAfterInitIsIgnoredAsFoundationIgnoresIt(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        // `SortDescriptor.order` is a stored property; Foundation's comparison keeps the order
        // the descriptor was made with (for a `String?` with a comparator, nils follow `order`).
        try trips(fixture, ["b", "a", "c"])
        var descriptor = SortDescriptor(\Trip.name)
        descriptor.order = .reverse
        #expect(descriptor.order == .reverse)
        let models = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(models.sorted(using: descriptor).map(\.name) == ["a", "b", "c"])
        #expect(try names(fixture, [descriptor]) == ["a", "b", "c"])
    }

    @Test(arguments: StoreKind.allCases) func directionsChangedAfterInitSortAsFoundationWithoutReflection(_ kind: StoreKind) throws {
        // SortComparison finds the stored comparator's direction by equality with descriptors
        // made again (no Mirror): a date descriptor whose `order` changed after init still sorts
        // by its initial direction, and a `String?` one with a comparator places nils by `order`.
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        for (index, report) in ["b", nil, "a", "c", nil].enumerated() {
            let trip = BusinessTrip(name: "\(index)", startDate: Day.at((index * 3) % 5), endDate: Day.at(9), company: "c")
            trip.expenseReport = report
            context.insert(trip)
        }
        try context.save()
        let fresh = ModelContext(fixture.container)
        let models = try fresh.fetch(FetchDescriptor<BusinessTrip>(sortBy: [SortDescriptor(\.name)]))
        var byDate = SortDescriptor(\BusinessTrip.startDate, order: .reverse)
        byDate.order = .forward
        var reports = SortDescriptor(\BusinessTrip.expenseReport, comparator: .lexical)
        reports.order = .reverse
        var plainReports = SortDescriptor(\BusinessTrip.expenseReport, order: .reverse)
        plainReports.order = .forward
        for descriptors in [[byDate], [reports, SortDescriptor(\.name)], [plainReports, SortDescriptor(\.name)]] {
            #expect(descriptors.allSatisfy { SortComparison.ordersByEquality($0) != nil })
            let stored = try fresh.fetch(FetchDescriptor<BusinessTrip>(sortBy: descriptors)).map(\.name)
            #expect(stored == models.sorted(using: descriptors).map(\.name))
        }
    }

    @Test func theComparatorsDirectionsFoundByEqualityAreTheReflectedOnes() {
        // Every kind of descriptor the runtime sorts, made with either direction, its `order`
        // left or changed after init: equality decides, and gives what `Mirror` reads.
        func check<T>(_ made: (SortOrder) -> SortDescriptor<T>, sourceLocation: SourceLocation = #_sourceLocation) {
            for initial in [SortOrder.forward, .reverse] {
                for later in [nil, SortOrder.forward, .reverse] {
                    var descriptor = made(initial)
                    if let later { descriptor.order = later }
                    let found = SortComparison.ordersByEquality(descriptor)
                    let reflected = SortComparison.ordersByReflection(descriptor)
                    #expect(found != nil, sourceLocation: sourceLocation)
                    #expect(found?.0 == reflected?.0 && found?.1 == reflected?.1 && found?.0 == initial, sourceLocation: sourceLocation)
                }
            }
        }
        check { SortDescriptor(\Trip.startDate, order: $0) }
        check { SortDescriptor(\Trip.name, order: $0) }
        check { SortDescriptor(\Trip.identifier, order: $0) }
        check { SortDescriptor(\BusinessTrip.expenseReport, order: $0) }
        check { SortDescriptor(\Accommodation.trip?.startDate, order: $0) }
        check { SortDescriptor(\Accommodation.trip?.name, order: $0) }
        for comparator in [String.StandardComparator.lexical, .localizedStandard, .localized] {
            check { SortDescriptor(\Trip.name, comparator: comparator, order: $0) }
            check { SortDescriptor(\BusinessTrip.expenseReport, comparator: comparator, order: $0) }
            check { SortDescriptor(\Accommodation.trip?.name, comparator: comparator, order: $0) }
        }
    }

    @Test(arguments: StoreKind.allCases) func toOneKeyPathsSortThroughTheRelationship(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = fixture.context
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
        // SwiftData's order of the trips' names: "alps" before "Beach" (case ignored).
        #expect(stays.map(\.name) == ["none", "hut", "hotel", "tent"])
    }

    @Test(arguments: StoreKind.allCases) func sortsWithoutSQLEquivalentAreNamed(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        try trips(fixture, ["a"])
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

    @Test(arguments: StoreKind.allCases) func aComparableConformanceTheAppWroteIsNamed(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        // Generated enums are not Comparable; one an app makes Comparable orders by its own code.
        context.insert(PersonalTrip(name: "a", startDate: Day.at(0), endDate: Day.at(1), reason: .family))
        try context.save()
        expectUnsupported("Reason values are ordered by their own Comparable conformance") {
            _ = try context.fetch(FetchDescriptor<PersonalTrip>(sortBy: [SortDescriptor(\.reason)]))
        }
    }

    @Test func sortsOfNonStringValuesUseNoCollation() throws {
        // A sort on numbers or dates stays the store's own comparison (an index can serve it);
        // strings and decimals get the collation (SQLite) or expression (PostgreSQL) that
        // compares them as Swift does.
        let schema = TripStore.schema
        let trip = try #require(schema.entity(for: Trip.self))
        let stay = try #require(schema.entity(for: Accommodation.self))
        let sqlite = SQLiteDialect()
        #expect(try SortSQL.orderBy([SortDescriptor(\Trip.startDate, order: .reverse)], entity: trip, schema: schema, dialect: sqlite).sql
                == #" ORDER BY "Trip"."startDate" DESC, "Trip"."$pk" ASC"#)
        #expect(try SortSQL.orderBy([SortDescriptor(\Trip.name)], entity: trip, schema: schema, dialect: sqlite).sql
                == #" ORDER BY "Trip"."name" COLLATE MODELSTORE_LOCALIZED_STANDARD ASC, "Trip"."$pk" ASC"#)
        #expect(try SortSQL.orderBy([SortDescriptor(\Accommodation.trip?.startDate)], entity: stay, schema: schema, dialect: sqlite).sql
                == #" ORDER BY (SELECT "$p1"."startDate" FROM "Trip" AS "$p1" WHERE "$p1"."$pk" = "Accommodation"."trip") ASC NULLS FIRST, "Accommodation"."$pk" ASC"#)
        let postgres = PostgresDialect()
        #expect(try SortSQL.orderBy([SortDescriptor(\Trip.startDate, order: .reverse)], entity: trip, schema: schema, dialect: postgres).sql
                == #" ORDER BY "Trip"."startDate" DESC, "Trip"."$pk" ASC"#)
        #expect(try SortSQL.orderBy([SortDescriptor(\Trip.name)], entity: trip, schema: schema, dialect: postgres).sql
                == #" ORDER BY "Trip"."name" COLLATE "modelstore_localized_standard" ASC, "Trip"."$pk" ASC"#)
        #expect(try SortSQL.orderBy([SortDescriptor(\Trip.name, comparator: .lexical)], entity: trip, schema: schema, dialect: postgres).sql
                == #" ORDER BY normalize("Trip"."name", NFC) COLLATE "C" ASC, "Trip"."$pk" ASC"#)
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
        #expect(StringSortOrder(.lexical) == .lexical)
        #expect(StringSortOrder(String.StandardComparator(.lexical, order: .reverse)) == .lexical)
        #expect(StringSortOrder(String.StandardComparator(.localizedStandard, order: .reverse)) == .localizedStandard)
        #expect(StringSortOrder(.localized) == .localized)
    }
}

/// An order an app could give its enum (by declaration order), which SQL cannot know.
extension PersonalTrip.Reason: Comparable {
    static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
