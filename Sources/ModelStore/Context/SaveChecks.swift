/// What `save()` refuses rather than store something other than what the models hold (issue #20):
/// relationships to models of other contexts, values the store cannot give back, rows deleted
/// meanwhile. And how a row two new models shared (one upsert) ends with one model.
extension ModelContext {
    // MARK: Models of other contexts

    /// Whether `object` is registered with another context (inserted, saved or deleted there).
    func belongsToAnotherContext(_ object: ModelObject) -> Bool {
        guard let other = object.link, other !== link else { return false }
        switch object.status {
        case .inserted, .persisted, .deleted: return true
        case .detached, .removed: return false
        }
    }

    /// Keeps the first error of a non-throwing call for the next `save()`.
    func deferError(_ error: Error) {
        if deferredError == nil { deferredError = error }
    }

    /// Throws `ModelStoreError.relationshipAcrossContexts` when a model this save would write
    /// (inserted, changed, or with changed relationships) is related to a model of another
    /// context: its key or link would be stored wrong, or not at all. The check holds as long as
    /// such a relationship does, so no later save stores it half either.
    func checkRelationshipsStayInContext() throws {
        // Borrowed: no retain and release per model (`forEachBorrowed`).
        try inserted.forEachBorrowed { try checkRelated(of: $0) }
        try dirty.forEachBorrowed { try checkRelated(of: $0) }
        for object in touched.values { try checkRelated(of: object) }
        for key in linkOrder {
            guard let change = linkChanges[key] else { continue }
            for (owner, other) in [(change.source, change.target), (change.target, change.source)] where belongsToAnotherContext(other) {
                throw crossContext(owner, relationship: "a many-to-many relationship", other)
            }
        }
    }

    /// Inlined where a save walks its models: a model without relationship slots (most changed
    /// models) is passed over without a call.
    @inline(__always) private func checkRelated(of object: ModelObject) throws {
        if !object.slotsAreEmpty { try checkRelatedSlots(of: object) }
    }

    private func checkRelatedSlots(of object: ModelObject) throws {
        for index in object.slots.indices {
            switch object.slot(index) {
            case .object(let related?):
                if belongsToAnotherContext(related) { throw crossContext(object, slot: index, related) }
            case .objects(let list):
                for related in list where belongsToAnotherContext(related) { throw crossContext(object, slot: index, related) }
            default:
                break
            }
        }
    }

    private func crossContext(_ object: ModelObject, slot: Int, _ related: ModelObject) -> ModelStoreError {
        let infos = RelationshipGraph.infos(of: object)
        return crossContext(object, relationship: slot < infos.count ? infos[slot].name : "relationship \(slot)", related)
    }

    private func crossContext(_ object: ModelObject, relationship: String, _ related: ModelObject) -> ModelStoreError {
        .relationshipAcrossContexts(entity: object.persistentModelID.entityName, relationship: relationship,
                                    relatedEntity: related.persistentModelID.entityName)
    }

    // MARK: Values and rows

    /// Throws `ModelStoreError.unstorableValue` when the row `encoder` just wrote holds a value the
    /// store cannot give back as it is (`SQLStorable.storageProblem`).
    @inline(__always) func checkStorable(_ encoder: RowEncoder, entity: EntitySchema) throws {
        if encoder.hasProblem { try throwUnstorable(encoder, entity: entity) }
    }

    /// `checkStorable`'s error, out of the per-row path.
    private func throwUnstorable(_ encoder: RowEncoder, entity: EntitySchema) throws {
        guard let problem = encoder.problem else { return }
        let property = problem.attribute < entity.storedAttributes.count ? entity.storedAttributes[problem.attribute].name : "attribute \(problem.attribute)"
        throw ModelStoreError.unstorableValue(entity: entity.name, property: property, reason: problem.reason)
    }

    /// Throws `ModelStoreError.rowMissing` when the `UPDATE` of `object`'s row that `connection`
    /// just ran changed no row: another context or process deleted it. (A `DELETE` that finds no
    /// row is no error: the row is gone, as asked.)
    func checkRowChanged(_ connection: any StoreConnection, object: ModelObject, entity: EntitySchema) throws {
        guard connection.changes == 0 else { return }
        throw rowMissing(object, entity: entity)
    }

    /// The error of an `UPDATE` of `object`'s row that changed no row.
    func rowMissing(_ object: ModelObject, entity: EntitySchema) -> ModelStoreError {
        ModelStoreError.rowMissing(entity: entity.name, identifier: object.persistentModelID)
    }

    // MARK: Upserts

    /// After a save, `displaced` (a model whose row an insert of the save took over through its
    /// unique values) has left the context: the models related to it in memory are pointed at the
    /// row again (to-one: its key; to-many: reloaded from the store), and so are the to-many
    /// relationships of the model that now has the row, so no relationship keeps the displaced model.
    func relinkDisplaced(_ displaced: ModelObject, rowID: Int64) {
        for info in RelationshipGraph.infos(of: displaced) {
            guard let inverse = info.inverse else { continue }
            let related: [ModelObject] = info.isToMany
                ? RelationshipGraph.loadedToMany(of: displaced, slot: info.slot) ?? []
                : RelationshipGraph.loadedToOne(of: displaced, slot: info.slot).map { [$0] } ?? []
            for model in related where model.link === link && model.status == .persisted && inverse.slot < model.slotCount {
                let value: RelationshipValue = inverse.isToMany ? .unloaded : .key(rowID)
                inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = value }
            }
        }
        guard let entity = displaced.entity, let survivor = registered[entity.hierarchyIndex][rowID] else { return }
        for info in RelationshipGraph.infos(of: survivor) where info.isToMany && RelationshipGraph.loadedToMany(of: survivor, slot: info.slot) != nil {
            info.observe.willAndDidSet(survivor) { survivor.slots[info.slot] = .unloaded }
        }
    }
}

/// A row of one hierarchy's table.
struct RowKey: Hashable {
    let hierarchy: Int
    let rowID: Int64

    init(_ entity: EntitySchema, _ rowID: Int64) {
        self.hierarchy = entity.hierarchyIndex
        self.rowID = rowID
    }
}

extension ModelContext {
    // MARK: Unreadable rows

    /// Runs `body`, which reads row `rowID` of `entity` through `decoder`; a value that does not
    /// fit its property is reported with the row's identifier and the property's name.
    @inline(__always)
    func naming<T>(_ rowID: Int64, of entity: EntitySchema, _ decoder: RowDecoder, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch ModelStoreError.corruptRow(_, .none, _, let storedValue) {
            let index = decoder.attributeIndex
            let property = index < entity.storedAttributes.count ? entity.storedAttributes[index].name : "attribute \(index)"
            throw ModelStoreError.corruptRow(entity: entity.name, identifier: PersistentIdentifier(entityName: entity.name, rowID: rowID, store: container.storeIdentifier),
                                             property: property, storedValue: storedValue)
        }
    }
}
