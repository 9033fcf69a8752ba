import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A stored model deleted and a new model that takes its unique values, in one save: the new
/// model gets a row of its own, the old row is deleted (found by the model-based tester:
/// `ModelBasedTests.deleteAndReinsertOfAUniqueValue`; docs/Runtime.md, "Upsert").
@Suite struct DeleteAndReinsertTests {
    /// Each change of the store's last transaction: kind and identifier.
    func lastTransaction(_ container: ModelContainer) throws -> [String] {
        let transactions = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        return try #require(transactions.last).changes.map { change in
            switch change {
            case .insert(let insert): return "insert \(insert.changedPersistentIdentifier)"
            case .update(let update): return "update \(update.changedPersistentIdentifier)"
            case .delete(let delete): return "delete \(delete.changedPersistentIdentifier)"
            @unknown default: return "?"
            }
        }
    }

    func badges(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.code)]))
            .map { "\($0.code) \($0.holder) \($0.slot) \($0.label)" }
    }

    @Test("Deleting a model and inserting one with its unique value in one save keeps the new one", arguments: StoreKind.allCases)
    func deleteThenInsertTheSameValue(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Badges.schema)
        let context = ModelContext(container)
        let old = Badge(code: "x", holder: "h", slot: 1, label: "old")
        let other = Badge(code: "z", holder: "h", slot: 9, label: "other")
        context.insert(old)
        context.insert(other)
        try context.save()
        let oldID = old.persistentModelID

        // Inserted first, deleted after: the order of the calls does not matter.
        let new = Badge(code: "x", holder: "h", slot: 1, label: "new")
        context.insert(new)
        context.delete(old)
        try context.save()
        #expect(!new.isDeleted && new.modelContext === context)
        #expect(old.isDeleted && old.modelContext == nil)
        let newID = new.persistentModelID
        #expect(newID != oldID && newID.rowID! > oldID.rowID!, "the new badge took the deleted one's row")
        #expect(try badges(container) == ["x h 1 new", "z h 9 other"])
        #expect(ModelContext(container).model(for: oldID) == nil)
        #expect((ModelContext(container).model(for: newID) as? Badge)?.label == "new")
        #expect(try lastTransaction(container).sorted() == ["delete \(oldID)", "insert \(newID)"])
    }

    @Test("The new model's values match two deleted rows, one per unique group", arguments: StoreKind.allCases)
    func insertMeetsTwoDeletedRows(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Badges.schema)
        let context = ModelContext(container)
        let byCode = Badge(code: "x", holder: "a", slot: 1, label: "by code")
        let byPlace = Badge(code: "y", holder: "b", slot: 2, label: "by place")
        context.insert(byCode)
        context.insert(byPlace)
        try context.save()
        let ids = [byCode.persistentModelID, byPlace.persistentModelID]

        context.delete(byCode)
        context.delete(byPlace)
        let new = Badge(code: "x", holder: "b", slot: 2, label: "both")
        context.insert(new)
        try context.save()
        #expect(try badges(container) == ["x b 2 both"])
        #expect(!ids.contains(new.persistentModelID))
        #expect(ids.allSatisfy { ModelContext(container).model(for: $0) == nil })
        #expect(try lastTransaction(container).sorted() == (ids.map { "delete \($0)" } + ["insert \(new.persistentModelID)"]).sorted())

        // A row deleted in the save that the new model does not meet is deleted as before, and an
        // upsert onto a row that stays still takes that row.
        let kept = Badge(code: "k", holder: "c", slot: 3, label: "kept")
        let gone = Badge(code: "g", holder: "d", slot: 4, label: "gone")
        context.insert(kept)
        context.insert(gone)
        try context.save()
        let keptID = kept.persistentModelID
        context.delete(gone)
        let upsert = Badge(code: "k", holder: "c", slot: 3, label: "upserted")
        context.insert(upsert)
        try context.save()
        #expect(upsert.persistentModelID == keptID)
        #expect(try badges(container) == ["k c 3 upserted", "x b 2 both"])
    }

    @Test("A deleted model's unique value taken by a new one, saved in a transaction, rolls back whole", arguments: StoreKind.allCases)
    func failedSaveLeavesTheOldRow(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Badges.schema)
        let context = ModelContext(container)
        let old = Badge(code: "x", holder: "h", slot: 1, label: "old")
        let blocker = Badge(code: "b", holder: "q", slot: 7, label: "blocker")
        context.insert(old)
        context.insert(blocker)
        try context.save()
        // The second new badge takes the blocker's row (an upsert) and then collides on the
        // first new badge's place: the save fails, and the deleted row is back.
        context.delete(old)
        context.insert(Badge(code: "x", holder: "h", slot: 1, label: "new"))
        context.insert(Badge(code: "b", holder: "h", slot: 1, label: "clash"))
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try badges(container) == ["b q 7 blocker", "x h 1 old"])
    }
}
