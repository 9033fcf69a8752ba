import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #26, item 1: `transaction(block:)` whose block throws undoes only the block's changes; the
/// unsaved changes made before the call stay pending, with their values (docs/Runtime.md, "Transactions").
@Suite struct TransactionUndoTests {
    struct Failure: Error {}

    /// What the context holds pending, by name: the oracle is this view taken before the call.
    struct Pending: Equatable {
        let inserted: [String]
        let changed: [String]
        let deleted: [String]
        let names: [String]
        let stays: [String]

        init(_ context: ModelContext, _ trips: [Trip], _ stays: [Accommodation]) {
            func name(_ model: any PersistentModel) -> String {
                (model as? Trip)?.name ?? (model as? Accommodation)?.name ?? "?"
            }
            inserted = context.insertedModelsArray.map(name)
            changed = context.changedModelsArray.map(name).sorted()
            deleted = context.deletedModelsArray.map(name)
            names = trips.map { "\($0.name) \($0.startDate.timeIntervalSinceReferenceDate) \($0.isDeleted)" }
            self.stays = stays.map { "\($0.name) → \($0.trip?.name ?? "none")" }
        }
    }

    @Test("A throwing block undoes its own changes only; those made before the call stay pending", arguments: StoreKind.allCases)
    func throwingBlockKeepsEarlierChanges(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let seed = ModelContext(fixture.container)
        for name in ["A", "B", "C"] { seed.insert(Trip(name: name, startDate: Day.at(1), endDate: Day.at(2))) }
        try seed.save()

        let context = fixture.context
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let (a, b, c) = (trips[0], trips[1], trips[2])
        // Unsaved changes made before the call.
        a.name = "A1"
        let early = Trip(name: "T1", startDate: Day.at(3), endDate: Day.at(4))
        context.insert(early)
        context.delete(b)
        let stay = Accommodation(name: "X")
        stay.trip = a
        let all = [a, b, c, early]
        let before = Pending(context, all, [stay])

        var late: Trip?
        #expect(throws: Failure.self) {
            try context.transaction {
                a.name = "A2"                       // changed before and in the block
                a.startDate = Day.at(9)             // a column first changed in the block
                c.name = "C2"                       // clean before the block
                early.name = "T1 renamed"           // inserted before, changed in the block
                context.delete(early)               // inserted before, deleted in the block
                context.insert(b)                   // deleted before, undeleted in the block
                stay.trip = c                       // relinked in the block
                stay.name = "X2"
                let new = Trip(name: "T2", startDate: Day.at(5), endDate: Day.at(6))
                context.insert(new)
                late = new
                let other = Accommodation(name: "Y")
                other.trip = a
                throw Failure()
            }
        }
        #expect(Pending(context, all, [stay]) == before)
        #expect(context.hasChanges)
        #expect(late?.modelContext == nil, "the block's insert stayed in the context")
        #expect(a.accommodations.map(\.name) == ["X"])

        // What the context saves now is what it held before the call.
        try context.save()
        let check = ModelContext(fixture.container)
        let stored = try check.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map(\.name) == ["A1", "C", "T1"])
        #expect(stored.map(\.startDate) == [Day.at(1), Day.at(1), Day.at(3)])
        let stays = try check.fetch(FetchDescriptor<Accommodation>())
        #expect(stays.map { "\($0.name) → \($0.trip?.name ?? "none")" } == ["X → A1"])
    }

    @Test("A block that returns saves its changes and those made before the call", arguments: StoreKind.allCases)
    func returningBlockSavesEverything(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let context = fixture.context
        context.insert(Trip(name: "Before", startDate: Day.at(1), endDate: Day.at(2)))
        try context.transaction {
            context.insert(Trip(name: "Inside", startDate: Day.at(1), endDate: Day.at(2)))
        }
        #expect(!context.hasChanges)
        let names = try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Before", "Inside"])
    }

    @Test("A block that saved and then throws undoes what it changed after its save", arguments: StoreKind.allCases)
    func blockThatSavedThenThrows(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let context = fixture.context
        context.insert(Trip(name: "Before", startDate: Day.at(1), endDate: Day.at(2)))
        #expect(throws: Failure.self) {
            try context.transaction {
                context.insert(Trip(name: "Saved inside", startDate: Day.at(1), endDate: Day.at(2)))
                try context.save()
                context.insert(Trip(name: "After the save", startDate: Day.at(1), endDate: Day.at(2)))
                throw Failure()
            }
        }
        #expect(!context.hasChanges)
        let names = try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Before", "Saved inside"])
    }

    @Test("Undone transactions keep the change log to the pending records: saved values intact, no growth per undo", arguments: StoreKind.allCases)
    func undoneTransactionsKeepTheChangeLogSmall(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let seed = ModelContext(fixture.container)
        for index in 0..<10 { seed.insert(Trip(name: "T\(index)", startDate: Day.at(1), endDate: Day.at(2))) }
        try seed.save()

        let context = fixture.context
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        for trip in trips { trip.name += " changed" }
        let pending = context.changeLog.count
        #expect(pending == trips.count)
        for round in 0..<50 {
            #expect(throws: Failure.self) {
                try context.transaction {
                    for trip in trips {
                        trip.name = "round \(round)"
                        trip.startDate = Day.at(round + 3)
                    }
                    throw Failure()
                }
            }
            #expect(context.changeLog.count == pending, "round \(round): the log holds the pending records alone")
        }
        #expect(trips.map(\.name) == (0..<10).map { "T\($0) changed" })
        #expect(trips.allSatisfy { $0.changes?.order.count == 1 && $0.startDate == Day.at(1) }, "only the name is pending")
        // The saved values the records keep are still the stored ones: a rollback gives them back.
        context.rollback()
        #expect(trips.map(\.name) == (0..<10).map { "T\($0)" })
        #expect(context.changeLog.count == 0)
    }
}
