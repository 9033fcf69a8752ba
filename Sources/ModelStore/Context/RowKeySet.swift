/// A set of row keys, as a save's deletions keep per hierarchy (`Deletions`): an open-addressing
/// table with linear probing whose buckets are `FibonacciBuckets`, as `IdentityMap`'s (one
/// multiplication a key, where `Set<Int64>` runs SipHash: an insert took about 195 instructions
/// against 67, one insert per model or row a cascade deletes). Keys are only added, never removed.
struct RowKeySet {
    /// The buckets (a power of two of them, or none); an empty one holds `empty`.
    private var slots: [Int64] = []
    /// `64 - log2(slots.count)`: the hash's top bits are the bucket.
    private var shift: UInt64 = 64
    /// Whether the set holds `empty` itself, which no bucket can.
    private var holdsEmpty = false
    /// The number of keys held.
    private(set) var count = 0

    /// An empty bucket's value.
    private static let empty = Int64.min

    var isEmpty: Bool { count == 0 }

    /// Makes room for `capacity` keys without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        let needed = FibonacciBuckets.bucketCount(for: capacity)
        if needed > slots.count { resize(to: needed) }
    }

    /// Adds `key`; false when the set held it already.
    @discardableResult
    mutating func insert(_ key: Int64) -> Bool {
        if key == Self.empty {
            guard !holdsEmpty else { return false }
            holdsEmpty = true
            count += 1
            return true
        }
        if FibonacciBuckets.isFull(count: count, bucketCount: slots.count) { resize(to: Swift.max(FibonacciBuckets.bucketCount(for: count + 1), slots.count * 2)) }
        let mask = slots.count - 1
        var bucket = home(of: key)
        while true {
            let held = slots[bucket]
            if held == key { return false }
            if held == Self.empty { break }
            bucket = (bucket + 1) & mask
        }
        slots[bucket] = key
        count += 1
        return true
    }

    func contains(_ key: Int64) -> Bool {
        if key == Self.empty { return holdsEmpty }
        guard !slots.isEmpty else { return false }
        let mask = slots.count - 1
        var bucket = home(of: key)
        while true {
            let held = slots[bucket]
            if held == key { return true }
            if held == Self.empty { return false }
            bucket = (bucket + 1) & mask
        }
    }

    /// The keys, in no particular order.
    var keys: Set<Int64> {
        var result = Set(slots.lazy.filter { $0 != Self.empty })
        if holdsEmpty { result.insert(Self.empty) }
        return result
    }

    @inline(__always) private func home(of key: Int64) -> Int {
        FibonacciBuckets.home(of: key, shift: shift)
    }

    private mutating func resize(to bucketCount: Int) {
        let old = slots
        slots = [Int64](repeating: Self.empty, count: bucketCount)
        shift = FibonacciBuckets.shift(forBucketCount: bucketCount)
        let mask = bucketCount - 1
        for key in old where key != Self.empty {
            var bucket = home(of: key)
            while slots[bucket] != Self.empty { bucket = (bucket + 1) & mask }
            slots[bucket] = key
        }
    }
}
