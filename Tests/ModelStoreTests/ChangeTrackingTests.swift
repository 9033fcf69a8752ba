import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Per-property change tracking (#17): a generated setter tells the runtime which attribute it
/// changes and when the change is over; `save()` writes only the changed columns, `rollback()`
/// restores only their saved values, history names only the attributes whose stored value moved.
@Suite struct ChangeTrackingTests {
    let store: TestStore
    let container: ModelContainer

    /// A fresh store of `kind` (SQLite file, SQLite in memory, PostgreSQL); each test runs on every kind.
    init(_ kind: StoreKind) throws {
        store = try TestStore(kind)
        container = try store.container(for: TripStore.schema)
        let seed = ModelContext(container)
        let business = BusinessTrip(name: "Offsite", startDate: Day.at(1), endDate: Day.at(3), company: "Acme")
        business.expenseReport = "pending"
        seed.insert(business)
        seed.insert(Trip(name: "Rome", startDate: Day.at(10), endDate: Day.at(12)))
        let inn = Accommodation(name: "Inn")
        seed.insert(inn)
        inn.trip = business
        try seed.save()
    }

    private func fetchTrip(_ context: ModelContext, _ name: String) throws -> Trip {
        try #require(context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).first)
    }

    /// Saves `count` business trips "B0"… (company "C0"…, expense report "report 0"…) and as many
    /// trips "T0"…, trip `i` from day `i` to day `i + 1`.
    private func seedNumberedTrips(_ count: Int) throws {
        let seed = ModelContext(container)
        for index in 0..<count {
            let business = BusinessTrip(name: "B\(index)", startDate: Day.at(index), endDate: Day.at(index + 1), company: "C\(index)")
            business.expenseReport = "report \(index)"
            seed.insert(business)
            seed.insert(Trip(name: "T\(index)", startDate: Day.at(index), endDate: Day.at(index + 1)))
        }
        try seed.save()
    }

    /// The trips `seedNumberedTrips` saved, as `context` fetches them: the business trips and the
    /// plain ones, each by name.
    private func numberedTrips(_ context: ModelContext) throws -> (business: [BusinessTrip], plain: [Trip]) {
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).filter { $0.name.count == 2 }
        return (trips.compactMap { $0 as? BusinessTrip }, trips.filter { !($0 is BusinessTrip) })
    }

    @Test("An update writes only the changed columns: another context's write to the others survives", arguments: StoreKind.allCases)
    static func concurrentWriterKeepsItsColumns(_ kind: StoreKind) throws {
        try Self(kind).concurrentWriterKeepsItsColumns()
    }

    func concurrentWriterKeepsItsColumns() throws {
        let mine = ModelContext(container)
        let theirs = ModelContext(container)
        let trip = try #require(try fetchTrip(mine, "Offsite") as? BusinessTrip)
        let same = try #require(try fetchTrip(theirs, "Offsite") as? BusinessTrip)
        same.endDate = Day.at(5)
        same.company = "Globex"
        try theirs.save()

        trip.name = "Retreat"
        try mine.save()

        let stored = try #require(try fetchTrip(ModelContext(container), "Retreat") as? BusinessTrip)
        #expect(stored.endDate == Day.at(5), "the update rewrote endDate with the value this context had read")
        #expect(stored.company == "Globex", "the update rewrote a subclass column it did not change")
        #expect(stored.startDate == Day.at(1))
    }

    @Test("A to-one key is its own column: a concurrent rename survives a change of the relationship", arguments: StoreKind.allCases)
    static func keyColumnChangeIsPartialToo(_ kind: StoreKind) throws {
        try Self(kind).keyColumnChangeIsPartialToo()
    }

    func keyColumnChangeIsPartialToo() throws {
        let mine = ModelContext(container)
        let theirs = ModelContext(container)
        let inn = try #require(mine.fetch(FetchDescriptor<Accommodation>()).first)
        let rome = try fetchTrip(mine, "Rome")
        try #require(theirs.fetch(FetchDescriptor<Accommodation>()).first).name = "Grand Inn"
        try theirs.save()

        inn.trip = rome
        #expect(inn.changes?.savedValues.count == 1, "the record keeps the one changed column")
        try mine.save()

        let reader = ModelContext(container)
        let stored = try #require(reader.fetch(FetchDescriptor<Accommodation>()).first)
        #expect(stored.name == "Grand Inn")
        #expect(stored.trip?.name == "Rome")
    }

    @Test("The change record keeps the saved value of each changed column, once, and nothing else", arguments: StoreKind.allCases)
    static func recordKeepsOnlyChangedValues(_ kind: StoreKind) throws {
        try Self(kind).recordKeepsOnlyChangedValues()
    }

    func recordKeepsOnlyChangedValues() throws {
        let context = ModelContext(container)
        let trip = try fetchTrip(context, "Rome")
        #expect(trip.changes == nil)
        trip.name = "Roma"
        trip.name = "Rom"
        trip.endDate = Day.at(20)
        let record = try #require(trip.changes)
        #expect(record.savedValues == [.text("Rome"), .real(Day.at(12).timeIntervalSinceReferenceDate)])
        #expect(context.dirty.count == 1)
    }

    @Test("rollback() gives back exactly the saved values of the changed attributes and keys", arguments: StoreKind.allCases)
    static func rollbackRestoresExactly(_ kind: StoreKind) throws {
        try Self(kind).rollbackRestoresExactly()
    }

    func rollbackRestoresExactly() throws {
        let context = ModelContext(container)
        let trip = try #require(try fetchTrip(context, "Offsite") as? BusinessTrip)
        let inn = try #require(context.fetch(FetchDescriptor<Accommodation>()).first)
        let rome = try fetchTrip(context, "Rome")
        trip.name = "Retreat"
        trip.expenseReport = nil
        trip.company = "Globex"
        trip.company = "Initech"
        inn.trip = rome
        context.rollback()
        #expect(trip.name == "Offsite")
        #expect(trip.expenseReport == "pending")
        #expect(trip.company == "Acme")
        #expect(trip.startDate == Day.at(1) && trip.endDate == Day.at(3))
        #expect(inn.trip === trip)
        #expect(!trip.hasChanges && !inn.hasChanges && !context.hasChanges)
        #expect(trip.changes == nil)
        // Nothing was written.
        let stored = try #require(try fetchTrip(ModelContext(container), "Offsite") as? BusinessTrip)
        #expect(stored.company == "Acme")
    }

    @Test("History names the attributes whose stored value changed; a value set back records no update", arguments: StoreKind.allCases)
    static func historyNamesChangedAttributes(_ kind: StoreKind) throws {
        try Self(kind).historyNamesChangedAttributes()
    }

    func historyNamesChangedAttributes() throws {
        let context = ModelContext(container)
        let trip = try #require(try fetchTrip(context, "Offsite") as? BusinessTrip)
        trip.name = "Retreat"
        trip.endDate = trip.endDate          // set, unchanged
        trip.company = "Globex"
        trip.company = "Acme"                // set back
        try context.save()
        let updates = try context.allHistory().last?.changes.filter { $0.summary.hasPrefix("update") } ?? []
        #expect(updates.map(\.updatedNames) == [["name"]])

        trip.name = "Offsite"
        trip.name = "Retreat"                // back to the saved value
        let before = try context.allHistory().count
        try context.save()
        #expect(try context.allHistory().count == before, "a model set back to its saved values recorded an update")
    }

    @Test("History compares each model's own changed values, for models of several entities changed alike or not, some set back", arguments: StoreKind.allCases)
    static func historyComparesEachModel(_ kind: StoreKind) throws {
        try Self(kind).historyComparesEachModel()
    }

    /// History's comparison is made once per entity and set of changed columns and reused from
    /// model to model (the encoder keeps the values of the model before): each model must still be
    /// compared with its own saved values.
    func historyComparesEachModel() throws {
        try seedNumberedTrips(4)
        let context = ModelContext(container)
        let (business, plain) = try numberedTrips(context)
        // Changed in this order: B0 renamed, B1 set back (right after a model of its entity and
        // columns), T0 renamed, T1 renamed and moved, B2 renamed, T2 set back, B3 renamed and its
        // company set back, T3 moved and set back.
        business[0].name = "B0!"
        business[1].name = "x"; business[1].name = "B1"
        plain[0].name = "T0!"
        plain[1].name = "T1!"; plain[1].endDate = Day.at(40)
        business[2].name = "B2!"
        plain[2].name = "y"; plain[2].name = "T2"
        business[3].name = "B3!"; business[3].company = "D"; business[3].company = "C3"
        plain[3].endDate = Day.at(41); plain[3].endDate = Day.at(4)
        try context.save()
        let updates = try #require(try context.allHistory().last).changes.filter { $0.summary.hasPrefix("update") }
        #expect(updates.map(\.summary) == [business[0], plain[0], plain[1], business[2], business[3]].map { "update \($0.persistentModelID)" })
        #expect(updates.map(\.updatedNames) == [["name"], ["name"], ["name", "endDate"], ["name"], ["name"]])
    }

    @Test("One UPDATE statement per distinct set of changed columns, made once per context", arguments: StoreKind.allCases)
    static func oneStatementPerColumnSet(_ kind: StoreKind) throws {
        try Self(kind).oneStatementPerColumnSet()
    }

    func oneStatementPerColumnSet() throws {
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map { "\(type(of: $0))" } == ["BusinessTrip", "Trip"])
        for trip in trips { trip.name += "!" }
        try context.save()
        // One per entity (a subclass's row has more columns) and set of changed columns.
        #expect(context.partialUpdates.count == 2)
        for trip in trips { trip.endDate = Day.at(30) }
        trips[0].name = "Changed"
        try context.save()
        let sets = context.partialUpdates.keys.map { "\($0.entity):\($0.columns.sorted)" }
        #expect(sets.count == 4, "BusinessTrip: name, name+endDate; Trip: name, endDate — \(sets)")
        #expect(Set(context.partialUpdates.keys.map(\.columns)).count == 3)
        let stored = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map(\.name).sorted() == ["Changed", "Rome!"])
        #expect(stored.allSatisfy { $0.endDate == Day.at(30) })
    }

    @Test("Models of several entities, interleaved, each with its own changed columns: one save writes each row's changes and nothing else", arguments: StoreKind.allCases)
    static func interleavedEntitiesAndColumnSets(_ kind: StoreKind) throws {
        try Self(kind).interleavedEntitiesAndColumnSets()
    }

    /// `save()` keeps, per entity, the last `UPDATE` it used and binds every parameter of its
    /// prepared statement again per row, over the last row's bindings: rows of alternating entities and
    /// column sets (a set coming back after another, a NULL after a value, a to-one key) must
    /// each get exactly their own values, and the columns another context wrote must survive.
    func interleavedEntitiesAndColumnSets() throws {
        try seedNumberedTrips(6)
        let mine = ModelContext(container)
        let theirs = ModelContext(container)
        let (business, plain) = try numberedTrips(mine)
        #expect(business.count == 6 && plain.count == 6)
        let rome = try fetchTrip(mine, "Rome")
        let inn = try #require(try mine.fetch(FetchDescriptor<Accommodation>()).first)

        // Another context writes columns this one leaves alone.
        let (theirBusiness, theirPlain) = try numberedTrips(theirs)
        for trip in theirBusiness as [Trip] + theirPlain {
            trip.startDate = Day.at(100)
            (trip as? BusinessTrip)?.meetingAgenda = "agenda of \(trip.name)"
        }
        try theirs.save()

        // Changed in this order (the order of `dirty`): entities alternate, column sets alternate
        // and come back.
        for index in 0..<6 {
            switch index % 3 {
            case 0:
                business[index].name = "B\(index)*"
                plain[index].name = "T\(index)*"
            case 1:
                business[index].expenseReport = nil
                plain[index].endDate = Day.at(50 + index)
            default:
                business[index].name = "B\(index)*"
                business[index].expenseReport = "new \(index)"
                plain[index].name = "T\(index)*"
                plain[index].endDate = Day.at(50 + index)
            }
            if index == 3 { inn.trip = rome }
        }
        try mine.save()

        let check = ModelContext(container)
        let moved = Day.at(100)
        let stored = try check.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate == moved }))
        #expect(stored.count == 12, "a partial update rewrote startDate, which only the other context changed")
        for index in 0..<6 {
            let storedBusiness = try #require(stored.first { $0.name.hasPrefix("B\(index)") } as? BusinessTrip)
            let storedPlain = try #require(stored.first { $0.name.hasPrefix("T\(index)") && !($0 is BusinessTrip) })
            let renamed = index % 3 != 1
            #expect(storedBusiness.name == (renamed ? "B\(index)*" : "B\(index)"))
            #expect(storedPlain.name == (renamed ? "T\(index)*" : "T\(index)"))
            #expect(storedBusiness.expenseReport == [0: "report \(index)", 1: nil, 2: "new \(index)"][index % 3]!)
            #expect(storedBusiness.company == "C\(index)")
            #expect(storedBusiness.meetingAgenda == "agenda of B\(index)")
            #expect(storedBusiness.endDate == Day.at(index + 1))
            #expect(storedPlain.endDate == (index % 3 == 0 ? Day.at(index + 1) : Day.at(50 + index)))
        }
        let storedInn = try #require(try check.fetch(FetchDescriptor<Accommodation>()).first)
        #expect(storedInn.trip?.name == "Rome")
        #expect(storedInn.name == "Inn")
    }

    @Test("Observation still sees every change of a stored attribute", arguments: StoreKind.allCases)
    static func observationFires(_ kind: StoreKind) throws {
        try Self(kind).observationFires()
    }

    func observationFires() throws {
        let context = ModelContext(container)
        let trip = try fetchTrip(context, "Rome")
        final class Count: @unchecked Sendable { var value = 0 }
        let count = Count()
        withObservationTracking { _ = trip.name } onChange: { count.value += 1 }
        trip.name = "Roma"
        #expect(count.value == 1)
        #expect(trip.hasChanges)
    }

    /// #20 item 6: `withObservationTracking`'s `onChange` runs at `willSet`, before the new value is
    /// set; a `save()` there must not take the change for saved. The setter counts the change as in
    /// progress until `_$didSet`: the nested save throws `saveInProgress` and writes nothing.
    @Test("A save() from onChange of an attribute throws saveInProgress; the next save writes the new value and the other changes", arguments: StoreKind.allCases)
    static func saveInsideTheMutationKeepsTheChangePending(_ kind: StoreKind) throws {
        try Self(kind).saveInsideTheMutationKeepsTheChangePending()
    }

    func saveInsideTheMutationKeepsTheChangePending() throws {
        let context = ModelContext(container)
        let trip = try fetchTrip(context, "Rome")
        let other = try fetchTrip(context, "Offsite")
        other.endDate = Day.at(9)          // something else pending, written by the nested save
        final class Saver: @unchecked Sendable {
            let context: ModelContext
            var error: Error?
            init(_ context: ModelContext) { self.context = context }
        }
        let saver = Saver(context)
        withObservationTracking { _ = trip.name } onChange: {
            do { try saver.context.save() } catch { saver.error = error }
        }
        trip.name = "Roma"
        #expect((saver.error as? ModelStoreError) == .saveInProgress)
        #expect(try fetchTrip(ModelContext(container), "Offsite").endDate != Day.at(9), "the nested save wrote something")
        #expect(trip.hasChanges && context.hasChanges, "the change was marked saved with the old value")
        try context.save()
        let reader = ModelContext(container)
        #expect(try fetchTrip(reader, "Roma").endDate == Day.at(12))
        #expect(try fetchTrip(reader, "Offsite").endDate == Day.at(9))
    }
}
