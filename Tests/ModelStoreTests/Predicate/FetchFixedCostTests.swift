import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// What a fetch computes once instead of per fetch or per process, and must not change
/// (docs/Benchmarks.md, "Lookups"; docs/Predicates.md, "Translation cache"): the full shape a
/// fast key's second use learns its entry under (walked through the expression's static type) is
/// the one the dynamic walk makes; a descriptor read without its generic metadata
/// (`ErasedFetchDescriptor`: debug builds check its layout and values at every fetch) fetches the
/// rows `Predicate.evaluate` keeps, in its window; on PostgreSQL, a subclass's type filter and a
/// window are cast, so those reads are prepared with their first execution.
@Suite struct FetchFixedCostTests {
    typealias Fixture = PredicateCacheTests.Fixture

    /// The shape the full walk (through `Mirror` and casts) makes of `predicate`.
    static func dynamicShape<T: PersistentModel>(_ predicate: Predicate<T>) -> PredicateShape {
        var walker = PredicateShapeWalker(root: predicate.variable.key, model: T.self)
        walker.walk(predicate.expression)
        return PredicateShape(tokens: walker.tokens)
    }

    /// Each common node (equality, inequality, comparisons, conjunction, disjunction, negation,
    /// nil, identifiers, optionals): the second use learns the entry under the full shape the
    /// dynamic walk makes of the predicate, and fetches its rows.
    @Test(arguments: StoreKind.allCases) func theSecondUseLearnsUnderTheDynamicWalksShape(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let id = try #require(fixture.all.first { $0 is BusinessTrip }).persistentModelID
        let cutoff = PredicateCacheTests.start.addingTimeInterval(4 * PredicateCacheTests.day)
        let name = "Trip 3"
        let report: String? = "ER 1"
        let trips: [(String, Predicate<Trip>)] = [
            ("equal", #Predicate<Trip> { $0.name == name }),
            ("identifier", #Predicate<Trip> { $0.persistentModelID == id }),
            ("not equal, comparison, and", #Predicate<Trip> { $0.name != name && $0.startDate <= cutoff }),
            ("or, not", #Predicate<Trip> { !($0.endDate > cutoff) || $0.name == "Trip 1" }),
        ]
        let business: [(String, Predicate<BusinessTrip>)] = [
            ("optional", #Predicate<BusinessTrip> { $0.expenseReport == report }),
            ("nil", #Predicate<BusinessTrip> { $0.expenseReport != nil }),
        ]
        func check<T: PersistentModel>(_ label: String, _ predicate: Predicate<T>, _ all: [T]) throws {
            for use in 1...3 {
                let fetched = try fixture.context.fetch(FetchDescriptor<T>(predicate: predicate)).map(\.persistentModelID)
                #expect(fetched == (try PlainFetchPathTests.expected(all, predicate)), "\(label), use \(use)")
                let entry = fixture.cache.entry(for: Self.dynamicShape(predicate))
                if use == 1 {
                    #expect(entry == nil, "\(label): \(String(describing: entry))")
                } else if case .translated? = entry {} else {
                    Issue.record("\(label), use \(use): \(String(describing: entry))")
                }
            }
        }
        for (label, predicate) in trips { try check(label, predicate, fixture.all) }
        let businessTrips = try fixture.context.fetch(FetchDescriptor<BusinessTrip>())
        for (label, predicate) in business { try check(label, predicate, businessTrips) }
    }

    /// Subclass fetches, plain (through the fast key's kept select) and general (sorted), with
    /// every kind of window, return the rows `evaluate` keeps; on PostgreSQL their SQL casts every
    /// parameter, so it is prepared with its first execution.
    @Test(arguments: StoreKind.allCases) func subclassFetchesWithWindowsAreRightAndCastOnPostgreSQL(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let context = fixture.context
        let all = try context.fetch(FetchDescriptor<BusinessTrip>())
        let cutoff = PredicateCacheTests.start.addingTimeInterval(3 * PredicateCacheTests.day)
        let predicate = #Predicate<BusinessTrip> { $0.endDate > cutoff }
        let windows: [(limit: Int?, offset: Int?)] = [(nil, nil), (2, nil), (nil, 3), (3, 1), (0, 0)]
        for (limit, offset) in windows {
            for sorted in [false, true] {
                var descriptor = FetchDescriptor<BusinessTrip>(predicate: predicate, sortBy: sorted ? [SortDescriptor(\.startDate, order: .reverse)] : [])
                descriptor.fetchLimit = limit
                descriptor.fetchOffset = offset
                let label = "limit \(String(describing: limit)) offset \(String(describing: offset)) sorted \(sorted)"
                var expected = try all.filter { try predicate.evaluate($0) }.sorted { ($0.rowID ?? 0) < ($1.rowID ?? 0) }
                if sorted { expected = expected.reversed() }  // distinct start dates
                let windowed = Array(expected.dropFirst(offset ?? 0).prefix(limit ?? .max)).map(\.persistentModelID)
                for use in 1...3 {
                    #expect(try context.fetch(descriptor).map(\.persistentModelID) == windowed, "\(label), use \(use)")
                }
                if kind == .postgresql {
                    // `explain` shows the server's text (`$1…`): back to `?` to read its casts.
                    let sql = try context.explain(descriptor).sql.replacing(#/\$[0-9]+/#, with: "?")
                    #expect(PostgresPlaceholders.rewriteWithCastTypes(sql).castTypes != nil, "\(label): \(sql)")
                }
            }
        }
        // A negative window is refused as before, on the plain path too.
        var negative = FetchDescriptor<BusinessTrip>(predicate: predicate)
        negative.fetchOffset = -1
        #expect(throws: ModelStoreError.self) { try context.fetch(negative) }
        negative.fetchOffset = nil
        negative.fetchLimit = -1
        #expect(throws: ModelStoreError.self) { try context.fetch(negative) }
    }
}
