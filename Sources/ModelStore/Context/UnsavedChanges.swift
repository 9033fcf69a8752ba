/// A context's unsaved changes, in one place: what `save()` writes, `rollback()` drops, a
/// throwing `transaction(block:)` puts back and pending fetches judge (docs/Architecture.md,
/// "A context's unsaved changes"). Everything that changes them goes through the methods below;
/// the rest of the runtime reads them.
///
/// Invariants (`checkInvariants()`, run in debug builds after every change of a whole set —
/// a save, a rollback, a transaction's undo — and by the tests that drive a context at random):
/// - `inserted` holds each model once, every one `.inserted`;
/// - `deleted` holds each model once, every one `.deleted`, none of them in `inserted`;
/// - `dirty` holds each model once, every one saved (`.persisted` or `.deleted`) with a change record;
/// - `touched` holds saved models (`.persisted` or `.deleted`) whose to-one keys or lists changed;
/// - `linkOrder` holds each key of `linkChanges` once, in the order they were first changed.
struct UnsavedChanges {
    /// Models inserted since the last save, in insertion order.
    private(set) var inserted: [ModelObject] = []
    /// Saved models deleted since the last save, in deletion order.
    private(set) var deleted: [ModelObject] = []
    /// Saved models whose row changed since the last save (each has a `ChangeRecord`), in the
    /// order of their first change.
    private(set) var dirty: [ModelObject] = []
    /// Saved models whose in-memory relationships (to-one keys, lists) changed since the last save.
    private(set) var touched: [ObjectIdentifier: ModelObject] = [:]
    /// Join-table rows to add (true) or remove (false) at the next save, and their order.
    private(set) var linkChanges: [LinkKey: LinkChange] = [:]
    private(set) var linkOrder: [LinkKey] = []

    /// Whether nothing is pending at all.
    var isEmpty: Bool {
        inserted.isEmpty && deleted.isEmpty && dirty.isEmpty && touched.isEmpty && linkChanges.isEmpty
    }

    /// A model now `.inserted`.
    mutating func noteInserted(_ object: ModelObject) {
        inserted.append(object)
    }

    /// An inserted model deleted before any save: it is forgotten.
    mutating func forgetInserted(_ object: ModelObject) {
        inserted.removeAll { $0 === object }
    }

    /// A saved model now `.deleted`.
    mutating func noteDeleted(_ object: ModelObject) {
        deleted.append(object)
    }

    /// A deleted model inserted again: it is `.persisted` once more.
    mutating func noteUndeleted(_ object: ModelObject) {
        deleted.removeAll { $0 === object }
    }

    /// A saved model's first change since the last save (its change record was just made).
    mutating func noteChanged(_ object: ModelObject) {
        dirty.append(object)
    }

    /// A saved model whose relationships changed in memory.
    mutating func noteTouched(_ object: ModelObject) {
        touched[ObjectIdentifier(object)] = object
    }

    /// A join-table row to add (`linked`) or remove. A pair's changes are recorded only when its
    /// membership changes in memory, so its first change tells how it is stored: the opposite
    /// change puts it back as stored, and nothing is left to write (a link added and removed
    /// before a save never names a stored row, which a model sharing that row after an upsert
    /// may hold).
    mutating func noteLink(_ key: LinkKey, _ change: LinkChange) {
        if let recorded = linkChanges[key] {
            if recorded.linked != change.linked {
                linkChanges[key] = nil
                linkOrder.removeAll { $0 == key }
            }
            return
        }
        linkChanges[key] = change
        linkOrder.append(key)
    }

    /// Everything is saved or dropped.
    mutating func removeAll() {
        self = UnsavedChanges()
    }

    /// Checks the invariants stated on the type (in debug builds; nothing in release builds).
    func checkInvariants(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
            if !condition() { assertionFailure("UnsavedChanges: " + message(), file: file, line: line) }
        }
        var seen: Set<ObjectIdentifier> = []
        for object in inserted {
            check(seen.insert(ObjectIdentifier(object)).inserted, "a model is inserted twice")
            check(object.status == .inserted, "an inserted model is \(object.status)")
        }
        var deletedSeen: Set<ObjectIdentifier> = []
        for object in deleted {
            check(deletedSeen.insert(ObjectIdentifier(object)).inserted, "a model is deleted twice")
            check(!seen.contains(ObjectIdentifier(object)), "a model is inserted and deleted")
            check(object.status == .deleted, "a deleted model is \(object.status)")
        }
        var dirtySeen: Set<ObjectIdentifier> = []
        for object in dirty {
            check(dirtySeen.insert(ObjectIdentifier(object)).inserted, "a model is changed twice")
            check(object.status == .persisted || object.status == .deleted, "a changed model is \(object.status)")
            check(object.changes != nil, "a changed model has no change record")
        }
        for object in touched.values {
            check(object.status == .persisted || object.status == .deleted, "a relinked model is \(object.status)")
        }
        check(linkOrder.count == linkChanges.count && Set(linkOrder) == Set(linkChanges.keys), "link order and link changes differ")
        #endif
    }
}
