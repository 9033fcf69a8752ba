/// A connection's statements by the ids of `StoreConnection.readStatement(_:id:)`. Ids are small and
/// dense (a container's cache hands them out from 1: `FastCacheEntry.statementID`), so the first
/// ones are found by index, without hashing (hashing the id in a dictionary cost about 0.5 k
/// instructions a lookup: docs/Benchmarks.md, "Lookups"); ids past `indexed` (a cache that started
/// over many times) go in a dictionary.
struct StatementsByID<Statement: AnyObject> {
    /// Ids below this are kept by index.
    static var indexed: Int { 4096 }

    private var byIndex: [Statement?] = []
    private var others: [Int: Statement] = [:]

    subscript(id: Int) -> Statement? {
        get {
            if id >= 0 && id < byIndex.count { return byIndex[id] }
            return id >= Self.indexed || id < 0 ? others[id] : nil
        }
        set {
            guard id >= 0 && id < Self.indexed else {
                others[id] = newValue
                return
            }
            if id >= byIndex.count { byIndex.append(contentsOf: repeatElement(nil, count: id + 1 - byIndex.count)) }
            byIndex[id] = newValue
        }
    }

    /// The statement kept for `id`, after `reset`; else the one `make` makes, kept for `id`.
    @inline(__always)
    mutating func statement(_ id: Int, reset: (Statement) -> Void, make: () throws -> Statement) rethrows -> Statement {
        if let kept = self[id] {
            reset(kept)
            return kept
        }
        let made = try make()
        self[id] = made
        return made
    }

    mutating func removeAll() {
        byIndex.removeAll()
        others.removeAll()
    }
}
