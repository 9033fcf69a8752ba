import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The history spellings of Apple's WWDC24 sample code (`History.Default…Change<Model>` matched
/// inside the `HistoryChange` cases) find the changes they name, on every store.
@Suite struct HistorySpellingTests {
    @Test(arguments: StoreKind.allCases) func wwdc24ChangeMatchingFindsTheChanges(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let context = fixture.context
        let trip = Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1))
        context.insert(trip)
        try context.save()
        trip.name = "Lyon"
        try context.save()
        context.delete(trip)
        try context.save()
        var found: [String] = []
        for transaction in try context.fetchHistory(History.HistoryDescriptor<History.DefaultTransaction>()) {
            for change in transaction.changes {
                switch change {
                case .insert(_ as History.DefaultInsertChange<Trip>): found.append("insert")
                case .update(let update as History.DefaultUpdateChange<Trip>): found.append("update \(update.updatedAttributes.count)")
                case .delete(_ as History.DefaultDeleteChange<Trip>): found.append("delete")
                default: found.append("other")
                }
            }
        }
        #expect(found == ["insert", "update 1", "delete"])
    }
}
