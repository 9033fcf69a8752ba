extension ModelContext {
    /// Runs `block`, then saves everything pending (SwiftData's `transaction(block:)`). If `block`
    /// throws, only what it changed is undone: the unsaved changes made before the call stay
    /// pending, with the values they had (docs/Runtime.md, "Transactions"). When `block` itself
    /// saved, what it changed after its last save is undone (`rollback()`).
    ///
    /// - Throws: the block's error (after undoing its changes); `save()`'s errors.
    public func transaction(block: () throws -> Void) throws {
        guards.enter()
        defer { guards.leave() }
        let before = TransactionSnapshot(of: self)
        do {
            try block()
        } catch {
            if saveCount == before.saveCount {
                before.restore(into: self)
            } else {
                rollback()
            }
            throw error
        }
        try save()
    }
}

/// The context's unsaved changes at one moment, to go back to: its pending lists, and for each
/// model they hold, its state, all its attribute values and its relationship slots. A model that
/// held no change then was as stored, so undoing its later changes is `rollback()`'s work.
struct TransactionSnapshot {
    struct ModelState {
        let object: ModelObject
        let status: ModelObject.Status
        let home: ModelHome?
        let rowID: Int64?
        let slots: RelationshipSlots
        let relationshipsChanged: Bool
        /// The change record's columns and saved values (nil: none).
        let changes: (order: [Int32], savedValues: [SQLValue])?
        /// Every attribute's columns, as stored (nil: the model has no entity).
        let values: [SQLValue]?
    }

    let saveCount: Int
    let unsaved: UnsavedChanges
    let deferredError: Error?
    let models: [ObjectIdentifier: ModelState]

    init(of context: ModelContext) {
        saveCount = context.saveCount
        unsaved = context.unsaved
        deferredError = context.deferredError
        var models: [ObjectIdentifier: ModelState] = [:]
        for list in [context.inserted, context.deleted, context.dirty, Array(context.touched.values)] {
            for object in list where models[ObjectIdentifier(object)] == nil {
                models[ObjectIdentifier(object)] = Self.state(of: object)
            }
        }
        self.models = models
    }

    private static func state(of object: ModelObject) -> ModelState {
        var values: [SQLValue]?
        if let entity = object.entity {
            let encoder = RowEncoder(valueCount: entity.attributes.count, positions: entity.attributeValuePositions)
            object._encode(to: encoder)
            values = encoder.values
        }
        return ModelState(object: object, status: object.status, home: object.home, rowID: object.rowID, slots: object.slots,
                          relationshipsChanged: object.relationshipsChanged,
                          changes: object.changes.map { ($0.order, $0.savedValues) }, values: values)
    }

    /// Puts `context` back in this state: models changed since, that held no change then, go back
    /// to their saved state (as `rollback()` does); the others get their state of then.
    func restore(into context: ModelContext) {
        for object in context.inserted where models[ObjectIdentifier(object)] == nil {
            object.status = .detached
            object.home = nil
            object.rowID = nil
        }
        for object in context.deleted where models[ObjectIdentifier(object)] == nil && object.status == .deleted {
            object.status = .persisted
        }
        for object in context.dirty where models[ObjectIdentifier(object)] == nil {
            if let record = object.changes, let entity = object.entity { context.restore(object, entity: entity, from: record) }
            object.changeEntry = 0
        }
        for object in context.touched.values where models[ObjectIdentifier(object)] == nil {
            object.relationshipsChanged = false
            for index in object.slots.indices {
                if case .objects = object.slot(index) { object.slots[index] = .unloaded }
            }
        }
        for state in models.values {
            let object = state.object
            object.status = state.status
            object.home = state.home
            object.rowID = state.rowID
            object.slots = state.slots
            object.relationshipsChanged = state.relationshipsChanged
            object.changeEntry = 0
            if let changes = state.changes {
                for (column, value) in zip(changes.order, changes.savedValues) { context.changeLog.record(object, column: Int(column), savedValue: value) }
            }
            if let values = state.values, let entity = object.entity {
                try? RowReader(values: values, positions: entity.attributeValuePositions, entityName: entity.name).withDecoder { try object._decode(from: $0) }
            }
        }
        context.unsaved = unsaved
        context.changeLog.compact(keeping: context.dirty)
        context.unsaved.checkInvariants()
        context.deferredError = deferredError
    }
}
