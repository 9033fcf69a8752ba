import Foundation

extension ModelContext {
    /// Writes every insert, change and delete in one transaction, applying delete rules
    /// (cascade, nullify, deny, noAction) and upserts (unique values). On error nothing is
    /// written and the context keeps its unsaved changes.
    public func save() throws {
        if let deferredError {
            self.deferredError = nil
            throw deferredError
        }
        guard hasChanges else { return }
        postWillSave()
        let removals = try deletionClosure()
        let connection = try connection()
        var assigned: [ModelObject] = []
        var upserted: [(ModelObject, Int64)] = []
        var saved = SavedChanges()
        try container.driver.withWriteLock {
            do {
                try connection.beginWriteTransaction()
                try writeInserts(connection, removals: removals, assigned: &assigned, upserted: &upserted)
                try writeUpdates(connection, removals: removals)
                try writeLinks(connection)
                saved = try recordSave(connection, removals: removals)
                try writeDeletes(connection, removals: removals)
                try connection.commit()
            } catch {
                connection.rollback()
                for object in assigned { object.rowID = nil }
                throw error
            }
        }
        finishSave(removals: removals, upserted: upserted)
        saveDidFinish(saved)
    }

    /// Runs `block`, then saves; if `block` throws, its changes are rolled back.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
        } catch {
            rollback()
            throw error
        }
        try save()
    }

    // MARK: Delete rules

    /// The models to delete: the deleted ones and, through `.cascade`, their related models.
    /// Throws when a `.deny` relationship still has related models outside the set.
    private func deletionClosure() throws -> [ModelObject] {
        var removals = deleted
        var members = Set(removals.map(ObjectIdentifier.init))
        var denied: [(ModelObject, RelationshipInfo, [ModelObject])] = []
        var index = 0
        var prefetched = 0
        while index < removals.count {
            if index == prefetched {
                // Load the next wave's related models together, not one query per model.
                prefetchDeleteRuleRelationships(of: removals[index...])
                prefetched = removals.count
            }
            let object = removals[index]
            index += 1
            for info in RelationshipGraph.infos(of: object) where info.deleteRule == .cascade || info.deleteRule == .deny {
                let related = info.isToMany
                    ? RelationshipGraph.toMany(of: object, slot: info.slot)
                    : RelationshipGraph.toOne(of: object, slot: info.slot).map { [$0] } ?? []
                if info.deleteRule == .deny {
                    denied.append((object, info, related))
                    continue
                }
                for model in related where model.status == .persisted || model.status == .inserted || model.status == .deleted {
                    if members.insert(ObjectIdentifier(model)).inserted { removals.append(model) }
                }
            }
        }
        for (object, info, related) in denied where related.contains(where: { !members.contains(ObjectIdentifier($0)) }) {
            throw ModelStoreError.deleteDenied(entity: object.entity?.name ?? "\(type(of: object))", relationship: info.name)
        }
        return removals
    }

    // MARK: Writing

    private func writeInserts(_ connection: any StoreConnection, removals: [ModelObject], assigned: inout [ModelObject],
                              upserted: inout [(ModelObject, Int64)]) throws {
        let removed = Set(removals.map(ObjectIdentifier.init))
        var fixups: [(ModelObject, Int)] = []
        var encoder: RowEncoder?
        var statements: [ObjectIdentifier: any StoreStatement] = [:]
        for object in inserted where !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity else { continue }
            let sql = container.entitySQL[entity.index]
            let statement: any StoreStatement
            if let cached = statements[ObjectIdentifier(entity)] {
                statement = cached
            } else {
                statement = try connection.statement(sql.insert)
                statements[ObjectIdentifier(entity)] = statement
            }
            statement.bind(.text(entity.name), at: 1)
            let rowEncoder = encoder ?? RowEncoder(statement: statement, positions: sql.insertPositions)
            rowEncoder.restart(statement: statement, positions: sql.insertPositions)
            encoder = rowEncoder
            object._encode(to: rowEncoder)
            var index = Int32(2 + entity.attributes.count)
            for slot in entity.keySlots {
                if let key = keyValue(of: object, slot: slot) {
                    statement.bind(.integer(key), at: index)
                } else {
                    statement.bind(.null, at: index)
                    if RelationshipGraph.loadedToOne(of: object, slot: slot) != nil { fixups.append((object, slot)) }
                }
                index += 1
            }
            let rowID: Int64
            if sql.insertReturnsKey {
                guard try statement.step() else { throw ModelStoreError.invalidSchema("an insert into \(entity.tableName) returned no key") }
                rowID = statement.int64(at: 0)
                try statement.run()
                if sql.isUpsert, let existing = registered[entity.hierarchyIndex][rowID], existing !== object { upserted.append((existing, rowID)) }
            } else {
                try statement.run()
                guard let key = connection.lastInsertedKey else { throw ModelStoreError.invalidSchema("an insert into \(entity.tableName) reported no key") }
                rowID = key
            }
            statement.reset()
            object.rowID = rowID
            assigned.append(object)
        }
        // Keys to models inserted later in the same save.
        for (object, slot) in fixups {
            guard let entity = object.entity, let rowID = object.rowID,
                  case .keyColumn(let column) = entity.relationships[slot].storage,
                  let key = keyValue(of: object, slot: slot) else { continue }
            try connection.run("UPDATE \(SQLQuote.identifier(entity.tableName)) SET \(SQLQuote.identifier(column)) = ? WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?",
                               [.integer(key), .integer(rowID)])
        }
    }

    /// Writes the changed columns of each changed saved model: one `UPDATE` per distinct set of
    /// changed columns (made once per context, prepared once per connection), so the other columns
    /// keep what the store holds (another context's write to them survives).
    private func writeUpdates(_ connection: any StoreConnection, removals: [ModelObject]) throws {
        let removed = Set(removals.map(ObjectIdentifier.init))
        var statements: [PartialUpdateKey: any StoreStatement] = [:]
        var encoder: RowEncoder?
        var previous: (key: PartialUpdateKey, update: PartialUpdate, statement: any StoreStatement)?
        for object in dirty where object.status == .persisted && !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, let rowID = object.rowID, let record = object.changes else { continue }
            let key = PartialUpdateKey(entity: entity.index, columns: record.columns)
            let update: PartialUpdate
            let statement: any StoreStatement
            if let previous, previous.key == key {
                (update, statement) = (previous.update, previous.statement)
            } else {
                if let known = partialUpdates[key] {
                    update = known
                } else {
                    update = container.entitySQL[entity.index].update(of: entity, columns: record.columns)
                    partialUpdates[key] = update
                }
                if let prepared = statements[key] {
                    statement = prepared
                } else {
                    statement = try connection.statement(update.sql)
                    statements[key] = statement
                }
                previous = (key, update, statement)
            }
            let rowEncoder = encoder ?? RowEncoder(statement: statement, positions: update.positions)
            rowEncoder.restart(statement: statement, positions: update.positions)
            encoder = rowEncoder
            object._encode(to: rowEncoder)
            for (index, slot) in entity.keySlots.enumerated() where update.keyParameters[index] > 0 {
                statement.bind(keyValue(of: object, slot: slot).map(SQLValue.integer) ?? .null, at: update.keyParameters[index])
            }
            statement.bind(.integer(rowID), at: update.keyParameter)
            try statement.run()
            statement.reset()
        }
    }

    private func writeLinks(_ connection: any StoreConnection) throws {
        for key in linkOrder {
            guard let change = linkChanges[key], let source = change.source.rowID, let target = change.target.rowID else { continue }
            let table = SQLQuote.identifier(change.table)
            let sourceColumn = SQLQuote.identifier(StorageNames.source)
            let targetColumn = SQLQuote.identifier(StorageNames.target)
            if change.linked {
                try connection.run(connection.dialect.insertIgnoringDuplicate(table: change.table, columns: [StorageNames.source, StorageNames.target]),
                                   [.integer(source), .integer(target)])
            } else {
                try connection.run("DELETE FROM \(table) WHERE \(sourceColumn) = ? AND \(targetColumn) = ?", [.integer(source), .integer(target)])
            }
        }
    }

    private func writeDeletes(_ connection: any StoreConnection, removals: [ModelObject]) throws {
        guard !removals.isEmpty else { return }
        var deletes: [String: any StoreStatement] = [:]
        // Rows go last-collected first: models a cascade collected (children) before the models
        // that brought them, so no `ON DELETE SET NULL` rewrites a row about to be deleted.
        for object in removals.reversed() {
            guard let entity = object.entity, let rowID = object.rowID, object.status != .inserted else { continue }
            let delete: any StoreStatement
            if let known = deletes[entity.tableName] {
                delete = known
            } else {
                delete = try connection.statement(container.entitySQL[entity.index].deleteByKey)
                deletes[entity.tableName] = delete
            }
            delete.bind(.integer(rowID), at: 1)
            try delete.run()
            delete.reset()
        }
    }

    // MARK: After commit

    private func finishSave(removals: [ModelObject], upserted: [(ModelObject, Int64)]) {
        let removed = Set(removals.map(ObjectIdentifier.init))
        for object in inserted where !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, let rowID = object.rowID else { continue }
            object.status = .persisted
            registered[entity.hierarchyIndex][rowID] = object
        }
        for object in dirty { object.changes = nil }
        for object in removals {
            if let entity = object.entity, let rowID = object.rowID, registered[entity.hierarchyIndex][rowID] === object {
                registered[entity.hierarchyIndex][rowID] = nil
            }
        }
        for object in removals { detachFromGraph(object, removed: removed) }
        for object in removals { object.status = .removed }
        // An upsert's stored row now belongs to the inserted model; the instance that had it
        // leaves the context (it is not deleted: its row lives on in the inserted model).
        for (previous, _) in upserted where previous.status == .persisted {
            previous.status = .detached
            previous.link = nil
            previous.changes = nil
        }
        for object in touched.values { object.relationshipsChanged = false }
        inserted = []
        deleted = []
        dirty = []
        touched = [:]
        linkChanges = [:]
        linkOrder = []
    }

    /// Removes a deleted model from the in-memory relationships of the models it related to
    /// (except through `.noAction`, which touches nothing).
    private func detachFromGraph(_ object: ModelObject, removed: Set<ObjectIdentifier>) {
        for info in RelationshipGraph.infos(of: object) where info.deleteRule != .noAction {
            guard let inverse = info.inverse else { continue }
            let related: [ModelObject] = info.isToMany
                ? RelationshipGraph.loadedToMany(of: object, slot: info.slot) ?? []
                : RelationshipGraph.loadedToOne(of: object, slot: info.slot).map { [$0] } ?? []
            for model in related where !removed.contains(ObjectIdentifier(model)) {
                if inverse.isToMany {
                    if var list = RelationshipGraph.loadedToMany(of: model, slot: inverse.slot),
                       let index = list.firstIndex(where: { $0 === object }) {
                        list.remove(at: index)
                        inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = .objects(list) }
                    }
                } else if inverse.slot < model.slots.count {
                    inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = .object(nil) }
                }
            }
        }
    }
}
