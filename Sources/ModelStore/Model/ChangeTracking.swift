/// A set of small non-negative integers (value columns of a row, or attributes of a model):
/// the first 64 inline, more in words allocated only when needed. Hashable, so a set of changed
/// columns can key the cache of `UPDATE` statements.
@usableFromInline struct PositionSet: Hashable, Sendable {
    /// Positions 0..<64.
    @usableFromInline private(set) var low: UInt64 = 0
    /// Positions from 64 on, 64 per word (empty, and never allocated, for narrower rows).
    private(set) var high: [UInt64] = []

    @usableFromInline init() {}

    init(_ positions: some Sequence<Int>) {
        for position in positions { insert(position) }
    }

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    /// Whether the set holds `position` and nothing else.
    func isExactly(_ position: Int) -> Bool {
        if position < 64 { return low == 1 << UInt64(position) && high.allSatisfy { $0 == 0 } }
        return low == 0 && self == PositionSet([position])
    }

    @inlinable func contains(_ position: Int) -> Bool {
        if position < 64 { return low & (1 << UInt64(position)) != 0 }
        return containsHigh(position)
    }

    @usableFromInline func containsHigh(_ position: Int) -> Bool {
        let word = position / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(position % 64)) != 0
    }

    /// Inserts `position`; returns whether it was not there yet.
    @discardableResult mutating func insert(_ position: Int) -> Bool {
        if position < 64 {
            let bit: UInt64 = 1 << UInt64(position)
            if low & bit != 0 { return false }
            low |= bit
            return true
        }
        let word = position / 64 - 1
        if word >= high.count { high += repeatElement(0, count: word + 1 - high.count) }
        let bit: UInt64 = 1 << UInt64(position % 64)
        if high[word] & bit != 0 { return false }
        high[word] |= bit
        return true
    }

    mutating func remove(_ position: Int) {
        if position < 64 {
            low &= ~(1 << UInt64(position))
        } else if position / 64 - 1 < high.count {
            high[position / 64 - 1] &= ~(1 << UInt64(position % 64))
        }
    }

    /// The positions in increasing order.
    var sorted: [Int] {
        var result: [Int] = []
        var bits = low
        while bits != 0 {
            result.append(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
        for (index, word) in high.enumerated() {
            var bits = word
            while bits != 0 {
                result.append((index + 1) * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }

    @usableFromInline static func == (lhs: PositionSet, rhs: PositionSet) -> Bool {
        guard lhs.low == rhs.low else { return false }
        if lhs.high.isEmpty && rhs.high.isEmpty { return true }
        let count = max(lhs.high.count, rhs.high.count)
        for index in 0..<count where (index < lhs.high.count ? lhs.high[index] : 0) != (index < rhs.high.count ? rhs.high[index] : 0) {
            return false
        }
        return true
    }

    @usableFromInline func hash(into hasher: inout Hasher) {
        hasher.combine(low)
        // Trailing empty words do not change the set.
        var words = high
        while words.last == 0 { words.removeLast() }
        hasher.combine(words)
    }
}

/// What changed in a saved model since its last save (or fetch): the value columns whose stored
/// value is about to be written, each with the value the store held before the first change.
///
/// A row's value columns are numbered as `EntitySchema.attributes` (every stored attribute's
/// columns, the base's first, in declaration order; a struct attribute has one per field), then the
/// to-one key columns (`EntitySchema.keySlots`). `save()` writes only these columns, `rollback()`
/// restores only these values, and history compares only these.
///
/// Made by `Optional<ChangeRecord>.record(column:savedValue:)` at the first change. Most changes
/// touch one column: then the record is this class alone, 40 bytes with the object header
/// (glibc's 48-byte chunk; it was 56, a 64-byte chunk, with a pointer to the later columns in every
/// record: 16 bytes less a changed model, docs/Benchmarks.md, "Writes"). A record given a second
/// column is replaced by a `WideChangeRecord`, which keeps every column in a list.
///
/// Its fields are not checked for exclusive access at run time (as `ModelObject`'s bookkeeping):
/// a record belongs to its model's context, used by one thread at a time, and no code outside
/// these methods runs while one of them is being modified.
class ChangeRecord {
    /// The changed column's saved value (a one-column record; `.null` in a wide one).
    final let firstValue: SQLValue
    /// The changed column; -1 for a `WideChangeRecord`.
    final let firstColumn: Int32

    fileprivate init(column: Int32, value: SQLValue) {
        firstColumn = column
        firstValue = value
    }

    /// The wide record this is, if it is one.
    private final var wide: WideChangeRecord? {
        firstColumn < 0 ? unsafeDowncast(self, to: WideChangeRecord.self) : nil
    }

    /// The changed columns.
    final var columns: PositionSet {
        guard let wide else { return PositionSet([Int(firstColumn)]) }
        var set = PositionSet()
        for change in wide.changes { set.insert(Int(change.column)) }
        return set
    }
    /// The changed columns in the order of their first change.
    final var order: [Int32] { wide?.changes.map(\.column) ?? [firstColumn] }
    /// The value each changed column held before its first change, as stored (parallel to `order`).
    final var savedValues: [SQLValue] { wide?.changes.map(\.value) ?? [firstValue] }

    /// Whether the changed columns are exactly `columns` (a one-column record without making a set).
    final func changedColumnsAre(_ columns: PositionSet) -> Bool {
        guard wide != nil else { return columns.isExactly(Int(firstColumn)) }
        return self.columns == columns
    }

    /// Whether `column` changed.
    final func contains(_ column: Int) -> Bool {
        guard let wide else { return Int32(column) == firstColumn }
        return wide.changes.contains { $0.column == Int32(column) }
    }

    /// The saved value of `column`, if it changed.
    final func savedValue(of column: Int) -> SQLValue? {
        guard let wide else { return Int32(column) == firstColumn ? firstValue : nil }
        return wide.changes.first { $0.column == Int32(column) }?.value
    }
}

/// A change record of more than one column: each with its saved value, in the order of their
/// first change.
final class WideChangeRecord: ChangeRecord {
    @exclusivity(unchecked) fileprivate(set) var changes: [(column: Int32, value: SQLValue)]

    fileprivate init(_ changes: [(column: Int32, value: SQLValue)]) {
        self.changes = changes
        super.init(column: -1, value: .null)
    }
}

extension Optional where Wrapped == ChangeRecord {
    /// Records `value` as the saved value of `column`, unless the column is already changed: a
    /// missing record is made (then true), a one-column record given a second column is replaced
    /// by a wide one holding both.
    @discardableResult mutating func record(column: Int, savedValue value: @autoclosure () -> SQLValue) -> Bool {
        guard let record = self else {
            self = ChangeRecord(column: Int32(column), value: value())
            return true
        }
        if record.firstColumn >= 0 {
            guard Int32(column) != record.firstColumn else { return false }
            self = WideChangeRecord([(record.firstColumn, record.firstValue), (Int32(column), value())])
            return false
        }
        let wide = unsafeDowncast(record, to: WideChangeRecord.self)
        guard !wide.contains(column) else { return false }
        wide.changes.append((Int32(column), value()))
        return false
    }
}
