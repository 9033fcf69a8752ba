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
/// Its fields are not checked for exclusive access at run time (as `ModelObject`'s bookkeeping):
/// a record belongs to its model's context, used by one thread at a time, and no code outside
/// these methods runs while one of them is being modified.
final class ChangeRecord {
    // 56 bytes with the object header (glibc's 64-byte chunk): the set of changed columns is not
    // kept beside the list (it took 16 bytes a record, an 80-byte chunk); most records hold one
    // column, and the set is made from the list where a save needs it.

    /// The first changed column and the value it held before (most changes touch one column:
    /// then the record is this one allocation, no arrays). -1 while nothing is recorded.
    @exclusivity(unchecked) private var firstColumn: Int32 = -1
    @exclusivity(unchecked) private var firstValue: SQLValue = .null
    /// The columns changed after the first, in the order of their first change, with their saved
    /// values; nil for a one-column change (one pointer in the record, nothing to make or free).
    @exclusivity(unchecked) private var later: [(column: Int32, value: SQLValue)]?

    /// The changed columns.
    var columns: PositionSet {
        var set = PositionSet()
        if firstColumn >= 0 { set.insert(Int(firstColumn)) }
        for change in later ?? [] { set.insert(Int(change.column)) }
        return set
    }
    /// The one changed column; -1 when none or several changed.
    var onlyColumn: Int32 { later == nil ? firstColumn : -1 }
    /// The changed columns in the order of their first change.
    var order: [Int32] { firstColumn < 0 ? [] : [firstColumn] + (later ?? []).map(\.column) }
    /// The value each changed column held before its first change, as stored (parallel to `order`).
    var savedValues: [SQLValue] { firstColumn < 0 ? [] : [firstValue] + (later ?? []).map(\.value) }

    /// Records `value` as the saved value of `column`, unless the column is already changed.
    func record(column: Int, savedValue value: @autoclosure () -> SQLValue) {
        if firstColumn < 0 {
            firstColumn = Int32(column)
            firstValue = value()
            return
        }
        guard !contains(column) else { return }
        if later == nil { later = [] }
        later?.append((Int32(column), value()))
    }

    /// Whether the changed columns are exactly `columns` (a one-column record without making a set).
    func changedColumnsAre(_ columns: PositionSet) -> Bool {
        if later == nil && firstColumn >= 0 { return columns.isExactly(Int(firstColumn)) }
        return self.columns == columns
    }

    /// Whether `column` changed.
    func contains(_ column: Int) -> Bool {
        Int32(column) == firstColumn || (later?.contains { $0.column == Int32(column) } ?? false)
    }

    /// The saved value of `column`, if it changed.
    func savedValue(of column: Int) -> SQLValue? {
        if Int32(column) == firstColumn { return firstValue }
        return later?.first { $0.column == Int32(column) }?.value
    }
}
