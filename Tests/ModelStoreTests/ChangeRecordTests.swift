import Testing
@testable import ModelStore

/// `ChangeRecord` (a model's changed columns and their saved values, a chain of entries in its
/// context's `ChangeLog`, no set of columns kept beside the list) against a plain oracle: the first
/// saved value of each column, in first-change order, per model, with the changes of several
/// models interleaved in one log.
@Suite("Change record")
struct ChangeRecordTests {
    @Test("Random interleaved changes: columns, order, saved values and membership match the oracle", arguments: [8, 64, 200])
    func matchesTheOracle(columnCount: Int) {
        var random = ReliabilityRandom(seed: UInt64(columnCount))
        let log = ChangeLog()
        for round in 0..<200 {
            let models = (0..<1 + Int(random.next() % 4)).map { _ in ModelObject() }
            var order = [[Int]](repeating: [], count: models.count)
            var saved = [[Int: SQLValue]](repeating: [:], count: models.count)
            for step in 0..<1 + Int(random.next() % 24) {
                let which = Int(random.next() % UInt64(models.count))
                let column = Int(random.next() % UInt64(columnCount))
                let value = SQLValue.text("round \(round) step \(step)")
                let wasMade = log.record(models[which], column: column, savedValue: value)
                #expect(wasMade == order[which].isEmpty, "made at the model's first change only")
                if saved[which][column] == nil {
                    saved[which][column] = value
                    order[which].append(column)
                }
            }
            for (which, model) in models.enumerated() {
                guard let record = log.record(of: model) else {
                    #expect(order[which].isEmpty, "no record after a change")
                    continue
                }
                #expect((record.firstColumn >= 0) == (order[which].count == 1), "one column exactly when one column changed")
                #expect(record.order == order[which].map(Int32.init))
                #expect(record.savedValues == order[which].map { saved[which][$0]! })
                #expect(record.columns == PositionSet(order[which]))
                #expect(record.changedColumnsAre(PositionSet(order[which])))
                for column in 0..<columnCount {
                    #expect(record.contains(column) == (saved[which][column] != nil))
                    #expect(record.savedValue(of: column) == saved[which][column])
                }
                // A set with one column more or less is not the record's.
                let other = Int(random.next() % UInt64(columnCount))
                var changed = PositionSet(order[which])
                if saved[which][other] == nil { changed.insert(other) } else { changed.remove(other) }
                #expect(!record.changedColumnsAre(changed))
            }
            // A save or a rollback empties the log after clearing its models' entries; every few
            // rounds the log is kept, so records of later rounds start past earlier ones.
            if round % 3 == 0 {
                for model in models { model.changeEntry = 0 }
                log.removeAll()
            }
        }
    }

    @Test("A one-column record compares with sets without making one, past 64 columns too")
    func oneColumn() {
        let log = ChangeLog()
        for column in [0, 5, 63, 64, 130] {
            let model = ModelObject()
            log.record(model, column: column, savedValue: .integer(1))
            log.record(model, column: column, savedValue: .integer(2))
            guard let record = log.record(of: model) else {
                Issue.record("no record after a change")
                continue
            }
            #expect(record.firstColumn == Int32(column))
            #expect(record.savedValue(of: column) == .integer(1))
            #expect(record.savedValue(of: column + 1) == nil)
            #expect(record.order == [Int32(column)] && record.savedValues == [.integer(1)])
            #expect(record.changedColumnsAre(PositionSet([column])))
            #expect(!record.changedColumnsAre(PositionSet([column, column + 1])))
            #expect(!record.changedColumnsAre(PositionSet()))
            #expect(!record.changedColumnsAre(PositionSet([column + 1])))
        }
    }

    @Test("An entry index from before the log was emptied finds no record, never another model's")
    func staleEntriesFindNothing() {
        let log = ChangeLog()
        let kept = ModelObject(), other = ModelObject()
        log.record(kept, column: 1, savedValue: .integer(1))
        // `kept` keeps its index (as a model left out of the context's lists would) over the reset.
        log.removeAll()
        #expect(log.record(of: kept) == nil, "past the end of the emptied log")
        log.record(other, column: 2, savedValue: .integer(2))
        #expect(kept.changeEntry == other.changeEntry, "both name the log's first entry")
        #expect(log.record(of: kept) == nil, "the entry is another model's")
        #expect(log.record(of: other)?.savedValue(of: 2) == .integer(2))
        // Its next change makes it a record of its own.
        #expect(log.record(kept, column: 3, savedValue: .integer(3)))
        #expect(log.record(of: kept)?.order == [3] && log.record(of: other)?.order == [2])
    }
}

