/// The saved models a context holds for one hierarchy, by row key: the identity map behind "one
/// instance per row per context" (`ModelContext.registered`, one per hierarchy).
///
/// An open-addressing table with linear probing, written for the fetch path: a key's bucket is
/// found by Fibonacci hashing (one multiplication, where `Dictionary` runs SipHash with a
/// per-instance seed), a slot holds the key and the model together (one cache line per probe), the
/// table grows by doubling at 80 % load (a `Dictionary` reserved for 200,000 models takes 524,288
/// buckets, this one 262,144), and removal shifts the entries after it back (no tombstones, so
/// lookups never slow down with churn, as enumerate's batches cause). Fibonacci hashing spreads
/// any run of keys (consecutive, or strided as rows deleted in a pattern leave them) over the
/// table, so no pattern of row keys makes probe sequences long.
///
/// Measured by `modelstore-bench` (docs/Benchmarks.md, design choices): fetch all of 200,000 rows
/// spent 8–24 ms of about 150 building the `Dictionary`, and 8 MB of its peak memory; with this
/// table its peak memory went from 49.1 to 45.0 MB.
struct IdentityMap {
    struct Slot {
        var key: Int64
        var object: ModelObject?
    }

    /// The buckets (a power of two of them, or none); an empty bucket's `object` is nil.
    private var slots: ContiguousArray<Slot> = []
    /// `64 - log2(slots.count)`: the hash's top bits are the bucket.
    private var shift: UInt64 = 64
    /// The number of models held.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The models held, in no particular order.
    var values: [ModelObject] { slots.compactMap(\.object) }

    /// The model of row `key`; setting nil removes it.
    subscript(key: Int64) -> ModelObject? {
        get {
            guard let bucket = find(key) else { return nil }
            return slots[bucket].object
        }
        set {
            if let newValue { insert(newValue, for: key) } else { remove(key) }
        }
    }

    /// Makes room for `capacity` models without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        let needed = FibonacciBuckets.bucketCount(for: capacity)
        if needed > slots.count { resize(to: needed) }
    }

    /// Adds `objects`, saved models (a fresh fetch's, a save's inserted ones), after making room
    /// for them once: one retain per model, where the subscript's setter retained and released
    /// each twice more. A model whose row the map holds takes its place (the last of `objects` for
    /// a row, as setting the subscript in order would leave).
    mutating func insertNew(_ objects: [ModelObject]) {
        reserveCapacity(count + objects.count)
        let mask = slots.count - 1
        let shift = self.shift
        var added = 0
        slots.withUnsafeMutableBufferPointer { buffer in
            for object in objects {
                guard let key = object.rowID else { continue }
                var bucket = FibonacciBuckets.home(of: key, shift: shift)
                var replaced = false
                while buffer[bucket].object != nil {
                    if buffer[bucket].key == key {
                        buffer[bucket].object = object
                        replaced = true
                        break
                    }
                    bucket = (bucket + 1) & mask
                }
                if !replaced {
                    buffer[bucket] = Slot(key: key, object: object)
                    added += 1
                }
            }
        }
        count += added
    }

    /// What `releaseIfUnreferenced` did.
    enum Release { case released, held, kept }

    /// Removes row `key`'s model if it is saved, unchanged and referenced by the map alone (one
    /// lookup: the slot is checked in place); `.held` when something else references it, `.kept`
    /// when it has changes or is not saved (or is not here).
    mutating func releaseIfUnreferenced(_ key: Int64) -> Release {
        var held: [Int64] = []
        if releaseUnreferenced([key], held: &held) { return .released }
        return held.isEmpty ? .kept : .held
    }

    /// `releaseIfUnreferenced` of each of `keys`, in one access to the table (a batch's release:
    /// checked per key, the table's storage was checked for uniqueness and bounds at each slot it
    /// read or wrote); the keys of the models something else references are appended to `held`.
    /// Whether it released any. A released model goes once the table is whole again.
    mutating func releaseUnreferenced(_ keys: [Int64], held: inout [Int64]) -> Bool {
        var dropped: [ModelObject]? = nil
        return releaseUnreferenced(keys, held: &held, keeping: &dropped)
    }

    /// `releaseUnreferenced(_:held:)`, the released models appended to `kept` (when not nil)
    /// instead of let go of here: unregistered, and then deallocated when `kept` lets go of them.
    mutating func releaseUnreferenced(_ keys: [Int64], held: inout [Int64], keeping kept: inout [ModelObject]?) -> Bool {
        guard count > 0 else { return false }
        let shift = self.shift
        var removed = 0
        slots.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let mask = buffer.count - 1
            for key in keys {
                var bucket = FibonacciBuckets.home(of: key, shift: shift)
                while base[bucket].object != nil && base[bucket].key != key { bucket = (bucket + 1) & mask }
                let slot = base + bucket
                guard Self.isReleasable(slot) else { continue }
                guard isKnownUniquelyReferenced(&slot.pointee.object) else {
                    held.append(key)
                    continue
                }
                // Moved out of the slot and into `kept`: no retain and release of the model on the way.
                let released = slot.pointee.object.take().unsafelyUnwrapped
                Self.closeHole(at: bucket, in: base, mask: mask, shift: shift)
                removed += 1
                if kept == nil { _ = consume released } else { kept!.append(consume released) }
            }
        }
        count -= removed
        return removed > 0
    }

    /// Whether the model in `slot` (if any) is saved, unchanged and without relationship changes.
    @inline(__always) private static func isReleasable(_ slot: UnsafeMutablePointer<Slot>) -> Bool {
        guard let object = slot.pointee.object else { return false }
        return object.status == .persisted && !object.isDirty && !object.relationshipsChanged
    }

    /// Moves back each entry after the emptied `bucket` that may no longer be reached from its home
    /// bucket across the hole (backward-shift deletion), on the table's storage: each entry moves
    /// without a retain or a release.
    private static func closeHole(at bucket: Int, in base: UnsafeMutablePointer<Slot>, mask: Int, shift: UInt64) {
        var hole = bucket
        var next = (bucket + 1) & mask
        while base[next].object != nil {
            let home = FibonacciBuckets.home(of: base[next].key, shift: shift)
            // The entry stays unless its home is cyclically outside (hole, next].
            if (hole - home) & mask < (next - home) & mask {
                // The hole holds no model: overwriting it destroys nothing.
                (base + hole).moveInitialize(from: base + next, count: 1)
                (base + next).initialize(to: Slot(key: 0, object: nil))
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    // MARK: Table

    @inline(__always) private func home(of key: Int64) -> Int {
        FibonacciBuckets.home(of: key, shift: shift)
    }

    /// The bucket holding `key`, if any.
    private func find(_ key: Int64) -> Int? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var bucket = home(of: key)
        while true {
            let slot = slots[bucket]
            guard slot.object != nil else { return nil }
            if slot.key == key { return bucket }
            bucket = (bucket + 1) & mask
        }
    }

    private mutating func insert(_ object: ModelObject, for key: Int64) {
        if FibonacciBuckets.isFull(count: count, bucketCount: slots.count) { resize(to: Swift.max(FibonacciBuckets.bucketCount(for: count + 1), slots.count * 2)) }
        let mask = slots.count - 1
        var bucket = home(of: key)
        while slots[bucket].object != nil {
            if slots[bucket].key == key {
                slots[bucket].object = object
                return
            }
            bucket = (bucket + 1) & mask
        }
        slots[bucket] = Slot(key: key, object: object)
        count += 1
    }

    private mutating func remove(_ key: Int64) {
        if let bucket = find(key) { removeBucket(bucket) }
    }

    /// Empties `bucket`, then moves back each following entry that may no longer be reached from
    /// its home bucket across the hole (backward-shift deletion, `closeHole`).
    private mutating func removeBucket(_ bucket: Int) {
        let shift = self.shift
        var removed: ModelObject?
        slots.withUnsafeMutableBufferPointer { buffer in
            swap(&removed, &buffer[bucket].object)
            Self.closeHole(at: bucket, in: buffer.baseAddress!, mask: buffer.count - 1, shift: shift)
        }
        count -= 1
    }

    private mutating func resize(to bucketCount: Int) {
        let old = slots
        // Zeroed memory is a table of empty buckets (key 0, no model: a nil reference is zero);
        // `ContiguousArray(repeating:count:)` retained the empty slot's nil once per bucket.
        slots = ContiguousArray(unsafeUninitializedCapacity: bucketCount) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, repeating: 0)
            initialized = bucketCount
        }
        shift = FibonacciBuckets.shift(forBucketCount: bucketCount)
        count = 0
        let mask = bucketCount - 1
        for slot in old {
            guard let object = slot.object else { continue }
            var bucket = home(of: slot.key)
            while slots[bucket].object != nil { bucket = (bucket + 1) & mask }
            slots[bucket] = Slot(key: slot.key, object: object)
            count += 1
        }
    }
}
