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
    ///   cannot give back; `.rowMissing` when a changed row is no longer stored;
    ///   `.modelCountOutOfRange` when a to-many would break its `minimumModelCount` or
    ///   `maximumModelCount`; the
    ///   store's error (`SQLiteError`) when it cannot be written; `.readOnlyStore` for a store opened
    ///   with `allowsSave: false` (nothing written, the changes stay pending).
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
        unsaved.checkInvariants()
        try container.checkWritable()
        postWillSave()
        let connection = try connection()
        var deletions = Deletions(hierarchyCount: 0)
        var assigned: [ModelObject] = []
        var upserted: [(ModelObject, Int64)] = []
        var saved = SavedChanges()
        // Whether updated rows may go several per statement (docs/PostgreSQL.md, "Batched writes").
        var updatesTogether = true
        try container.driver.withWriteLock {
            while true {
                var batch: SaveBatch?
                var updating = false
                do {
                    try connection.beginWriteTransaction()
                    // Rows go out in batches where the store takes them so (docs/PostgreSQL.md,
                    // "Batched writes"); each step reads its batch's results before the next.
                    let writes = SaveBatch(connection, updatesTogether: updatesTogether)
                    batch = writes
                    deletions = try self.deletions(connection)
                    try writeChangedUniqueValues(connection, writes, removed: deletions.modelIDs)
                    try deleteRowsThatFreeUniqueValues(connection, &deletions)
                    try writeInserts(connection, writes, removed: deletions.modelIDs, assigned: &assigned, upserted: &upserted)
                    updating = true
                    try writeUpdates(connection, writes, removed: deletions.modelIDs, displaced: upserted.map(\.0))
                    updating = false
                    try writeLinks(connection, writes)
                    try repairReferencesToRowsDeletedEarly(connection, deletions)
                    saved = try recordSave(connection, batch: writes, deletions: deletions, displaced: upserted.map(\.0))
                    let counted = try ownersToCount(connection, deletions)
                    try writeDeletes(connection, writes, deletions)
                    if !counted.isEmpty { try checkModelCounts(connection, counted, deletions) }
                    try connection.commit()
                    return
                } catch {
                    let first = batch?.firstError(after: error) ?? error
                    connection.rollback()
                    for object in assigned { object.rowID = nil }
                    // A statement changing several rows failed: the order the server visited them
                    // in is not the save's, so the save runs once more one row per statement, for
                    // the outcome and the first error of that order (docs/PostgreSQL.md, "Batched writes").
                    if updating, batch?.sentUpdatesTogether == true, connection.failedOnTheServer(first) {
                        updatesTogether = false
                        assigned = []
                        upserted = []
                        deletions = Deletions(hierarchyCount: 0)
                        continue
                    }
                    throw first
                }
            }
        }
        finishSave(removals: deletions.models, removed: deletions.modelIDs, upserted: upserted)
        unsaved.checkInvariants()
        saveCount &+= 1
        endSave()  // the save is over: a `didSave` observer may save again
        saveDidFinish(saved)
    }


    // MARK: Writing

    private func writeInserts(_ connection: any StoreConnection, _ batch: SaveBatch, removed: Set<ObjectIdentifier>, assigned: inout [ModelObject],
                              upserted: inout [(ModelObject, Int64)]) throws {
        var fixups: [(ModelObject, Int)] = []
        // Each entity's insert, prepared at its first row (a class, where copying `EntitySQL`
        // retained each of its strings), by `EntitySchema.index`: rows of entities that alternate
        // hash nothing. Unretained, read per row without a retain and a release; `kept` holds each
        // until the function returns.
        var unretained = [Unmanaged<PreparedInsert>?](repeating: nil, count: schema.entities.count)
        var kept: [PreparedInsert] = []
        // The model of this save each upserted row went to so far (two new models with the same unique values share a row).
        var upsertedRows: [RowKey: ModelObject] = [:]
        let removes = !removed.isEmpty
        // A batched insert's row gets its key when the batch's results are read, in order.
        func keyReturned(_ object: ModelObject, _ key: Int64?) throws {
            guard let entity = object.entity else { return }
            guard let rowID = key else { throw ModelStoreError.invalidSchema("an insert into \(entity.tableName) returned no key") }
            if container.entitySQL[entity.index].isUpsert {
                if let existing = upsertedRows[RowKey(entity, rowID)] ?? registered[entity.hierarchyIndex][rowID], existing !== object {
                    upserted.append((existing, rowID))
                }
                upsertedRows[RowKey(entity, rowID)] = object
            }
            object.rowID = rowID
            assigned.append(object)
        }
        let rowBatches = try reserveKeysForRowsTogether(connection, batch, removed: removed, assigned: &assigned)
        // Each model borrowed from the list (`forEachBorrowed`), its entity's insert unretained, and
        // a row that goes with others of its entity bound by the insert's own method (its fields
        // read without a retain each: `PreparedInsert.addRow`), as `writeUpdates` does.
        try inserted.forEachBorrowed { object in
            guard !removes || !removed.contains(ObjectIdentifier(object)), let index = object.entityIndex else { return }
            let prepare: Unmanaged<PreparedInsert>
            if let known = unretained[index] {
                prepare = known
            } else {
                guard let entity = object.entity else { return }
                let text = container.entitySQL[entity.index]
                let made = PreparedInsert(entity: entity, text: text, statement: try connection.statement(text.insert), rows: rowBatches[entity.index])
                kept.append(made)
                prepare = .passUnretained(made)
                unretained[index] = prepare
            }
            try prepare._withUnsafeGuaranteedRef { sql in
                // A related model whose insert waits in the batch gets its key first (before the
                // row is bound: reading the batch sends the rows bound so far).
                if batch.isWaiting {
                    for slot in sql.entity.keySlots {
                        if case .object(let related?) = object.slot(slot), related.rowID == nil, batch.awaitsKey(of: related) {
                            try batch.flush(inserted: keyReturned)
                            break
                        }
                    }
                }
                // A row written with others of its entity is bound straight into them.
                if sql.rows != nil, let key = object.rowID {
                    try sql.addRow(object, key: key, in: self, batch, fixups: &fixups, inserted: keyReturned)
                    return
                }
                // A row of its own: one statement, pipelined where the store takes it so.
                let entity = sql.entity
                let statement = sql.statement
                try sql.bindRow(object, sql.encoder, statement, in: self, fixups: &fixups)
                if batch.isOn && sql.text.conflict == nil {
                    try batch.send(statement, .insert(object), inserted: keyReturned)
                    statement.reset()
                    return
                }
                // An upsert the store writes in two statements reads its answer at once (nothing
                // waits where statements run at once: no call per row).
                if batch.isOn { try batch.flush(inserted: keyReturned) }
                let rowID: Int64
                if sql.text.insertReturnsKey {
                    if try statement.step() {
                        rowID = try statement.integer(at: 0)
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
        }
        try batch.flush(inserted: keyReturned)
        // Keys to models inserted later in the same save (not for a model whose row a later insert took over).
        let displaced = Set(upserted.map { ObjectIdentifier($0.0) })
        for (object, slot) in fixups where !displaced.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, let rowID = object.rowID,
                  case .keyColumn(let column) = entity.relationships[slot].storage,
                  let key = keyValue(of: object, slot: slot) else { continue }
            let sql = "UPDATE \(SQLQuote.identifier(entity.tableName)) SET \(SQLQuote.identifier(column)) = ? WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?"
            if batch.isOn {
                let statement = try connection.statement(sql)
                statement.bindInt64(key, at: 1)
                statement.bindInt64(rowID, at: 2)
                try batch.send(statement, .other)
                statement.reset()
            } else {
                try connection.run(sql, [.integer(key), .integer(rowID)])
            }
        }
        try batch.flush()
    }

    /// Where the store writes several inserted rows per statement (docs/PostgreSQL.md, "Batched
    /// writes"): the row batch of each entity with at least `SaveBatch.fewestRowsTogether` rows to
    /// insert (not upserts: their rows may meet in one statement), registered with `batch`, and
    /// their keys, reserved per table in one statement and given to the models in the save's
    /// order (so a row pointing at a model inserted later in the save has its key at once). The
    /// keys go back with `assigned` if the save fails. Nil for the other entities (by index).
    private func reserveKeysForRowsTogether(_ connection: any StoreConnection, _ batch: SaveBatch, removed: Set<ObjectIdentifier>,
                                            assigned: inout [ModelObject]) throws -> [(any RowBatch)?] {
        var rowBatches = [(any RowBatch)?](repeating: nil, count: schema.entities.count)
        guard batch.isOn, inserted.count >= SaveBatch.fewestRowsTogether else { return rowBatches }
        let removes = !removed.isEmpty
        var counts = [Int](repeating: 0, count: schema.entities.count)
        // Each entity's SQL read once, not per model (each read of the unowned container retained it).
        let upserts = container.entitySQL.map(\.isUpsert)
        // Each model borrowed, its entity's index read without holding the entity (as in `writeInserts`).
        inserted.forEachBorrowed { object in
            guard !removes || !removed.contains(ObjectIdentifier(object)), let index = object.entityIndex, !upserts[index] else { return }
            counts[index] += 1
        }
        var tables: [String] = []
        var rowsPerTable: [String: Int] = [:]
        for entity in schema.entities where counts[entity.index] >= SaveBatch.fewestRowsTogether {
            let text = container.entitySQL[entity.index]
            guard let rows = try connection.rowBatch(forInsert: text.insert, table: entity.tableName, typeName: entity.name, columns: text.valueColumns,
                                                       onlyIfRowOf: nil) else { continue }
            rowBatches[entity.index] = rows
            batch.register(rows)
            if rowsPerTable[entity.tableName] == nil { tables.append(entity.tableName) }
            rowsPerTable[entity.tableName, default: 0] += counts[entity.index]
        }
        guard !tables.isEmpty else { return rowBatches }
        // Each table's keys, and the next to hand out, by position in `tables`; each entity's table
        // by entity index (-1: its rows go one statement each).
        var keys: [[Int64]] = []
        var next = [Int](repeating: 0, count: tables.count)
        for table in tables { keys.append(try connection.reserveKeys(in: table, count: rowsPerTable[table] ?? 0)) }
        var tableOf = [Int](repeating: -1, count: schema.entities.count)
        for entity in schema.entities where rowBatches[entity.index] != nil { tableOf[entity.index] = tables.firstIndex(of: entity.tableName) ?? -1 }
        assigned.reserveCapacity(assigned.count + rowsPerTable.values.reduce(0, +))
        inserted.forEachBorrowed { object in
            guard !removes || !removed.contains(ObjectIdentifier(object)), let index = object.entityIndex else { return }
            let table = tableOf[index]
            guard table >= 0 else { return }
            object.rowID = keys[table][next[table]]
            next[table] += 1
            assigned.append(object)
        }
        return rowBatches
    }

    /// Before the inserts, the unique values stored models give up in this save (only the columns
    /// of unique groups; `writeUpdates` writes the rest): else a new model with a value a stored
    /// model changes away from in the same save would take that model's row (an upsert on the old
    /// value), and the stored model's row would be lost. Nothing to do when nothing is inserted.
    private func writeChangedUniqueValues(_ connection: any StoreConnection, _ batch: SaveBatch, removed: Set<ObjectIdentifier>) throws {
        guard !inserted.isEmpty else { return }
        var prepared: [PartialUpdateKey: PreparedUpdate] = [:]
        for object in dirty where object.status == .persisted && !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, !entity.uniqueColumnGroups.isEmpty, let rowID = object.rowID,
                  let record = changeLog.record(of: object) else { continue }
            let changed = record.columns
            var columns = PositionSet()
            // Whole stored attributes (a struct's columns go together), those holding a unique column.
            let unique = Set(entity.uniqueColumnGroups.joined())
            for attribute in entity.storedAttributes where attribute.columns.contains(where: { changed.contains($0) }) {
                if attribute.columns.contains(where: { unique.contains(entity.attributes[$0].column) }) {
                    for column in attribute.columns { columns.insert(column) }
                }
            }
            guard !columns.isEmpty else { continue }
            let update = try preparedUpdate(of: entity, columns: columns, connection, prepared: &prepared, together: nil)
            try update.write(object, rowID: rowID, order: 0, in: self, connection, batch)
        }
        try batch.flush()
    }

    /// Writes the changed columns of each changed saved model: one `UPDATE` per distinct set of
    /// changed columns (made once per context, prepared once per connection), so the other columns
    /// keep what the store holds (another context's write to them survives). The models of
    /// `displaced`, whose row an insert of this save took over (upserted with the same unique
    /// values), are left out: the inserted model's values win.
    private func writeUpdates(_ connection: any StoreConnection, _ batch: SaveBatch, removed: Set<ObjectIdentifier>, displaced: [ModelObject]) throws {
        let removed = displaced.isEmpty ? removed : removed.union(displaced.map(ObjectIdentifier.init))
        let removes = !removed.isEmpty
        // Every update prepared in this save, by entity and changed columns: it holds them until the
        // function returns.
        var prepared: [PartialUpdateKey: PreparedUpdate] = [:]
        // The update each entity (by `EntitySchema.index`) used last: models of one entity changed
        // alike find it without a dictionary lookup, even when the entities alternate. Unretained
        // (`prepared` holds each): taking one was a retain and a release per row.
        var latest = [Unmanaged<PreparedUpdate>?](repeating: nil, count: schema.entities.count)
        let together = batch.updatesTogether ? entitiesUpdatedTogether() : nil
        var order = 0
        // Each model borrowed from the list (`forEachBorrowed`), not retained and released per row.
        try dirty.forEachBorrowed { object in
            // The entity by index, not held through the row's write (the update has it).
            guard object.status == .persisted, !removes || !removed.contains(ObjectIdentifier(object)),
                  let index = object.entityIndex, let rowID = object.rowID, let record = changeLog.record(of: object) else { return }
            let update: Unmanaged<PreparedUpdate>
            if let last = latest[index], last._withUnsafeGuaranteedRef({ $0.writes(record) }) {
                update = last
            } else {
                guard let entity = object.entity else { return }
                let made = try preparedUpdate(of: entity, columns: record.columns, connection, prepared: &prepared,
                                              together: together?[index] == true ? batch : nil)
                update = Unmanaged.passUnretained(made)
                latest[index] = update
            }
            try update._withUnsafeGuaranteedRef { try $0.write(object, rowID: rowID, order: order, in: self, connection, batch) }
            order += 1
        }
        try batch.flush()
    }

    /// Where the store changes several rows per statement (docs/PostgreSQL.md, "Batched writes"):
    /// whether each entity (by index) has at least `SaveBatch.fewestRowsTogether` changed models
    /// to update; nil when no entity has.
    private func entitiesUpdatedTogether() -> [Bool]? {
        guard dirty.count >= SaveBatch.fewestRowsTogether else { return nil }
        var counts = [Int](repeating: 0, count: schema.entities.count)
        // Counted in place (the array's uniqueness checked once, not per model); every model of
        // `dirty` has a change record (`UnsavedChanges`' invariants).
        counts.withUnsafeMutableBufferPointer { counts in
            dirty.forEachBorrowed { object in
                guard object.status == .persisted, let index = object.home?.entity.index else { return }
                counts[index] &+= 1
            }
        }
        guard counts.contains(where: { $0 >= SaveBatch.fewestRowsTogether }) else { return nil }
        return counts.map { $0 >= SaveBatch.fewestRowsTogether }
    }

    /// The update of `columns` of a row of `entity`, prepared on `connection` (once per save; its
    /// SQL made once per context). With `together`, its rows go several per statement where the
    /// store takes them so and no changed column is under a unique constraint or a foreign key
    /// (docs/PostgreSQL.md, "Batched writes").
    private func preparedUpdate(of entity: EntitySchema, columns: PositionSet, _ connection: any StoreConnection,
                                prepared: inout [PartialUpdateKey: PreparedUpdate], together batch: SaveBatch?) throws -> PreparedUpdate {
        let key = PartialUpdateKey(entity: entity.index, columns: columns)
        if let known = prepared[key] { return known }
        let update: PartialUpdate
        if let known = partialUpdates[key] {
            update = known
        } else {
            update = container.entitySQL[entity.index].update(of: entity, columns: columns)
            partialUpdates[key] = update
        }
        // The single-row statement first: the rows take its parameters' types.
        let statement = try connection.statement(update.sql)
        var together: SaveBatch.UpdateRows?
        if let batch, let changed = changedColumnsUpdatedTogether(of: entity, columns: columns),
           let rows = try connection.rowBatch(forUpdate: update.sql, table: entity.tableName, columns: changed) {
            let made = SaveBatch.UpdateRows(rows, entity: entity)
            batch.register(made)
            together = made
        }
        let made = PreparedUpdate(entity: entity, columns: columns, update: update, statement: statement, rows: together)
        prepared[key] = made
        return made
    }

    /// The quoted changed value columns of an update of `columns` of `entity`, in its SQL's order;
    /// nil when one is a to-one key (a foreign key) or under a unique constraint of the entity's
    /// table: a multi-row statement checks those in an order of its own, where one row at a time
    /// the save's order decides (docs/PostgreSQL.md, "Batched writes").
    private func changedColumnsUpdatedTogether(of entity: EntitySchema, columns: PositionSet) -> [String]? {
        let text = container.entitySQL[entity.index]
        let changed = columns.sorted.filter { $0 < text.valueColumns.count }
        guard !changed.isEmpty, changed.allSatisfy({ $0 < entity.attributes.count }) else { return nil }
        let names = changed.map { entity.attributes[$0].column }
        for other in schema.entities where other.tableName == entity.tableName {
            for group in other.uniqueColumnGroups where group.contains(where: names.contains) { return nil }
        }
        return changed.map { text.valueColumns[$0] }
    }

    /// Writes the join-table rows added and removed since the last save.
    ///
    /// Removals go first, then additions: a pair of models has one change (the last), so the
    /// order only matters where two models share a row after an upsert (a new model and the
    /// instance it displaced, or two new ones): the row then ends linked wherever either model
    /// is, as the displaced model's links are carried over to the one that takes its row
    /// (docs/Runtime.md, "Upsert"). Batched statements run in the order they are sent.
    private func writeLinks(_ connection: any StoreConnection, _ batch: SaveBatch) throws {
        for additions in [false, true] {
            for key in linkOrder {
                guard let change = linkChanges[key], change.linked == additions,
                      let source = change.source.rowID, let target = change.target.rowID else { continue }
                let table = SQLQuote.identifier(change.table)
                let sourceColumn = SQLQuote.identifier(StorageNames.source)
                let targetColumn = SQLQuote.identifier(StorageNames.target)
                let sql = change.linked
                    ? connection.dialect.insertIgnoringDuplicate(table: change.table, columns: [StorageNames.source, StorageNames.target])
                    : "DELETE FROM \(table) WHERE \(sourceColumn) = ? AND \(targetColumn) = ?"
                if batch.isOn {
                    let statement = try connection.statement(sql)
                    statement.bindInt64(source, at: 1)
                    statement.bindInt64(target, at: 2)
                    try batch.send(statement, .other)
                    statement.reset()
                } else {
                    try connection.run(sql, [.integer(source), .integer(target)])
                }
            }
        }
        try batch.flush()
    }

    /// Deletes the rows of `deletions`: the deepest wave first (models and rows a cascade reached
    /// before the ones that brought them, so no `ON DELETE SET NULL` rewrites a row about to be
    /// deleted), one statement per table per wave (per `KeyList.chunk` keys). A row another context
    /// deleted already is not an error: it is gone, as asked.
    private func writeDeletes(_ connection: any StoreConnection, _ batch: SaveBatch, _ deletions: Deletions) throws {
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        // A wave's keys by hierarchy (one table each), and the hierarchies in the order the wave
        // meets them (an entity of each, for its table): arrays, not a dictionary by table name.
        var keys = [[Int64]](repeating: [], count: schema.hierarchyCount)
        for wave in deletions.waves.reversed() {
            var tables: [EntitySchema] = []
            for index in wave {
                // Models and rows borrowed (a row's entity retained only for a hierarchy's first key).
                switch deletions.entries[index] {
                case .model(let deleted):
                    deleted.withObject { object in
                        guard let entity = object.entity, let rowID = object.rowID, object.status != .inserted else { return }
                        if keys[entity.hierarchyIndex].isEmpty { tables.append(entity) }
                        keys[entity.hierarchyIndex].append(rowID)
                    }
                case .row(let row):
                    let hierarchy = row.hierarchy
                    if keys[hierarchy].isEmpty { tables.append(row.entity) }
                    keys[hierarchy].append(row.key)
                }
            }
            for entity in tables {
                let hierarchy = entity.hierarchyIndex
                defer { keys[hierarchy].removeAll(keepingCapacity: true) }
                for chunk in KeyList.chunks(keys[hierarchy]) {
                    let filter = KeyList.membership(primaryKey, chunk, connection.dialect)
                    let sql = "DELETE FROM \(SQLQuote.identifier(entity.tableName)) WHERE \(filter.sql)"
                    if batch.isOn {
                        let statement = try connection.statement(sql)
                        statement.bind(filter.bindings)
                        try batch.send(statement, .other)
                        statement.reset()
                    } else {
                        try connection.run(sql, filter.bindings)
                    }
                }
            }
        }
        try batch.flush()
    }

    // MARK: After commit

    private func finishSave(removals: [ModelObject], removed: Set<ObjectIdentifier>, upserted: [(ModelObject, Int64)]) {
        // The saved changes leave the context's lists first: a change an observer makes while the
        // graph is updated below (its `onChange` runs at `willSet`) stays pending for the next save.
        let (saved, savedDirty, savedTouched) = (inserted, dirty, touched)
        clearPendingLists()
        for object in savedDirty { object.changeEntry = 0 }
        // Every record was a saved model's (`UnsavedChanges`' invariants): the log starts over.
        changeLog.removeAll()
        for object in savedTouched.values { object.relationshipsChanged = false }
        // The saved models join their hierarchy's identity map together, in the save's order
        // (`IdentityMap.insertNew`: room made once, where a model at a time probed and grew the
        // table per model, about 250 instructions each).
        var savedByHierarchy = [[ModelObject]](repeating: [], count: saved.isEmpty ? 0 : schema.hierarchyCount)
        for object in saved where !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, object.rowID != nil else { continue }
            object.status = .persisted
            savedByHierarchy[entity.hierarchyIndex].append(object)
        }
        for (hierarchy, objects) in savedByHierarchy.enumerated() where !objects.isEmpty { registered[hierarchy].insertNew(objects) }
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
            previous.changeEntry = 0
            previous.relationshipsChanged = false
            relinkDisplaced(previous, rowID: rowID)
        }
    }
}

/// A partial `UPDATE` prepared for one save, with what `writeUpdates` needs per row.
private final class PreparedUpdate {
    /// The entity whose rows it writes.
    let entity: EntitySchema
    /// The changed value columns it writes.
    let columns: PositionSet
    /// The one column of `columns`; -1 when it has several.
    let onlyColumn: Int32
    /// Where the encoder writes each stored attribute (parameter index, -1 for an unchanged one).
    let positions: [Int32]
    /// The changed to-one key columns: the relationship slot and the parameter of each.
    let keyBindings: [(slot: Int, parameter: Int32)]
    /// Whether `keyBindings` has any.
    let bindsKeys: Bool
    /// The parameter of the row's key.
    let keyParameter: Int32
    let statement: any StoreStatement
    /// Where its rows go several per statement (`SaveBatch.UpdateRows`), else nil.
    let rows: SaveBatch.UpdateRows?
    /// The statement its rows are bound into: the rows' (a row changed with others is bound
    /// straight into them), else `statement`.
    let target: any StoreStatement
    /// The encoder of `target` (an encoder binds one statement: `RowEncoder.statement`).
    let encoder: RowEncoder

    /// Writes the changed columns of `object`, whose row is `rowID` (the `order`-th of the save's
    /// step). A method of the update so its fields (`let`s) are read without retaining them per row.
    func write(_ object: ModelObject, rowID: Int64, order: Int,
               in context: ModelContext, _ connection: any StoreConnection, _ batch: SaveBatch) throws {
        encoder.restartRow()
        object._encode(to: encoder)
        try context.checkStorable(encoder, entity: entity)
        if bindsKeys {
            for (slot, parameter) in keyBindings {
                if let key = context.keyValue(of: object, slot: slot) {
                    target.bindInt64(key, at: parameter)
                } else {
                    target.bindNull(at: parameter)
                }
            }
        }
        // Tested and unwrapped in place: bound to a name (`if let`), the rows were retained and
        // released per row.
        if rows != nil {
            defer { target.reset() }
            try batch.add(rows!, object: object, order: order, key: rowID, from: target)
            return
        }
        statement.bindInt64(rowID, at: keyParameter)
        if batch.isOn {
            try batch.send(statement, .update(object, entity, order: order))
        } else {
            try statement.run()
            try context.checkRowChanged(connection, object: object, entity: entity)
        }
        statement.reset()
    }

    /// Whether it writes exactly the columns `record` changed: for a one-column record and a
    /// one-column update, two integers compared (a set compared through calls retained the
    /// record, the update and the set's storage per row).
    @inline(__always) func writes(_ record: ChangeRecord) -> Bool {
        // A one-column record's `firstColumn`; -1 for a wide one.
        let only = record.firstColumn
        if only >= 0 && onlyColumn >= 0 { return only == onlyColumn }
        return record.changedColumnsAre(columns)
    }

    init(entity: EntitySchema, columns: PositionSet, update: PartialUpdate, statement: any StoreStatement, rows: SaveBatch.UpdateRows?) {
        self.entity = entity
        self.columns = columns
        let sorted = columns.sorted
        onlyColumn = sorted.count == 1 ? Int32(sorted[0]) : -1
        self.positions = update.positions
        let keyBindings = zip(entity.keySlots, update.keyParameters).filter { $0.1 > 0 }.map { (slot: $0.0, parameter: $0.1) }
        self.keyBindings = keyBindings
        self.bindsKeys = !keyBindings.isEmpty
        self.keyParameter = update.keyParameter
        self.statement = statement
        self.rows = rows
        target = rows?.rows.rowStatement ?? statement
        encoder = RowEncoder(statement: target, positions: update.positions)
    }
}

/// An entity's insert statement of one save, with what `writeInserts` needs of its `EntitySQL`.
private final class PreparedInsert {
    let entity: EntitySchema
    /// The entity's SQL: the insert's bind positions, whether it returns the key, its upsert conflict handling.
    let text: EntitySQL
    let statement: any StoreStatement
    /// The encoder of `statement` (an encoder binds one statement: `RowEncoder.statement`).
    let encoder: RowEncoder
    /// The entity's row batch of the save, if it has one: its rows go several per statement.
    let rows: (any RowBatch)?
    /// The statement the rows are bound into (`RowBatch.rowStatement`), with `rows`.
    let rowsStatement: (any StoreStatement)?
    /// The encoder of `rowsStatement`, with `rows`.
    let rowsEncoder: RowEncoder?

    init(entity: EntitySchema, text: EntitySQL, statement: any StoreStatement, rows: (any RowBatch)?) {
        self.entity = entity
        self.text = text
        self.statement = statement
        self.rows = rows
        rowsStatement = rows?.rowStatement
        encoder = RowEncoder(statement: statement, positions: text.insertPositions)
        rowsEncoder = rows.map { RowEncoder(statement: $0.rowStatement, positions: text.insertPositions) }
    }

    /// Encodes the row of `object` with `encoder` (into `statement`, its statement), and binds the
    /// to-one keys after the attributes: a key not known yet is bound NULL and listed in `fixups`
    /// (its related model is inserted later in the save).
    @inline(__always) func bindRow(_ object: ModelObject, _ encoder: RowEncoder, _ statement: any StoreStatement, in context: ModelContext,
                                   fixups: inout [(ModelObject, Int)]) throws {
        encoder.restartRow()
        object._encode(to: encoder)
        try context.checkStorable(encoder, entity: entity)
        guard !entity.keySlots.isEmpty else { return }
        var index = Int32(1 + entity.attributes.count)
        for slot in entity.keySlots {
            if let key = context.keyValue(of: object, slot: slot) {
                statement.bindInt64(key, at: index)
            } else {
                statement.bindNull(at: index)
                if RelationshipGraph.loadedToOne(of: object, slot: slot) != nil { fixups.append((object, slot)) }
            }
            index += 1
        }
    }

    /// Binds the row of `object`, whose key is `key`, into `rows` (the caller checked it has them).
    /// A method of the insert, so its fields (`let`s) are read without retaining them per row.
    func addRow(_ object: ModelObject, key: Int64, in context: ModelContext, _ batch: SaveBatch, fixups: inout [(ModelObject, Int)],
                inserted: (ModelObject, Int64?) throws -> Void) throws {
        try bindRow(object, rowsEncoder!, rowsStatement!, in: context, fixups: &fixups)
        try batch.add(rows!, key: key, from: rowsStatement!, inserted: inserted)
        rowsStatement!.reset()
    }
}
