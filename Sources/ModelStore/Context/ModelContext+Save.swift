import Foundation

extension ModelContext {
    /// Writes every insert, change and delete in one transaction, applying delete rules
    /// (cascade, nullify, deny, noAction) and upserts (unique values). On error nothing is
    /// written and the context keeps its unsaved changes.
    ///
    /// - Throws: the error a non-throwing call deferred (`ModelStoreError.modelInOtherContext`,
    ///   `.unknownEntity`), once; `ModelStoreError.saveInProgress` when called during a save or a
    ///   model change of this context; `.relationshipAcrossContexts` while a changed model is related
    ///   to a model of another context; `.deleteDenied`; `.unstorableValue` for a value the store
    ///   cannot give back; `.rowMissing` when a changed row is no longer stored; the
    ///   store's error (`SQLiteError`) when it cannot be written.
    public func save() throws {
        guards.enter()
        defer { guards.leave() }
        try beginSave()
        defer { endSave() }
        if let deferredError {
            self.deferredError = nil
            throw deferredError
        }
        try checkRelationshipsStayInContext()
        guard hasChanges else { return }
        postWillSave()
        let connection = try connection()
        var deletions = Deletions(hierarchyCount: 0)
        var assigned: [ModelObject] = []
        var upserted: [(ModelObject, Int64)] = []
        var saved = SavedChanges()
        try container.driver.withWriteLock {
            do {
                try connection.beginWriteTransaction()
                deletions = try self.deletions(connection)
                try writeInserts(connection, removed: deletions.modelIDs, assigned: &assigned, upserted: &upserted)
                try writeUpdates(connection, removed: deletions.modelIDs, displaced: upserted.map(\.0))
                try writeLinks(connection)
                saved = try recordSave(connection, deletions: deletions)
                try writeDeletes(connection, deletions)
                try connection.commit()
            } catch {
                connection.rollback()
                for object in assigned { object.rowID = nil }
                throw error
            }
        }
        finishSave(removals: deletions.models, removed: deletions.modelIDs, upserted: upserted)
        endSave()  // the save is over: a `didSave` observer may save again
        saveDidFinish(saved)
    }

    /// Runs `block`, then saves; if `block` throws, its changes are rolled back.
    public func transaction(block: () throws -> Void) throws {
        guards.enter()
        defer { guards.leave() }
        do {
            try block()
        } catch {
            rollback()
            throw error
        }
        try save()
    }

    // MARK: Writing

    private func writeInserts(_ connection: any StoreConnection, removed: Set<ObjectIdentifier>, assigned: inout [ModelObject],
                              upserted: inout [(ModelObject, Int64)]) throws {
        var fixups: [(ModelObject, Int)] = []
        var encoder: RowEncoder?
        // Each entity's insert, prepared at its first row (a class: one retain per row, where
        // copying `EntitySQL` retained each of its strings).
        var prepared: [ObjectIdentifier: PreparedInsert] = [:]
        var previous: PreparedInsert?
        // The model of this save each upserted row went to so far (two new models with the same unique values share a row).
        var upsertedRows: [RowKey: ModelObject] = [:]
        let removes = !removed.isEmpty
        for object in inserted where !removes || !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity else { continue }
            let sql: PreparedInsert
            if let previous, previous.entity === entity {
                sql = previous
            } else if let known = prepared[ObjectIdentifier(entity)] {
                sql = known
            } else {
                let text = container.entitySQL[entity.index]
                sql = PreparedInsert(entity: entity, text: text, statement: try connection.statement(text.insert))
                prepared[ObjectIdentifier(entity)] = sql
            }
            previous = sql
            let statement = sql.statement
            let rowEncoder = encoder ?? RowEncoder(statement: statement, positions: sql.text.insertPositions)
            rowEncoder.restart(statement: statement, positions: sql.text.insertPositions)
            encoder = rowEncoder
            object._encode(to: rowEncoder)
            try checkStorable(rowEncoder, entity: entity)
            var index = Int32(1 + entity.attributes.count)
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
            if sql.text.insertReturnsKey {
                if try statement.step() {
                    rowID = statement.int64(at: 0)
                    try statement.run()
                } else if let conflict = sql.text.conflict {
                    statement.reset()
                    rowID = try upsertIntoConflictingRow(object, entity: entity, sql: sql.text, conflict: conflict, connection)
                } else {
                    throw ModelStoreError.invalidSchema("an insert into \(entity.tableName) returned no key")
                }
                if sql.text.isUpsert, let existing = upsertedRows[RowKey(entity, rowID)] ?? registered[entity.hierarchyIndex][rowID], existing !== object {
                    upserted.append((existing, rowID))
                }
                if sql.text.isUpsert { upsertedRows[RowKey(entity, rowID)] = object }
            } else {
                try statement.run()
                guard let key = connection.lastInsertedKey else { throw ModelStoreError.invalidSchema("an insert into \(entity.tableName) reported no key") }
                rowID = key
            }
            statement.reset()
            object.rowID = rowID
            assigned.append(object)
        }
        // Keys to models inserted later in the same save (not for a model whose row a later insert took over).
        let displaced = Set(upserted.map { ObjectIdentifier($0.0) })
        for (object, slot) in fixups where !displaced.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, let rowID = object.rowID,
                  case .keyColumn(let column) = entity.relationships[slot].storage,
                  let key = keyValue(of: object, slot: slot) else { continue }
            try connection.run("UPDATE \(SQLQuote.identifier(entity.tableName)) SET \(SQLQuote.identifier(column)) = ? WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?",
                               [.integer(key), .integer(rowID)])
        }
    }

    /// Writes the changed columns of each changed saved model: one `UPDATE` per distinct set of
    /// changed columns (made once per context, prepared once per connection), so the other columns
    /// keep what the store holds (another context's write to them survives). The models of
    /// `displaced`, whose row an insert of this save took over (upserted with the same unique
    /// values), are left out: the inserted model's values win.
    private func writeUpdates(_ connection: any StoreConnection, removed: Set<ObjectIdentifier>, displaced: [ModelObject]) throws {
        let removed = displaced.isEmpty ? removed : removed.union(displaced.map(ObjectIdentifier.init))
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
            try checkStorable(rowEncoder, entity: entity)
            for (index, slot) in entity.keySlots.enumerated() where update.keyParameters[index] > 0 {
                statement.bind(keyValue(of: object, slot: slot).map(SQLValue.integer) ?? .null, at: update.keyParameters[index])
            }
            statement.bind(.integer(rowID), at: update.keyParameter)
            try statement.run()
            try checkRowChanged(connection, object: object, entity: entity)
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

    /// Deletes the rows of `deletions`: the deepest wave first (models and rows a cascade reached
    /// before the ones that brought them, so no `ON DELETE SET NULL` rewrites a row about to be
    /// deleted), one statement per table per wave (per `KeyList.chunk` keys). A row another context
    /// deleted already is not an error: it is gone, as asked.
    private func writeDeletes(_ connection: any StoreConnection, _ deletions: Deletions) throws {
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        for wave in deletions.waves.reversed() {
            var keys: [String: [Int64]] = [:]
            var tables: [String] = []
            func delete(_ key: Int64, from table: String) {
                if keys[table] == nil { tables.append(table) }
                keys[table, default: []].append(key)
            }
            for entry in deletions.entries[wave] {
                switch entry {
                case .model(let object):
                    guard let entity = object.entity, let rowID = object.rowID, object.status != .inserted else { continue }
                    delete(rowID, from: entity.tableName)
                case .row(let row):
                    delete(row.key, from: row.entity.tableName)
                }
            }
            for table in tables {
                for chunk in KeyList.chunks(keys[table] ?? []) {
                    let filter = KeyList.membership(primaryKey, chunk)
                    try connection.run("DELETE FROM \(SQLQuote.identifier(table)) WHERE \(filter.sql)", filter.bindings)
                }
            }
        }
    }

    // MARK: After commit

    private func finishSave(removals: [ModelObject], removed: Set<ObjectIdentifier>, upserted: [(ModelObject, Int64)]) {
        // The saved changes leave the context's lists first: a change an observer makes while the
        // graph is updated below (its `onChange` runs at `willSet`) stays pending for the next save.
        let (saved, savedDirty, savedTouched) = (inserted, dirty, touched)
        clearPendingLists()
        for object in savedDirty { object.changes = nil }
        for object in savedTouched.values { object.relationshipsChanged = false }
        for object in saved where !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, let rowID = object.rowID else { continue }
            object.status = .persisted
            registered[entity.hierarchyIndex][rowID] = object
        }
        for object in removals {
            if let entity = object.entity, let rowID = object.rowID, registered[entity.hierarchyIndex][rowID] === object {
                registered[entity.hierarchyIndex][rowID] = nil
            }
        }
        detachFromGraph(removals, removed: removed)
        for object in removals { object.status = .removed }
        // An upsert's stored row now belongs to the inserted model; the instance that had it
        // leaves the context (it is not deleted: its row lives on in the inserted model).
        for (previous, rowID) in upserted where previous.status == .persisted {
            previous.status = .detached
            previous.link = nil
            previous.changes = nil
            previous.relationshipsChanged = false
            relinkDisplaced(previous, rowID: rowID)
        }
    }
}

/// An entity's insert statement of one save, with what `writeInserts` needs of its `EntitySQL`.
private final class PreparedInsert {
    let entity: EntitySchema
    /// The entity's SQL: the insert's bind positions, whether it returns the key, its upsert conflict handling.
    let text: EntitySQL
    let statement: any StoreStatement

    init(entity: EntitySchema, text: EntitySQL, statement: any StoreStatement) {
        self.entity = entity
        self.text = text
        self.statement = statement
    }
}
