extension ModelContext {
    /// Discards every unsaved insert, delete and change: saved models get their saved values
    /// back (relationships reload from the store on next access), inserted models leave the context.
    public func rollback() {
        guards.enter()
        defer { guards.leave() }
        for object in inserted {
            object.status = .detached
            object.link = nil
            object.entity = nil
            object.rowID = nil
        }
        for object in deleted where object.status == .deleted {
            object.status = .persisted
        }
        for object in dirty {
            guard let snapshot = object.snapshot, let entity = object.entity else { continue }
            let decoder = RowDecoder(values: snapshot, entityName: entity.name)
            try? object._decode(from: decoder)
            for (index, slot) in entity.keySlots.enumerated() where slot < object.slots.count {
                let position = entity.attributes.count + index
                if position < snapshot.count, case .integer(let key) = snapshot[position] {
                    object.slots[slot] = .key(key)
                } else {
                    object.slots[slot] = .key(nil)
                }
            }
            object.isDirty = false
            object.snapshot = nil
        }
        for object in touched.values {
            object.relationshipsChanged = false
            for index in object.slots.indices {
                if case .objects = object.slots[index] { object.slots[index] = .unloaded }
            }
        }
        clearPendingLists()
        deferredError = nil
    }

    /// Empties the lists of unsaved inserts, deletes, changes and join-table changes.
    func clearPendingLists() {
        inserted = []
        deleted = []
        dirty = []
        touched = [:]
        linkChanges = [:]
        linkOrder = []
    }
}
