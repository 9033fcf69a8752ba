import Testing
@testable import ModelStore

/// `ChangeRecord` (a model's changed columns and their saved values, no set of columns kept beside
/// the list; one column in the record itself, more in a `WideChangeRecord` that replaces it)
/// against a plain oracle: the first saved value of each column, in first-change order.
@Suite("Change record")
struct ChangeRecordTests {
    @Test("Random changes: columns, order, saved values and membership match the oracle", arguments: [8, 64, 200])
    func matchesTheOracle(columnCount: Int) {
        var random = ReliabilityRandom(seed: UInt64(columnCount))
        for round in 0..<200 {
            var made: ChangeRecord?
            var order: [Int] = []
            var saved: [Int: SQLValue] = [:]
            for step in 0..<1 + Int(random.next() % 12) {
                let column = Int(random.next() % UInt64(columnCount))
                let value = SQLValue.text("round \(round) step \(step)")
                let wasMade = made.record(column: column, savedValue: value)
                #expect(wasMade == (step == 0), "made at the first change only")
                if saved[column] == nil {
                    saved[column] = value
                    order.append(column)
                }
            }
            guard let record = made else {
                Issue.record("no record after a change")
                continue
            }
            #expect((record is WideChangeRecord) == (order.count > 1), "wide exactly when more than one column changed")
            #expect(record.order == order.map(Int32.init))
            #expect(record.savedValues == order.map { saved[$0]! })
            #expect(record.columns == PositionSet(order))
            #expect(record.changedColumnsAre(PositionSet(order)))
            for column in 0..<columnCount {
                #expect(record.contains(column) == (saved[column] != nil))
                #expect(record.savedValue(of: column) == saved[column])
            }
            // A set with one column more or less is not the record's.
            let other = Int(random.next() % UInt64(columnCount))
            var changed = PositionSet(order)
            if saved[other] == nil { changed.insert(other) } else { changed.remove(other) }
            #expect(!record.changedColumnsAre(changed))
        }
    }

    @Test("A one-column record compares with sets without making one, past 64 columns too")
    func oneColumn() {
        for column in [0, 5, 63, 64, 130] {
            var made: ChangeRecord?
            made.record(column: column, savedValue: .integer(1))
            made.record(column: column, savedValue: .integer(2))
            guard let record = made else {
                Issue.record("no record after a change")
                continue
            }
            #expect(!(record is WideChangeRecord))
            #expect(record.savedValue(of: column) == .integer(1))
            #expect(record.savedValue(of: column + 1) == nil)
            #expect(record.order == [Int32(column)] && record.savedValues == [.integer(1)])
            #expect(record.changedColumnsAre(PositionSet([column])))
            #expect(!record.changedColumnsAre(PositionSet([column, column + 1])))
            #expect(!record.changedColumnsAre(PositionSet()))
            #expect(!record.changedColumnsAre(PositionSet([column + 1])))
        }
    }
}
