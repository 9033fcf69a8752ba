/// What a hand-written update tells of each object it is about to rename. The update loops are
/// generic over it, so the plain updates (`NoChangeTracking`) compile to the loop they were before
/// the tracked one existed: with a test of a flag in the loop instead, the plain loop retained and
/// released each row's strings, about 170 instructions a row more on both stores.
protocol ChangeTracker {
    mutating func willRename(_ object: PlainTrip, at position: Int)
}

/// The plain updates' tracker: keeps nothing.
struct NoChangeTracking: ChangeTracker {
    @inline(__always) mutating func willRename(_ object: PlainTrip, at position: Int) {}
}

/// What a client keeping SwiftData's change-tracking semantics does for each object it renames,
/// for the tracked update baseline (`Workload.updateNamesTracked`), written as cheaply as plain
/// Swift allows: at an object's first change, its saved value into an undo log (what `rollback()`
/// restores), the object into the list of changed objects (what `hasChanges` and the save read)
/// and marked as listed; after the commit, `didSave`'s identifiers (24 bytes each, as a
/// `PersistentIdentifier`), then the marks cleared and the log and the list emptied. Its lists
/// start empty at each workload (`track(count:)`), as the generated side's context, new for the
/// workload, starts: kept from one repetition to the next, they would take no new memory in the
/// timed part, where the new context's lists do. It binds and sends nothing: the write is the
/// plain update's.
struct ChangeTracking: ChangeTracker {
    /// A saved value kept for `rollback()`: the object, the changed column, the value.
    struct SavedValue {
        let owner: ObjectIdentifier
        let column: Int32
        let value: String
    }

    /// An identifier as `didSave` carries it: the entity, the row, the store.
    struct Identifier {
        let entity: ObjectIdentifier
        let rowID: Int64
        let store: Int
    }

    /// A changed object and its position in the workload's objects (where its mark is).
    private struct Changed {
        let object: PlainTrip
        let position: Int
    }

    private var undo: [SavedValue] = []
    private var changed: [Changed] = []
    /// Whether the object at a position of the workload's objects is in `changed`: the mark a
    /// model keeps in itself, kept here beside the objects so that `PlainTrip` stays the size the
    /// other workloads read.
    private var listed: [Bool] = []
    private var saved: [Identifier] = []

    /// Starts over with empty lists, and room for the marks of `count` objects (untimed, with the
    /// objects' read).
    mutating func track(count: Int) {
        self = ChangeTracking()
        listed = Array(repeating: false, count: count)
    }

    /// At the first change of `object` (at `position` of the workload's objects) since the last
    /// save, keeps its saved name and the object.
    mutating func willRename(_ object: PlainTrip, at position: Int) {
        guard !listed[position] else { return }
        undo.append(SavedValue(owner: ObjectIdentifier(object), column: 0, value: object.name))
        changed.append(Changed(object: object, position: position))
        listed[position] = true
    }

    /// After the commit of `renamed` renames: `didSave`'s identifiers of the changed objects, then
    /// the marks cleared and the lists emptied.
    ///
    /// - Throws: `HandSQLiteError` when the changed list did not hold every renamed object.
    mutating func didSave(renamed: Int) throws {
        for entry in changed {
            saved.append(Identifier(entity: ObjectIdentifier(type(of: entry.object)), rowID: entry.object.rowID, store: 0))
            listed[entry.position] = false
        }
        let count = saved.count
        undo.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
        saved.removeAll(keepingCapacity: true)
        guard count == renamed else { throw HandSQLiteError(message: "tracked \(count) of \(renamed) renamed trips") }
    }
}
