extension ModelContext {
    /// Discards every unsaved insert, delete and change: saved models get their saved values
    /// back (relationships reload from the store on next access), inserted models leave the context.
    public func rollback() {
        guards.enter()
        defer { guards.leave() }
        for object in inserted {
            object.status = .detached
            object.home = nil
            object.rowID = nil
        }
        for object in deleted where object.status == .deleted {
            object.status = .persisted
        }
        for object in dirty {
            if let record = changeLog.record(of: object), let entity = object.entity { restore(object, entity: entity, from: record) }
            object.changeEntry = 0
        }
        changeLog.removeAll()
        for object in touched.values {
            object.relationshipsChanged = false
            for index in object.slots.indices {
                if case .objects = object.slot(index) { object.slots[index] = .unloaded }
            }
        }
        clearPendingLists()
        deferredError = nil
        unsaved.checkInvariants()
    }

    /// Empties the lists of unsaved inserts, deletes, changes and join-table changes.
    func clearPendingLists() {
        unsaved.removeAll()
    }

    /// Gives a changed saved model back the values its changed columns held when saved (the
    /// attributes through the generated `_decode`, which sets only those the decoder holds; the
    /// to-one keys as unresolved keys).
    func restore(_ object: ModelObject, entity: EntitySchema, from record: ChangeRecord) {
        var values = Array(repeating: SQLValue.null, count: entity.attributes.count)
        var positions = Array(repeating: Int32(-1), count: entity.storedAttributes.count)
        for (index, attribute) in entity.storedAttributes.enumerated() where record.contains(attribute.firstColumn) {
            positions[index] = Int32(attribute.firstColumn)
            for column in attribute.columns { values[column] = record.savedValue(of: column) ?? .null }
        }
        if positions.contains(where: { $0 >= 0 }) {
            try? RowReader(values: values, positions: positions, entityName: entity.name).withDecoder { try object._decode(from: $0) }
        }
        for (index, slot) in entity.keySlots.enumerated() where slot < object.slotCount {
            guard let saved = record.savedValue(of: entity.attributes.count + index) else { continue }
            if case .integer(let key) = saved { object.slots[slot] = .key(key) } else { object.slots[slot] = .key(nil) }
        }
    }
}
