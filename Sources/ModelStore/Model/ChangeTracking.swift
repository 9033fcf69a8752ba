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
/// A view of the model's entries in its context's `ChangeLog` (`ModelContext.changeLog`): valid
/// while the log is not emptied, which a save or a rollback does once it has no use for them.
struct ChangeRecord {
    /// The log, unretained and read through `entry(_:)`: an `unowned(unsafe)` reference was
    /// retained and released around each call on it (docs/Benchmarks.md, "Writes").
    let unretainedLog: Unmanaged<ChangeLog>
    /// The record's first entry in the log.
    let head: Int

    init(log: ChangeLog, head: Int) {
        unretainedLog = .passUnretained(log)
        self.head = head
    }

    /// The log's entry at `index`.
    @inline(__always) private func entry(_ index: Int) -> UnsafeMutablePointer<ChangeLog.Entry> {
        unretainedLog._withUnsafeGuaranteedRef { $0.entry(index) }
    }

    /// The changed column of a one-column record; -1 when more than one column changed.
    var firstColumn: Int32 {
        let first = entry(head)
        return first.pointee.next < 0 ? first.pointee.column : -1
    }

    /// Calls `body` with each entry of the record, in the order of their first change.
    @inline(__always) private func forEachEntry(_ body: (ChangeLog.Entry) -> Void) {
        var index = head
        while true {
            let current = entry(index)
            body(current.pointee)
            let next = current.pointee.next
            if next < 0 { return }
            index = Int(next)
        }
    }

    /// The changed columns.
    var columns: PositionSet {
        var set = PositionSet()
        forEachEntry { set.insert(Int($0.column)) }
        return set
    }
    /// The changed columns in the order of their first change.
    var order: [Int32] {
        var order: [Int32] = []
        forEachEntry { order.append($0.column) }
        return order
    }
    /// The value each changed column held before its first change, as stored (parallel to `order`).
    var savedValues: [SQLValue] {
        var values: [SQLValue] = []
        forEachEntry { values.append($0.value) }
        return values
    }

    /// Whether the saved value of a one-column record is the value at `position` of `encoder`
    /// (values mode), both compared where they are kept.
    @inline(__always) func firstSavedValueIs(valueAt position: Int, of encoder: RowEncoder) -> Bool {
        let saved = UnsafeRawPointer(entry(head)) + ChangeLog.Entry.valueOffset
        return encoder.value(at: position, is: saved.assumingMemoryBound(to: SQLValue.self))
    }

    /// Whether the changed columns are exactly `columns` (a one-column record without making a set).
    func changedColumnsAre(_ columns: PositionSet) -> Bool {
        let only = firstColumn
        guard only < 0 else { return columns.isExactly(Int(only)) }
        return self.columns == columns
    }

    /// Whether `column` changed.
    func contains(_ column: Int) -> Bool {
        entry(of: column) != nil
    }

    /// The saved value of `column`, if it changed.
    func savedValue(of column: Int) -> SQLValue? {
        entry(of: column)?.pointee.value
    }

    /// The entry of `column`, if it changed.
    @inline(__always) private func entry(of column: Int) -> UnsafeMutablePointer<ChangeLog.Entry>? {
        let column = Int32(column)
        var index = head
        while true {
            let current = entry(index)
            if current.pointee.column == column { return current }
            let next = current.pointee.next
            if next < 0 { return nil }
            index = Int(next)
        }
    }
}

/// The change records of one context's models, in one list of entries: a model's record is a
/// chain of entries (`ModelObject.changeEntry` names its first), one per changed column, in the
/// order of their first change. One list for all, where a record was an object of its own per
/// changed model: making and freeing one was about 580 instructions of a one-column update's
/// 2,300 (docs/Benchmarks.md, "Writes"). The entries are kept in chunks of `chunkSize`, never
/// moved: a list grown by doubling copied them and, while it grew, held the old and the new
/// storage (more memory at its peak than an object per record). A save empties the list once its
/// changes are written, a rollback once it restored them, and a throwing transaction's undo keeps
/// only the records of the models it leaves changed; entries a model dropped between (an upsert's
/// displaced model) wait for that.
///
/// An entry names its model: a model's `changeEntry` from before the list was emptied (a model
/// left out of the context's lists by a bug) then finds no record, never another model's. Used on
/// its context's thread only: not checked for exclusive access at run time.
final class ChangeLog {
    struct Entry {
        /// The model whose record it belongs to.
        let owner: ObjectIdentifier
        /// The changed column.
        let column: Int32
        /// The record's next entry; -1 at its last.
        var next: Int32
        /// The column's saved value.
        let value: SQLValue

        /// Where `value` is in an entry.
        static let valueOffset = MemoryLayout<Entry>.offset(of: \Entry.value)!
    }

    /// Entries a chunk holds (40 bytes each: 10 KB a chunk).
    static let chunkSize = 256
    private static let chunkShift = chunkSize.trailingZeroBitCount

    @exclusivity(unchecked) private var chunks: [UnsafeMutablePointer<Entry>] = []
    /// How many entries the chunks hold.
    @exclusivity(unchecked) private(set) var count = 0

    deinit { removeAll() }

    /// The entry at `index` (below `count`).
    @inline(__always) func entry(_ index: Int) -> UnsafeMutablePointer<Entry> {
        chunks[index >> Self.chunkShift] + (index & (Self.chunkSize - 1))
    }

    /// Appends `entry`; returns its index.
    @inline(__always) private func append(_ entry: Entry) -> Int {
        let index = count
        if index & (Self.chunkSize - 1) == 0 { chunks.append(.allocate(capacity: Self.chunkSize)) }
        self.entry(index).initialize(to: entry)
        count = index + 1
        return index
    }

    /// The change record of `object`; nil when its row is unchanged.
    @inline(__always) func record(of object: ModelObject) -> ChangeRecord? {
        let head = Int(object.changeEntry) - 1
        guard head >= 0, head < count, entry(head).pointee.owner == ObjectIdentifier(object) else { return nil }
        return ChangeRecord(log: self, head: head)
    }

    /// Records `value` as the saved value of `column` of `object`, unless the column is already
    /// changed; returns whether the model's record was made (its first change).
    @discardableResult func record(_ object: ModelObject, column: Int, savedValue value: @autoclosure () -> SQLValue) -> Bool {
        guard let record = record(of: object) else {
            makeRecord(of: object, column: column, savedValue: value())
            return true
        }
        add(column, savedValue: value(), to: record)
        return false
    }

    /// Makes the record of `object`, which has none, with its first changed column.
    @inline(__always) func makeRecord(of object: ModelObject, column: Int, savedValue value: SQLValue) {
        let index = append(Entry(owner: ObjectIdentifier(object), column: Int32(column), next: -1, value: value))
        object.changeEntry = Int32(index + 1)
    }

    /// Adds `column` to `record` with its saved value, unless the column is already changed.
    func add(_ column: Int, savedValue value: @autoclosure () -> SQLValue, to record: ChangeRecord) {
        let column = Int32(column)
        var last = entry(record.head)
        while true {
            if last.pointee.column == column { return }
            let next = last.pointee.next
            if next < 0 { break }
            last = entry(Int(next))
        }
        let index = append(Entry(owner: last.pointee.owner, column: column, next: -1, value: value()))
        last.pointee.next = Int32(index)
    }

    /// Keeps the records of `models` alone, in a new list, and forgets every other entry: a throwing
    /// transaction's undo records its models' changes again, and the entries they had would
    /// otherwise stay until the next save or rollback, one set more per undone transaction.
    func compact(keeping models: [ModelObject]) {
        let kept = models.compactMap { model in record(of: model).map { (model, $0.order, $0.savedValues) } }
        removeAll()
        for (model, order, values) in kept {
            model.changeEntry = 0
            for (column, value) in zip(order, values) { record(model, column: Int(column), savedValue: value) }
        }
    }

    /// Forgets every record (their models' `changeEntry` are cleared by the caller) and gives the
    /// memory back.
    func removeAll() {
        for (number, chunk) in chunks.enumerated() {
            chunk.deinitialize(count: min(Self.chunkSize, count - number * Self.chunkSize))
            chunk.deallocate()
        }
        chunks = []
        count = 0
    }
}
