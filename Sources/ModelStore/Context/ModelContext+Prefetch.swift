import Foundation

/// Where the owners of a prefetch come from.
enum PrefetchOwners {
    /// The rows of a fetch's stored query: its condition, order and window run again as a subquery,
    /// so one query loads a relationship for the whole result.
    case query(FetchPlan)
    /// These row keys (read in chunks of `KeyList.chunk`).
    case keys([Int64])

    /// `column IN (…)` for the owners: the stored query selecting `ownerColumn` (a column of the
    /// fetched table), or the keys of a chunk.
    fileprivate func membership(_ column: String, ownerColumn: String, chunk: ArraySlice<Int64>, _ dialect: any SQLDialect) -> SQLFragment {
        switch self {
        case .query(let plan):
            let selected = plan.table + "." + SQLQuote.identifier(ownerColumn)
            var subquery: SQLFragment = "SELECT \(raw: selected) FROM \(raw: plan.table)\(plan.whereClause())"
            if plan.limit != nil || plan.offset > 0 {
                // The window needs the order; without one, any order gives the same rows.
                subquery = "\(subquery)\(plan.orderBy)\(plan.window(dialect))"
            }
            return "\(raw: column) IN (\(subquery))"
        case .keys:
            return KeyList.membership(column, chunk, dialect)
        }
    }

    /// The chunks to run one query each for (one, unused, for `.query`).
    fileprivate var chunks: [ArraySlice<Int64>] {
        switch self {
        case .query: return [[]]
        case .keys(let keys): return KeyList.chunks(keys)
        }
    }
}

extension ModelContext {
    // MARK: relationshipKeyPathsForPrefetching

    /// The relationships `keyPaths` name on `entity`, with their slots.
    ///
    /// - Throws: `ModelStoreError.invalidFetch` naming a key path that is not a relationship of `entity`.
    func prefetchRelationships<T>(_ keyPaths: [PartialKeyPath<T>], entity: EntitySchema) throws -> [(relationship: RelationshipSchema, slot: Int)] {
        try keyPaths.enumerated().map { index, keyPath in
            guard let name = entity.property(forKeyPath: keyPath),
                  let slot = entity.relationships.firstIndex(where: { $0.name == name }) else {
                // A generated property's key path prints as an accessor address: name the position and the choices.
                let names = entity.relationships.map(\.name).joined(separator: ", ")
                throw ModelStoreError.invalidFetch("relationshipKeyPathsForPrefetching[\(index)] (\(keyPath)) is not a relationship of \(entity.name) (\(names))")
            }
            return (entity.relationships[slot], slot)
        }
    }

    /// Loads the named relationships of `objects` (a fetch's result, whose stored rows `owners`
    /// describes), one query per relationship (two for a many-to-many; per chunk of keys for
    /// `.keys`). Relationships already in memory are kept as they are.
    func prefetch(_ relationships: [(relationship: RelationshipSchema, slot: Int)], of objects: [ModelObject], owners: PrefetchOwners) throws {
        guard !objects.isEmpty else { return }
        for (relationship, slot) in relationships {
            try prefetch(relationship, slot: slot, owners: objects, source: owners)
        }
    }

    // MARK: Loading

    /// Loads `relationship` (at `slot`) of the saved `owners` whose slot is not in memory yet.
    /// Related models deleted and not saved yet are kept, as `loadToMany` keeps them.
    private func prefetch(_ relationship: RelationshipSchema, slot: Int, owners: [ModelObject], source: PrefetchOwners) throws {
        guard let destination = schema.entity(named: relationship.destinationName) else { return }
        let pk = SQLQuote.identifier(StorageNames.primaryKey)
        switch relationship.storage {
        case .keyColumn(let column):
            // To-one: the related rows the owners' stored keys name.
            var waiting: [(owner: ModelObject, key: Int64)] = []
            for owner in owners where owner.rowID != nil && slot < owner.slotCount {
                if case .key(let key?) = owner.slot(slot) { waiting.append((owner, key)) }
            }
            guard !waiting.isEmpty else { return }
            var related: [Int64: ModelObject] = [:]
            let filters: [SQLFragment]
            if case .query = source {
                filters = [source.membership(pk, ownerColumn: column, chunk: [], dialect)]
            } else {
                filters = KeyList.chunks(Set(waiting.map(\.key))).map { KeyList.membership(pk, $0, dialect) }
            }
            for filter in filters {
                for object in try materialize(sql: destination.selectSQL + " WHERE " + filter.sql, bindings: filter.bindings, entity: destination, includeDeleted: true) {
                    if let rowID = object.rowID { related[rowID] = object }
                }
            }
            for (owner, key) in waiting {
                if let object = related[key], case .key(key) = owner.slot(slot) { owner.slots[slot] = .object(object) }
            }
        case .inverseKeyColumn(_, let column):
            // One-to-many: the rows whose stored key names an owner, each owner's in key order (as
            // `loadToMany`). Ordered by owner, then key: the index on the key column gives that
            // order, where ordering by key alone made SQLite sort every related row in a temporary
            // B-tree (a third of the prefetch workload's SQLite instructions), and each owner's rows
            // come together, so its list is one slice of the result.
            let waiting = owners.filter { needsToMany($0, slot: slot) }
            guard !waiting.isEmpty else { return }
            var byOwner: [Int64: [ModelObject]] = [:]
            byOwner.reserveCapacity(waiting.count)
            // Owners whose rows came in more than one run: their lists are sorted by key at the end.
            var merged: Set<Int64> = []
            // The inverse's slot in the last related model's class (rows of one entity mostly follow
            // each other; the class is compared without retaining the model's entity).
            var inverseClass: ObjectIdentifier?
            var inverseSlot: Int?
            let order = " ORDER BY \(SQLQuote.identifier(column)), \(pk)"
            for chunk in ownerChunks(source, waiting) {
                let filter = source.membership(SQLQuote.identifier(column), ownerColumn: StorageNames.primaryKey, chunk: chunk, dialect)
                let related = try materialize(sql: destination.selectSQL + " WHERE " + filter.sql + order, bindings: filter.bindings, entity: destination, includeDeleted: true)
                // A run: consecutive rows of one owner (by the stored key, which differs from the
                // column only for a model changed in memory whose row another context moved).
                var runOwner: Int64?
                var runStart = 0
                func endRun(at end: Int) {
                    guard let owner = runOwner, runStart < end else { return }
                    // One lookup for an owner's first run; a later one merges into it.
                    if let earlier = byOwner.updateValue(Self.list(related, runStart..<end), forKey: owner) {
                        byOwner[owner] = earlier + related[runStart..<end]
                        merged.insert(owner)
                    }
                }
                for index in related.indices {
                    let object = related[index]
                    let objectClass = ObjectIdentifier(type(of: object))
                    if objectClass != inverseClass {
                        inverseClass = objectClass
                        inverseSlot = object.entity?.relationships.firstIndex { $0.storage == .keyColumn(column) }
                    }
                    let owner = inverseSlot.flatMap { storedKey(of: object, slot: $0) }
                    if owner != runOwner || owner == nil {
                        endRun(at: index)
                        runOwner = owner
                        runStart = owner == nil ? index + 1 : index
                    }
                }
                endRun(at: related.count)
            }
            for owner in merged { byOwner[owner]?.sort { ($0.rowID ?? 0) < ($1.rowID ?? 0) } }
            fill(waiting, slot: slot) { byOwner[$0] ?? [] }
        case .joinTable(let table, let ownColumn, let otherColumn):
            // Many-to-many: the links, then the linked rows.
            let waiting = owners.filter { needsToMany($0, slot: slot) }
            guard !waiting.isEmpty else { return }
            var links: [Int64: [Int64]] = [:]
            var related: [Int64: ModelObject] = [:]
            for chunk in ownerChunks(source, waiting) {
                let filter = source.membership(SQLQuote.identifier(ownColumn), ownerColumn: StorageNames.primaryKey, chunk: chunk, dialect)
                let pairs: SQLFragment = "SELECT \(identifier: ownColumn), \(identifier: otherColumn) FROM \(identifier: table) WHERE \(filter)"
                for row in try connection().rows(pairs.sql, pairs.bindings) {
                    if row.count == 2, case .integer(let owner) = row[0], case .integer(let other) = row[1] { links[owner, default: []].append(other) }
                }
                let rows: SQLFragment = "\(raw: destination.selectSQL) WHERE \(raw: pk) IN (SELECT \(identifier: otherColumn) FROM \(identifier: table) WHERE \(filter))"
                for object in try materialize(sql: rows.sql, bindings: rows.bindings, entity: destination, includeDeleted: true) {
                    if let rowID = object.rowID { related[rowID] = object }
                }
            }
            fill(waiting, slot: slot) { (links[$0] ?? []).sorted().compactMap { related[$0] } }
        }
    }

    /// The models of `related[range]`, an owner's list: reserved and appended, each model retained
    /// in place. `Array(related[range])` copied them through the generic value witnesses
    /// (`swift_arrayInitWithCopy`) after checking whether the slice was the whole buffer, about
    /// 425 instructions an owner of two (docs/Benchmarks.md, "Reads").
    private static func list(_ related: [ModelObject], _ range: Range<Int>) -> [ModelObject] {
        var list: [ModelObject] = []
        list.reserveCapacity(range.count)
        related.withUnsafeBufferPointer { models in
            for index in range { list.append(models[index]) }
        }
        return list
    }

    /// The chunks of owner keys to query by (one unused chunk when the owners are a query).
    private func ownerChunks(_ source: PrefetchOwners, _ owners: [ModelObject]) -> [ArraySlice<Int64>] {
        if case .keys = source { return KeyList.chunks(owners.compactMap(\.rowID)) }
        return source.chunks
    }

    /// Sets the to-many slot of each owner still waiting for it to `list(owner's key)`.
    private func fill(_ owners: [ModelObject], slot: Int, _ list: (Int64) -> [ModelObject]) {
        for owner in owners {
            guard let rowID = owner.rowID, needsToMany(owner, slot: slot) else { continue }
            if owner.slotsAreEmpty, let count = owner.entity?.relationships.count, slot < count {
                // Made with the list in place: taking the entity's shared unloaded slots
                // (`RelationshipGraph.ensureSlots`), then writing the list, copied them.
                var slots = ContiguousArray<RelationshipValue>()
                slots.reserveCapacity(count)
                for index in 0..<count { slots.append(index == slot ? .objects(list(rowID)) : .unloaded) }
                owner.slotArray = slots
            } else {
                RelationshipGraph.ensureSlots(owner, count: slot + 1)
                owner.slots[slot] = .objects(list(rowID))
            }
        }
    }

    /// Whether a saved model's to-many slot must still come from the store.
    private func needsToMany(_ owner: ModelObject, slot: Int) -> Bool {
        guard owner.rowID != nil, owner.status == .persisted || owner.status == .deleted else { return false }
        if slot < owner.slotCount, case .objects = owner.slot(slot) { return false }
        return true
    }

    /// The key a model's to-one slot holds in the store (its value before any unsaved change).
    private func storedKey(of object: ModelObject, slot: Int) -> Int64? {
        if let record = changeLog.record(of: object), let entity = object.entity, let index = entity.keySlots.firstIndex(of: slot),
           let saved = record.savedValue(of: entity.attributes.count + index) {
            if case .integer(let key) = saved { return key }
            return nil
        }
        return keyValue(of: object, slot: slot)
    }
}
