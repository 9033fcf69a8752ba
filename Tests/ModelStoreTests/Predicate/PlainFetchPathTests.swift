import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The translation cache's fast key and the plain fetch's kept `SELECT` and statement
/// (docs/Predicates.md, "Translation cache"). Oracles: the rows `Predicate.evaluate` keeps, in
/// the descriptor's order and window, on every store; debug builds also check every plain fetch's
/// kept SQL and bindings against the ones the general path builds.
@Suite struct PlainFetchPathTests {
    typealias Fixture = PredicateCacheTests.Fixture

    /// The fetch through the fast key, twice: the second finds an entry for the common shapes.
    static func fastEntry<T: PersistentModel>(_ fixture: Fixture, _ predicate: Predicate<T>) throws -> FastCacheEntry? {
        let entity = try fixture.context.entity(for: T.self)
        var entry: FastCacheEntry?
        for _ in 0..<2 {
            let translation = try PredicateSQL.fastTranslation(of: predicate, entity: entity, schema: fixture.container.schema,
                                                               dialect: fixture.container.driver.dialect,
                                                               store: fixture.container.storeIdentifier, cache: fixture.cache)
            let fresh = try PredicateSQL.filter(for: predicate, entity: entity, schema: fixture.container.schema,
                                                dialect: fixture.container.driver.dialect, store: fixture.container.storeIdentifier)
            #expect(translation.filter == fresh)
            entry = translation.entry
        }
        return entry
    }

    /// Expected rows of `predicate` among `all`: key order, then the window.
    static func expected<T: PersistentModel>(_ all: [T], _ predicate: Predicate<T>, limit: Int? = nil, offset: Int = 0) throws -> [PersistentIdentifier] {
        let kept = try all.filter { try predicate.evaluate($0) }.map(\.persistentModelID).sorted { ($0.rowID ?? 0) < ($1.rowID ?? 0) }
        let windowed = kept.dropFirst(offset)
        return Array(limit.map { windowed.prefix($0) } ?? windowed)
    }

    /// Equality, comparisons, conjunctions, negations, optionals and identifiers take the fast key;
    /// a tree with a cast (`as? BusinessTrip`) or a captured list does not, and is still right.
    @Test(arguments: StoreKind.allCases) func commonShapesFindTheirEntryByTheFastKey(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let name = "Trip 3"
        let id = try #require(fixture.all.first).persistentModelID
        let cutoff = PredicateCacheTests.start.addingTimeInterval(3 * PredicateCacheTests.day)
        let report: String? = "ER 1"
        let none: String? = nil
        #expect(try Self.fastEntry(fixture, #Predicate<Trip> { $0.name == name }) != nil)
        #expect(try Self.fastEntry(fixture, #Predicate<Trip> { $0.persistentModelID == id }) != nil)
        #expect(try Self.fastEntry(fixture, #Predicate<Trip> { $0.startDate < cutoff && !($0.name != name) }) != nil)
        #expect(try Self.fastEntry(fixture, #Predicate<Trip> { $0.startDate >= cutoff || $0.name == "Trip 1" }) != nil)
        #expect(try Self.fastEntry(fixture, #Predicate<BusinessTrip> { $0.expenseReport == report }) != nil)
        #expect(try Self.fastEntry(fixture, #Predicate<BusinessTrip> { $0.expenseReport == none }) != nil)
        #expect(try Self.fastEntry(fixture, #Predicate<BusinessTrip> { $0.expenseReport == nil }) != nil)
        #expect(try Self.fastEntry(fixture, PredicateCacheTests.byReport("ER 1")) == nil)
        let names = ["Trip 1", "Trip 2"]
        #expect(try Self.fastEntry(fixture, #Predicate<Trip> { names.contains($0.name) }) == nil)
    }

    /// Predicates of one expression type whose fast keys differ only after their first part (the
    /// second key path, operator or value class, which the key keeps outside its inline first
    /// element): each finds an entry of its own and fetches its own rows, in any order.
    @Test(arguments: StoreKind.allCases) func fastKeysThatDifferAfterTheirFirstPartKeepApart(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let early = PredicateCacheTests.start.addingTimeInterval(6 * PredicateCacheTests.day)
        let late = PredicateCacheTests.start.addingTimeInterval(2 * PredicateCacheTests.day)
        let first = "Trip 3", plain = "Trip 4", other = "Caf\u{E9}"
        let predicates: [(String, Predicate<Trip>)] = [
            ("end after", #Predicate<Trip> { $0.startDate < early && $0.endDate > late }),
            ("start after", #Predicate<Trip> { $0.startDate < early && $0.startDate > late }),
            ("end before", #Predicate<Trip> { $0.startDate < early && $0.endDate < late }),
            ("plain name", #Predicate<Trip> { $0.name == first || $0.name == plain }),
            ("other name", #Predicate<Trip> { $0.name == first || $0.name == other }),
        ]
        var entries: [FastCacheEntry] = []
        for (name, predicate) in predicates {
            let entry = try #require(try Self.fastEntry(fixture, predicate), "\(name)")
            #expect(!entries.contains { $0 === entry }, "\(name) took the entry of another key")
            entries.append(entry)
        }
        for round in 0..<2 {
            for (name, predicate) in predicates + predicates.reversed() {
                let fetched = try fixture.context.fetch(FetchDescriptor<Trip>(predicate: predicate)).map(\.persistentModelID)
                #expect(fetched == (try Self.expected(fixture.all, predicate)), "round \(round) \(name)")
            }
        }
    }

    /// A connection's statements by id: by index below `StatementsByID.indexed`, in a dictionary
    /// past it; each id gives its own statement, and an id never set none.
    @Test func statementsByIDKeepEachIDsStatement() {
        final class Box {}
        var byID = StatementsByID<Box>()
        let ids = [0, 1, 7, StatementsByID<Box>.indexed - 1, StatementsByID<Box>.indexed, 3 * StatementsByID<Box>.indexed + 5, -2]
        let boxes = ids.map { _ in Box() }
        for (id, box) in zip(ids, boxes) { byID[id] = box }
        for (id, box) in zip(ids, boxes) { #expect(byID[id] === box, "id \(id)") }
        for id in [2, 8, StatementsByID<Box>.indexed + 1, 2 * StatementsByID<Box>.indexed, -1] { #expect(byID[id] == nil, "id \(id)") }
        byID[7] = nil
        #expect(byID[7] == nil && byID[1] === boxes[1])
        byID.removeAll()
        #expect(ids.allSatisfy { byID[$0] == nil })
    }

    /// One shape on a base entity and on its subclass, nil and a value, one identifier's entity and
    /// another's: each plain fetch gets its own rows (kept SQL per entity, per nil-ness).
    @Test(arguments: StoreKind.allCases) func plainFetchesOfOneShapeOnTwoEntitiesKeepTheirOwnSelect(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let business = try fixture.context.fetch(FetchDescriptor<BusinessTrip>())
        for round in 0..<3 {
            for name in ["Trip 3", "Meeting 3", "Trip 4", "Meeting 5"] {
                let onTrip = #Predicate<Trip> { $0.name == name }
                let onBusiness = #Predicate<BusinessTrip> { $0.name == name }
                let trips = try fixture.context.fetch(FetchDescriptor<Trip>(predicate: onTrip)).map(\.persistentModelID)
                #expect(trips == (try Self.expected(fixture.all, onTrip)), "round \(round) Trip \(name)")
                let businessTrips = try fixture.context.fetch(FetchDescriptor<BusinessTrip>(predicate: onBusiness)).map(\.persistentModelID)
                #expect(businessTrips == (try Self.expected(business, onBusiness)), "round \(round) BusinessTrip \(name)")
            }
            for report in [nil, "ER 1", nil, "ER 2"] as [String?] {
                let predicate = #Predicate<BusinessTrip> { $0.expenseReport == report }
                let fetched = try fixture.context.fetch(FetchDescriptor<BusinessTrip>(predicate: predicate)).map(\.persistentModelID)
                #expect(fetched == (try Self.expected(business, predicate)), "round \(round) expenseReport \(String(describing: report))")
            }
            for model in Array(fixture.all.prefix(4)) + business.prefix(2).map({ $0 as Trip }) {
                let id = model.persistentModelID
                let onTrip = #Predicate<Trip> { $0.persistentModelID == id }
                let onBusiness = #Predicate<BusinessTrip> { $0.persistentModelID == id }
                #expect(try fixture.context.fetch(FetchDescriptor<Trip>(predicate: onTrip)).map(\.persistentModelID) == [id])
                let expected = model is BusinessTrip ? [id] : []
                #expect(try fixture.context.fetch(FetchDescriptor<BusinessTrip>(predicate: onBusiness)).map(\.persistentModelID) == expected)
            }
        }
    }

    /// A limit, an offset, a sort, pending changes, `propertiesToFetch`, each after and before the
    /// plain fetch of the same predicate: none takes the plain select of another.
    @Test(arguments: StoreKind.allCases) func windowsSortsAndPendingChangesDoNotTakeThePlainSelect(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let prefix = "Trip"
        let predicate = #Predicate<Trip> { $0.name.starts(with: prefix) || $0.name == "Meeting 1" }
        let cutoff = PredicateCacheTests.start.addingTimeInterval(5 * PredicateCacheTests.day)
        let byDate = #Predicate<Trip> { $0.startDate < cutoff }
        for round in 0..<2 {
            for candidate in [predicate, byDate] {
                let all = try Self.expected(fixture.all, candidate)
                #expect(try fixture.context.fetch(FetchDescriptor<Trip>(predicate: candidate)).map(\.persistentModelID) == all, "round \(round)")
                for (limit, offset) in [(1, nil), (nil, 2), (3, 1), (0, nil), (2, 100)] as [(Int?, Int?)] {
                    var descriptor = FetchDescriptor<Trip>(predicate: candidate)
                    descriptor.fetchLimit = limit
                    descriptor.fetchOffset = offset
                    let expected = try Self.expected(fixture.all, candidate, limit: limit, offset: offset ?? 0)
                    #expect(try fixture.context.fetch(descriptor).map(\.persistentModelID) == expected, "limit \(String(describing: limit)) offset \(String(describing: offset))")
                }
                let sorted = FetchDescriptor<Trip>(predicate: candidate, sortBy: [SortDescriptor(\.startDate, order: .reverse)])
                let expectedDates = try fixture.all.filter { try candidate.evaluate($0) }.map(\.startDate).sorted(by: >)
                #expect(try fixture.context.fetch(sorted).map(\.startDate) == expectedDates)
                var partial = FetchDescriptor<Trip>(predicate: candidate)
                partial.propertiesToFetch = [\.name]
                #expect(try fixture.context.fetch(partial).map(\.persistentModelID) == all)
                #expect(try fixture.context.fetchCount(FetchDescriptor<Trip>(predicate: candidate)) == all.count)
            }
            // Pending: an unsaved trip that matches, and a deleted one that does.
            let scratch = ModelContext(fixture.container)
            let pending = Trip(name: "Trip pending", startDate: PredicateCacheTests.start, endDate: PredicateCacheTests.start)
            scratch.insert(pending)
            let deleted = try #require(try scratch.fetch(FetchDescriptor<Trip>(predicate: predicate)).first)
            scratch.delete(deleted)
            let withPending = Set(try scratch.fetch(FetchDescriptor<Trip>(predicate: predicate)).map(ObjectIdentifier.init))
            #expect(withPending.contains(ObjectIdentifier(pending)))
            #expect(!withPending.contains(ObjectIdentifier(deleted)))
            var storeOnly = FetchDescriptor<Trip>(predicate: predicate)
            storeOnly.includePendingChanges = false
            #expect(try scratch.fetch(storeOnly).map(\.persistentModelID) == (try Self.expected(fixture.all, predicate)))
        }
    }

    /// Plain counts (`fetchCount` through the entry's kept count) interleaved with plain fetches
    /// of the same predicates and windows, on a base entity and a subclass, by value, nil and
    /// identifier: each takes its own statement, and counts the rows `evaluate` keeps in the
    /// window; pending changes count unless the descriptor leaves them out.
    @Test(arguments: StoreKind.allCases) func plainCountsAndFetchesOfOnePredicateKeepTheirOwnStatements(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let business = try fixture.context.fetch(FetchDescriptor<BusinessTrip>())
        let cutoff = PredicateCacheTests.start.addingTimeInterval(5 * PredicateCacheTests.day)
        let windows: [(Int?, Int?)] = [(nil, nil), (1, nil), (nil, 2), (3, 1), (0, nil), (2, 100)]
        for round in 0..<3 {
            let byDate = #Predicate<Trip> { $0.startDate < cutoff }
            for (limit, offset) in round == 1 ? windows.reversed() : windows {
                var descriptor = FetchDescriptor<Trip>(predicate: byDate)
                descriptor.fetchLimit = limit
                descriptor.fetchOffset = offset
                let expected = try Self.expected(fixture.all, byDate, limit: limit, offset: offset ?? 0)
                let label = "round \(round) limit \(String(describing: limit)) offset \(String(describing: offset))"
                if round == 2 { #expect(try fixture.context.fetch(descriptor).map(\.persistentModelID) == expected, "\(label)") }
                #expect(try fixture.context.fetchCount(descriptor) == expected.count, "\(label)")
                #expect(try fixture.context.fetch(descriptor).map(\.persistentModelID) == expected, "\(label)")
            }
            for name in ["Trip 3", "Meeting 3", "Nowhere"] {
                let onTrip = #Predicate<Trip> { $0.name == name }
                let onBusiness = #Predicate<BusinessTrip> { $0.name == name }
                #expect(try fixture.context.fetchCount(FetchDescriptor(predicate: onTrip)) == (try Self.expected(fixture.all, onTrip)).count, "\(name)")
                #expect(try fixture.context.fetch(FetchDescriptor(predicate: onTrip)).map(\.persistentModelID) == (try Self.expected(fixture.all, onTrip)))
                #expect(try fixture.context.fetchCount(FetchDescriptor(predicate: onBusiness)) == (try Self.expected(business, onBusiness)).count, "\(name)")
            }
            for report in [nil, "ER 1", "ER 2"] as [String?] {
                let predicate = #Predicate<BusinessTrip> { $0.expenseReport == report }
                #expect(try fixture.context.fetchCount(FetchDescriptor(predicate: predicate)) == (try Self.expected(business, predicate)).count,
                        "expenseReport \(String(describing: report))")
            }
            for model in Array(fixture.all.prefix(3)) + business.prefix(2).map({ $0 as Trip }) {
                let id = model.persistentModelID
                #expect(try fixture.context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == id })) == 1)
                #expect(try fixture.context.fetchCount(FetchDescriptor<BusinessTrip>(predicate: #Predicate { $0.persistentModelID == id }))
                        == (model is BusinessTrip ? 1 : 0))
            }
        }
        // The counts took the plain path: the context's memo keeps a count's texts.
        #expect(fixture.context.fastMemo?.texts.contains { $0.count != nil } == true)
        // Pending: an unsaved trip that matches and a deleted one that matches count, unless left out.
        let byDate = #Predicate<Trip> { $0.startDate < cutoff }
        let stored = try Self.expected(fixture.all, byDate).count
        let scratch = ModelContext(fixture.container)
        #expect(try scratch.fetchCount(FetchDescriptor(predicate: byDate)) == stored)
        scratch.insert(Trip(name: "Trip pending", startDate: PredicateCacheTests.start, endDate: PredicateCacheTests.start))
        scratch.insert(Trip(name: "Trip pending later", startDate: cutoff, endDate: cutoff))
        let deleted = try #require(try scratch.fetch(FetchDescriptor(predicate: byDate)).first)
        scratch.delete(deleted)
        #expect(try scratch.fetchCount(FetchDescriptor(predicate: byDate)) == stored)
        scratch.delete(try #require(try scratch.fetch(FetchDescriptor(predicate: byDate)).first))
        #expect(try scratch.fetchCount(FetchDescriptor(predicate: byDate)) == stored - 1)
        var storeOnly = FetchDescriptor(predicate: byDate)
        storeOnly.includePendingChanges = false
        #expect(try scratch.fetchCount(storeOnly) == stored)
        try scratch.save()
        #expect(try scratch.fetchCount(storeOnly) == stored - 1)
        #expect(try fixture.context.fetchCount(FetchDescriptor(predicate: byDate)) == stored - 1)
    }

    /// A second container on the same store (its own cache, its ids from 1 again) and a store
    /// whose schema gained an index between fetches: the rows stay right.
    @Test(arguments: StoreKind.persistent) func aSecondContainerOnTheStoreTakesNoStatementOfTheFirst(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let first = fixture.context
        let second = ModelContext(try fixture.store.store.container(for: TripStore.schema))
        let cutoff = PredicateCacheTests.start.addingTimeInterval(4 * PredicateCacheTests.day)
        let byName = #Predicate<Trip> { $0.name == "Trip 2" }
        let byDate = #Predicate<Trip> { $0.startDate < cutoff }
        // The first container learns byName first, the second byDate first: the same ids name
        // different selects in the two.
        let names = try Self.expected(fixture.all, byName)
        let dates = try Self.expected(fixture.all, byDate)
        #expect(try first.fetch(FetchDescriptor(predicate: byName)).map(\.persistentModelID) == names)
        #expect(try second.fetch(FetchDescriptor(predicate: byDate)).map(\.persistentModelID) == dates)
        #expect(try second.fetch(FetchDescriptor(predicate: byName)).map(\.persistentModelID) == names)
        #expect(try first.fetch(FetchDescriptor(predicate: byDate)).map(\.persistentModelID) == dates)
        try first.connection().execute("CREATE INDEX \"Trip.index(startDate)\" ON \"Trip\" (\"startDate\")")
        #expect(try first.fetch(FetchDescriptor(predicate: byDate)).map(\.persistentModelID) == dates)
        #expect(try second.fetch(FetchDescriptor(predicate: byDate)).map(\.persistentModelID) == dates)
    }

    /// A full cache starts over; statement ids are not handed out again, so a connection's
    /// statement kept under an id is never another select's.
    @Test(arguments: StoreKind.allCases) func aCacheThatStartsOverHandsOutNewStatementIDs(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let byName = #Predicate<Trip> { $0.name == "Trip 2" }
        #expect(try fixture.context.fetch(FetchDescriptor(predicate: byName)).map(\.persistentModelID) == (try Self.expected(fixture.all, byName)))
        // Texts that are not plain are part of the shape: one entry each.
        for index in 0...PredicateTranslationCache.capacity {
            let name = "K\(index)"
            _ = try fixture.context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
        }
        let cutoff = PredicateCacheTests.start.addingTimeInterval(4 * PredicateCacheTests.day)
        let byDate = #Predicate<Trip> { $0.startDate < cutoff }
        #expect(try fixture.context.fetch(FetchDescriptor(predicate: byDate)).map(\.persistentModelID) == (try Self.expected(fixture.all, byDate)))
        #expect(try fixture.context.fetch(FetchDescriptor(predicate: byName)).map(\.persistentModelID) == (try Self.expected(fixture.all, byName)))
    }
}
