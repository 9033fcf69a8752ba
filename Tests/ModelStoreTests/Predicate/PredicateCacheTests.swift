import Dispatch
import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The container's cache of translated predicates (docs/Predicates.md, "Translation cache"): a
/// predicate of a shape seen before takes the cached SQL with its own values bound. The oracle:
/// the cached translation is exactly the fresh one, and the rows fetched are those
/// `Predicate.evaluate` keeps, on every store; predicates that differ only in a captured value,
/// a key path, nil-ness, a text's spelling or a list's length share no wrong entry.
@Suite struct PredicateCacheTests {
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSinceReferenceDate: 700_000_000)

    /// Trips named "Trip 0"…, business trips with and without an expense report, personal trips,
    /// names with other spellings.
    static func populate(_ context: ModelContext) throws {
        for index in 0..<12 {
            let date = start.addingTimeInterval(Double(index) * day)
            context.insert(Trip(name: "Trip \(index)", startDate: date, endDate: date.addingTimeInterval(day)))
            let business = BusinessTrip(name: "Meeting \(index)", startDate: date, endDate: date, company: index % 2 == 0 ? "Acme" : "Initech")
            business.expenseReport = index % 3 == 0 ? nil : "ER \(index % 3)"
            context.insert(business)
            context.insert(PersonalTrip(name: "Trip \(index)", startDate: date, endDate: date, reason: index % 2 == 0 ? .vacation : .family))
        }
        for name in ["Café", "Cafe\u{301}", "Kelvin", "\u{212A}elvin", "", "50%", "a_b"] {
            context.insert(Trip(name: name, startDate: start, endDate: start))
        }
        try context.save()
    }

    final class Fixture {
        let store: OracleStore
        var context: ModelContext { store.context }
        var container: ModelContainer { store.container }
        var cache: PredicateTranslationCache { store.container.predicateCache }
        let all: [Trip]

        init(_ kind: StoreKind) throws {
            store = try OracleStore(kind, TripStore.schema) { try PredicateCacheTests.populate($0) }
            all = try store.context.fetch(FetchDescriptor<Trip>())
        }

        /// The translation through the cache and a fresh one.
        func translations<T: PersistentModel>(_ predicate: Predicate<T>) throws -> (cached: SQLFilter, fresh: SQLFilter) {
            let entity = try context.entity(for: T.self)
            let dialect = container.driver.dialect
            let cached = try PredicateSQL.translation(of: predicate, entity: entity, schema: container.schema, dialect: dialect,
                                                      store: container.storeIdentifier, cache: cache).filter
            let fresh = try PredicateSQL.filter(for: predicate, entity: entity, schema: container.schema, dialect: dialect,
                                                store: container.storeIdentifier)
            return (cached, fresh)
        }

        /// Fetches with `predicate` (twice: learning, then hitting the cache) and checks the SQL
        /// against a fresh translation and the rows against `evaluate`.
        func check(_ name: String, _ predicate: Predicate<Trip>, sourceLocation: SourceLocation = #_sourceLocation) throws {
            for _ in 0..<2 {
                let (cached, fresh) = try translations(predicate)
                #expect(cached == fresh, "\(name): cached \(cached) fresh \(fresh)", sourceLocation: sourceLocation)
                let fetched = Set(try context.fetch(FetchDescriptor<Trip>(predicate: predicate)).map(ObjectIdentifier.init))
                let expected = Set(try all.filter { try predicate.evaluate($0) }.map(ObjectIdentifier.init))
                #expect(fetched == expected, "\(name): fetched \(fetched.count), evaluate \(expected.count)", sourceLocation: sourceLocation)
                #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: predicate)) == expected.count, "\(name)", sourceLocation: sourceLocation)
            }
        }
    }

    static func byName(_ name: String) -> Predicate<Trip> { #Predicate<Trip> { $0.name == name } }
    static func byID(_ id: PersistentIdentifier) -> Predicate<Trip> { #Predicate<Trip> { $0.persistentModelID == id } }
    static func byReport(_ report: String?) -> Predicate<Trip> {
        #Predicate<Trip> { trip in
            if let business = trip as? BusinessTrip { business.expenseReport == report } else { false }
        }
    }

    /// One shape, one entry: values of the shape share it, and get their own bindings.
    @Test(arguments: StoreKind.allCases) func aShapeIsTranslatedOnceAndBindsEachValue(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let before = fixture.cache.count
        // Plain texts of one length (the length is part of the shape).
        for index in [0, 5, 1, 9] {
            try fixture.check("name == Trip \(index)", Self.byName("Trip \(index)"))
        }
        #expect(fixture.cache.count == before + 1)
        try fixture.check("name == Trip 10", Self.byName("Trip 10"))
        #expect(fixture.cache.count == before + 2)
        let predicate = Self.byName("Trip 3")
        var walker = PredicateShapeWalker(root: predicate.variable.key, model: Trip.self)
        walker.walk(predicate.expression)
        guard case .translated(let cached)? = fixture.cache.entry(for: PredicateShape(tokens: walker.tokens)) else {
            Issue.record("no cached translation for name == text")
            return
        }
        // The captured text is a binding taken from the value, not the text the shape was learnt from.
        #expect(cached.bindings.contains { if case .captured(0, .stored) = $0 { true } else { false } })
        #expect(cached.filter(values: ["Trip 3"])?.bindings.contains(.text("Trip 3")) == true)
    }

    /// Identifiers: of each entity of the hierarchy, of a deleted row, unsaved, of another store.
    @Test(arguments: StoreKind.allCases) func identifiersOfEveryKindGetTheirOwnSQL(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        var identifiers = fixture.all.prefix(6).map(\.persistentModelID) + fixture.all.suffix(3).map(\.persistentModelID)
        let unsaved = Trip(name: "unsaved", startDate: Self.start, endDate: Self.start)
        let scratch = ModelContext(fixture.container)
        scratch.insert(unsaved)
        identifiers.append(unsaved.persistentModelID)
        if let row = identifiers[0].rowID {
            identifiers.append(PersistentIdentifier(entityName: identifiers[0].entityName, rowID: row, store: "another store"))
            identifiers.append(PersistentIdentifier(entityName: "Accommodation", rowID: row, store: fixture.container.storeIdentifier))
            identifiers.append(PersistentIdentifier(entityName: identifiers[0].entityName, rowID: 1_000_000, store: fixture.container.storeIdentifier))
        }
        // Twice round: every kind after every other kind.
        for id in identifiers + identifiers.reversed() {
            try fixture.check("persistentModelID == \(id)", Self.byID(id))
        }
    }

    /// Texts: plain ones of every length, ones with other spellings (KELVIN SIGN, accents), pattern
    /// characters, the empty text; each after the others.
    @Test(arguments: StoreKind.allCases) func textsOfEverySpellingGetTheirOwnSQL(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let names = ["Trip 1", "Café", "Trip 10", "Kelvin", "Trip 2", "\u{212A}elvin", "", "50%", "a_b", "K", "x", "Meeting 4", "Cafe\u{301}"]
        for name in names + names.reversed() {
            try fixture.check("name == \(name.debugDescription)", Self.byName(name))
            try fixture.check("name != \(name.debugDescription)", #Predicate<Trip> { $0.name != name })
            try fixture.check("name < \(name.debugDescription)", #Predicate<Trip> { $0.name < name })
            try fixture.check("name.contains \(name.debugDescription)", #Predicate<Trip> { $0.name.contains(name) })
        }
    }

    /// nil and a value, key paths, captured lists of each length, two values alike or not.
    @Test(arguments: StoreKind.allCases) func predicatesThatDifferInOnePartShareNoEntry(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        for report in [nil, "ER 1", nil, "ER 2", "none"] as [String?] {
            try fixture.check("expenseReport == \(String(describing: report))", Self.byReport(report))
        }
        for value in ["Acme", "Trip 3", "Initech"] {
            try fixture.check("name == \(value)", #Predicate<Trip> { $0.name == value })
            try fixture.check("as? BusinessTrip company == \(value)", #Predicate<Trip> { trip in
                if let business = trip as? BusinessTrip { business.company == value } else { false }
            })
            try fixture.check("as? BusinessTrip name == \(value)", #Predicate<Trip> { trip in
                if let business = trip as? BusinessTrip { business.name == value } else { false }
            })
        }
        for count in [1, 3, 2, 0, 5] {
            let names = (0..<count).map { "Trip \($0)" }
            try fixture.check("\(count) names contains name", #Predicate<Trip> { names.contains($0.name) })
        }
        for (first, second) in [("Trip 1", "Trip 1"), ("Trip 1", "Trip 2"), ("Trip 3", "Trip 3"), ("Meeting 2", "Trip 5")] {
            try fixture.check("name == \(first) || name == \(second)", #Predicate<Trip> { $0.name == first || $0.name == second })
        }
        for days in [0.0, 3.5, -1, 11, 3.5] {
            let cutoff = Self.start.addingTimeInterval(days * Self.day)
            try fixture.check("startDate < \(days)", #Predicate<Trip> { $0.startDate < cutoff })
            try fixture.check("startDate >= \(days)", #Predicate<Trip> { $0.startDate >= cutoff })
            try fixture.check("startDate < \(days) && name == Trip 2", #Predicate<Trip> { $0.startDate < cutoff && $0.name == "Trip 2" })
        }
        for reason in [PersonalTrip.Reason.vacation, .family, .adventure, .vacation] {
            try fixture.check("reason == \(reason)", #Predicate<Trip> { trip in
                if let personal = trip as? PersonalTrip { personal.reason == reason } else { false }
            })
        }
        for flag in [true, false, true] {
            try fixture.check("isEmpty == \(flag)", #Predicate<Trip> { $0.name.isEmpty == flag })
        }
    }

    /// A shape is learnt at its second use (docs/Predicates.md, "Translation cache"): its first use
    /// is translated without the probe translation and leaves no entry, its second learns the
    /// entry from the first use's values and binds its own, the third takes the entry; the counts
    /// are those `evaluate` gives each time, on every store. Through the full key alike.
    @Test(arguments: StoreKind.allCases) func aShapeIsLearntAtItsSecondUse(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        func shape(_ predicate: Predicate<Trip>) -> PredicateShape {
            var walker = PredicateShapeWalker(root: predicate.variable.key, model: Trip.self)
            walker.walk(predicate.expression)
            return PredicateShape(tokens: walker.tokens)
        }
        func fastEntryCount(_ predicate: Predicate<Trip>) -> Int {
            let key = FastTypeKey(model: ObjectIdentifier(Trip.self), expression: ObjectIdentifier(type(of: predicate.expression)))
            guard case .entries(_, let entries)? = fixture.cache.fastEntries(key) else { return 0 }
            return entries.count
        }
        for (use, days) in [2.0, 7, 4, 9].enumerated() {
            let cutoff = Self.start.addingTimeInterval(days * Self.day)
            let predicate = #Predicate<Trip> { $0.endDate < cutoff }
            let expected = try fixture.all.filter { try predicate.evaluate($0) }.count
            #expect(try fixture.context.fetchCount(FetchDescriptor<Trip>(predicate: predicate)) == expected, "use \(use + 1)")
            switch (use, fixture.cache.entry(for: shape(predicate))) {
            case (0, nil):
                #expect(fastEntryCount(predicate) == 0)
            case (_, .translated(let cached)?) where use > 0:
                #expect(cached.bindings.contains { if case .captured(0, .stored) = $0 { true } else { false } })
                #expect(fastEntryCount(predicate) == 1)
            case (_, let entry):
                Issue.record("use \(use + 1): \(String(describing: entry))")
            }
        }
        // The full key (a predicate the fast key does not read: `contains`).
        for (use, text) in ["Trip 1", "Trip 2", "Trip 3"].enumerated() {
            let predicate = #Predicate<Trip> { $0.name.contains(text) }
            let (cached, fresh) = try fixture.translations(predicate)
            #expect(cached == fresh)
            switch (use, fixture.cache.entry(for: shape(predicate))) {
            case (0, .firstUse?), (1, .translated?), (2, .translated?): break
            case (_, let entry): Issue.record("full key, use \(use + 1): \(String(describing: entry))")
            }
        }
    }

    /// Two contexts on two threads fetch with predicates of one shape: each gets its own rows.
    @Test(arguments: StoreKind.allCases) func contextsOnTwoThreadsShareTheCache(_ kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        let container = fixture.container
        let wrong = Tally()
        let done = Tally()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let context = ModelContext(container)
            for round in 0..<60 {
                let index = (round * 7 + thread * 5) % 12
                let name = thread == 0 ? "Trip \(index)" : "Meeting \(index)"
                let found = (try? context.fetch(FetchDescriptor<Trip>(predicate: #Predicate<Trip> { $0.name == name }))) ?? []
                let expected = thread == 0 ? 2 : 1
                if found.count != expected || !found.allSatisfy({ $0.name == name }) { wrong.add() }
                if let id = found.first?.persistentModelID {
                    let again = (try? context.fetch(FetchDescriptor<Trip>(predicate: #Predicate<Trip> { $0.persistentModelID == id }))) ?? []
                    if again.count != 1 || again.first?.persistentModelID != id { wrong.add() }
                }
            }
            done.add()
        }
        #expect(done.value == 2)
        #expect(wrong.value == 0)
    }
}

/// A count several threads add to.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
