import Foundation

extension ModelContext {
    /// Owners per query when to-many relationships are loaded together.
    static let prefetchChunk = 500

    /// Loads, a few queries per relationship instead of one per model, the unloaded to-many
    /// relationships of `objects` that delete rules follow (`.cascade`, `.deny`) and that are stored
    /// as the other side's key column. The result is what `loadToMany` gives each model one by one
    /// (rows whose stored key names the model, by key order); anything unusual is left unloaded
    /// for the one-by-one path.
    func prefetchDeleteRuleRelationships(of objects: ArraySlice<ModelObject>) {
        var groups: [(relationship: RelationshipSchema, slot: Int, owners: [ModelObject])] = []
        var groupIndex: [ObjectIdentifier: Int] = [:]
        for object in objects where object.rowID != nil && (object.status == .persisted || object.status == .deleted) {
            guard let entity = object.entity, object.link?.context === self else { continue }
            for info in RelationshipGraph.infos(of: object)
            where info.isToMany && (info.deleteRule == .cascade || info.deleteRule == .deny) && info.slot < entity.relationships.count {
                if info.slot < object.slots.count, case .objects = object.slots[info.slot] { continue }
                let relationship = entity.relationships[info.slot]
                guard case .inverseKeyColumn = relationship.storage else { continue }
                let key = ObjectIdentifier(relationship)
                if let index = groupIndex[key] {
                    groups[index].owners.append(object)
                } else {
                    groupIndex[key] = groups.count
                    groups.append((relationship, info.slot, [object]))
                }
            }
        }
        for group in groups where group.owners.count > 1 {
            var start = 0
            while start < group.owners.count {
                let chunk = group.owners[start..<min(start + Self.prefetchChunk, group.owners.count)]
                prefetch(group.relationship, slot: group.slot, owners: chunk)
                start += Self.prefetchChunk
            }
        }
    }

    private func prefetch(_ relationship: RelationshipSchema, slot: Int, owners: ArraySlice<ModelObject>) {
        guard case .inverseKeyColumn(_, let column) = relationship.storage,
              let destination = schema.entity(named: relationship.destinationName),
              let connection = try? connection() else { return }
        let pk = SQLQuote.identifier(StorageNames.primaryKey)
        let keys = owners.compactMap(\.rowID)
        let filter = " WHERE \(SQLQuote.identifier(column)) IN (" + Array(repeating: "?", count: keys.count).joined(separator: ", ") + ")"
        let bindings = keys.map(SQLValue.integer)
        // Which owner each related row names in the store (the in-memory side may have moved on).
        guard let pairs = try? connection.rows("SELECT \(pk), \(SQLQuote.identifier(column)) FROM \(SQLQuote.identifier(destination.tableName))" + filter, bindings),
              let related = try? materialize(sql: destination.selectSQL + filter + " ORDER BY \(pk)", bindings: bindings, entity: destination)
        else { return }
        var ownerOfRow: [Int64: Int64] = [:]
        for pair in pairs {
            if pair.count == 2, case .integer(let row) = pair[0], case .integer(let owner) = pair[1] { ownerOfRow[row] = owner }
        }
        var byOwner: [Int64: [ModelObject]] = [:]
        for object in related {
            guard let row = object.rowID, let owner = ownerOfRow[row] else { continue }
            byOwner[owner, default: []].append(object)
        }
        for owner in owners {
            guard let rowID = owner.rowID else { continue }
            RelationshipGraph.ensureSlots(owner, count: slot + 1)
            if case .objects = owner.slots[slot] { continue }
            owner.slots[slot] = .objects(byOwner[rowID] ?? [])
        }
    }
}
