/// Relationship values in memory: resolving, lazy loading, and keeping both sides of every
/// relationship in step as soon as one side is set.
enum RelationshipGraph {
    static func infos(of object: ModelObject) -> [RelationshipInfo] {
        object.entity?.relationshipInfos ?? RelationshipInfo.all(for: type(of: object))
    }

    /// The routes of `object`'s relationships (`RelationshipRoute`), in slot order.
    static func routes(of object: ModelObject) -> [RelationshipRoute] {
        object.entity?.relationshipRoutes ?? RelationshipRoute.routes(RelationshipInfo.all(for: type(of: object)))
    }

    static func ensureSlots(_ object: ModelObject, count: Int) {
        // A model without slots takes its entity's unloaded ones: a shared array, copied on the
        // first write, so a model whose relationships are never set allocates none.
        if object.slotsAreEmpty, let entity = object.entity, entity.unloadedSlots.count >= count {
            object.slots = RelationshipSlots(entity.unloadedSlots)
        } else if object.slotCount < count {
            object.slots.append(contentsOf: repeatElement(.unloaded, count: count - object.slotCount))
        }
    }

    private static func context(of object: ModelObject) -> ModelContext? {
        guard let context = object.link?.context else { return nil }
        switch object.status {
        case .inserted, .persisted, .deleted: return context
        case .detached, .removed: return nil
        }
    }

    /// Whether a to-many slot must come from the store on first access.
    private static func isStored(_ object: ModelObject) -> Bool {
        object.rowID != nil && (object.status == .persisted || object.status == .deleted)
    }

    // MARK: Reading

    static func toOne(of object: ModelObject, slot: Int) -> ModelObject? {
        guard slot < object.slotCount else { return nil }
        switch object.slot(slot) {
        case .object(let related):
            if let related, related.status == .removed {
                object.slots[slot] = .object(nil)
                return nil
            }
            return related
        case .key(let key):
            guard let key else {
                object.slots[slot] = .object(nil)
                return nil
            }
            let info = infos(of: object)[slot]
            let related = context(of: object)?.resolve(key: key, destination: info.destination)
            if related != nil { object.slots[slot] = .object(related) }
            return related
        case .unloaded, .objects:
            return nil
        }
    }

    static func toMany(of object: ModelObject, slot: Int) -> [ModelObject] {
        ensureSlots(object, count: slot + 1)
        switch object.slot(slot) {
        case .objects(let related):
            return related
        case .unloaded, .key, .object:
            var loaded: [ModelObject] = []
            if isStored(object), let context = context(of: object) {
                loaded = context.loadToMany(of: object, slot: slot)
            }
            object.slots[slot] = .objects(loaded)
            return loaded
        }
    }

    /// The current value of a to-one slot without resolving it: the related model if in memory.
    static func loadedToOne(of object: ModelObject, slot: Int) -> ModelObject? {
        guard slot < object.slotCount, case .object(let related) = object.slot(slot) else { return nil }
        return related
    }

    /// A to-many slot's value if loaded, without loading it.
    static func loadedToMany(of object: ModelObject, slot: Int) -> [ModelObject]? {
        guard slot < object.slotCount, case .objects(let related) = object.slot(slot) else { return nil }
        return related
    }

    // MARK: Writing

    static func setToOne(of object: ModelObject, slot: Int, to newValue: ModelObject?) {
        let all = infos(of: object)
        guard slot < all.count else { return }
        let info = all[slot]
        ensureSlots(object, count: all.count)
        let old = toOne(of: object, slot: slot)
        if old === newValue, case .object = object.slot(slot) { return }
        setKey(of: object, slot: slot, observe: info.observe, to: .object(newValue))
        if let inverse = info.inverse {
            if let old, old !== newValue { unlink(object, from: old, inverse: inverse) }
            if let newValue {
                if inverse.isToMany {
                    append(object, to: newValue, inverse: inverse)
                } else {
                    // One-to-one: the new partner leaves its previous partner.
                    if let previous = toOne(of: newValue, slot: inverse.slot), previous !== object {
                        setKey(of: previous, slot: slot, observe: info.observe, to: .object(nil))
                    }
                    setSlot(of: newValue, inverse: inverse, to: .object(object))
                }
            }
        }
        if let newValue { adopt(newValue, by: object) }
    }

    static func setToMany(of object: ModelObject, slot: Int, to newValue: [ModelObject]) {
        let all = infos(of: object)
        guard slot < all.count else { return }
        let info = all[slot]
        let old = toMany(of: object, slot: slot)
        var unique: [ModelObject] = []
        var seen: Set<ObjectIdentifier> = []
        for related in newValue where seen.insert(ObjectIdentifier(related)).inserted { unique.append(related) }
        let oldSet = Set(old.map(ObjectIdentifier.init))
        let removed = old.filter { !seen.contains(ObjectIdentifier($0)) }
        let added = unique.filter { !oldSet.contains(ObjectIdentifier($0)) }
        touch(object)
        info.observe.willAndDidSet(object) { object.slots[slot] = .objects(unique) }
        if info.usesJoinTable, let context = context(of: object) {
            for related in removed { context.recordLink(owner: object, slot: slot, other: related, linked: false) }
            for related in added { context.recordLink(owner: object, slot: slot, other: related, linked: true) }
        }
        if let inverse = info.inverse {
            for related in removed {
                if inverse.isToMany {
                    removeFromList(object, of: related, inverse: inverse)
                } else if toOne(of: related, slot: inverse.slot) === object {
                    setSlot(of: related, inverse: inverse, to: .object(nil))
                }
            }
            for related in added {
                if inverse.isToMany {
                    append(object, to: related, inverse: inverse)
                } else {
                    if let previousOwner = toOne(of: related, slot: inverse.slot), previousOwner !== object {
                        removeFromList(related, of: previousOwner, slotInfo: info)
                    }
                    setSlot(of: related, inverse: inverse, to: .object(object))
                }
            }
        }
        for related in added { adopt(related, by: object) }
    }

    // MARK: Helpers

    /// Removes `object` from `related`'s inverse (to-one: cleared; to-many: removed).
    private static func unlink(_ object: ModelObject, from related: ModelObject, inverse: RelationshipInfo.Inverse) {
        if inverse.isToMany {
            removeFromList(object, of: related, inverse: inverse)
        } else if toOne(of: related, slot: inverse.slot) === object {
            setSlot(of: related, inverse: inverse, to: .object(nil))
        }
    }

    private static func setSlot(of object: ModelObject, inverse: RelationshipInfo.Inverse, to value: RelationshipValue) {
        ensureSlots(object, count: inverse.slot + 1)
        if inverse.isToMany {
            touch(object)
            inverse.observe.willAndDidSet(object) { object.slots[inverse.slot] = value }
        } else {
            setKey(of: object, slot: inverse.slot, observe: inverse.observe, to: value)
        }
    }

    /// Appends `object` to `related`'s to-many inverse, in place (no copy of the list).
    /// `object` is not in the list: both sides are always kept in step, so a model whose
    /// to-one did not point at `related` is not in `related`'s list.
    private static func append(_ object: ModelObject, to related: ModelObject, inverse: RelationshipInfo.Inverse) {
        _ = toMany(of: related, slot: inverse.slot)
        touch(related)
        inverse.observe.willAndDidSet(related) {
            guard case .objects(var list) = related.slot(inverse.slot) else { return }
            related.slots[inverse.slot] = .unloaded
            list.append(object)
            related.slots[inverse.slot] = .objects(list)
        }
    }

    private static func removeFromList(_ object: ModelObject, of related: ModelObject, inverse: RelationshipInfo.Inverse) {
        var list = toMany(of: related, slot: inverse.slot)
        guard let index = list.firstIndex(where: { $0 === object }) else { return }
        list.remove(at: index)
        touch(related)
        inverse.observe.willAndDidSet(related) { related.slots[inverse.slot] = .objects(list) }
    }

    private static func removeFromList(_ object: ModelObject, of owner: ModelObject, slotInfo: RelationshipInfo) {
        var list = toMany(of: owner, slot: slotInfo.slot)
        guard let index = list.firstIndex(where: { $0 === object }) else { return }
        list.remove(at: index)
        touch(owner)
        slotInfo.observe.willAndDidSet(owner) { owner.slots[slotInfo.slot] = .objects(list) }
    }

    /// Sets a to-one slot, telling observers; for a saved model, records the key column's change
    /// once the slot holds the new value (so a `save()` run by an observer's `onChange`, which
    /// runs before, cannot take it for saved), with the key the store held as its saved value.
    private static func setKey(of object: ModelObject, slot: Int, observe: ObservationHook, to value: RelationshipValue) {
        let context = object.status == .persisted ? object.link?.context : nil
        let savedKey = context?.keyValue(of: object, slot: slot)
        observe.willAndDidSet(object) {
            object.slots[slot] = value
            context?.keyDidChange(of: object, slot: slot, savedKey: savedKey)
        }
    }

    /// A saved model whose in-memory relationships changed (restored by `rollback()`).
    static func touch(_ object: ModelObject) {
        if object.status == .persisted || object.status == .deleted, let context = object.link?.context {
            context.guards.enter()
            defer { context.guards.leave() }
            context.unsaved.noteTouched(object)
            object.relationshipsChanged = true
        }
    }

    /// Of two related models, one registered and one not, the other joins the context.
    private static func adopt(_ related: ModelObject, by owner: ModelObject) {
        if related.status == .detached, let context = context(of: owner) {
            context.insertObject(related)
        } else if owner.status == .detached, let context = context(of: related) {
            context.insertObject(owner)
        }
    }
}
