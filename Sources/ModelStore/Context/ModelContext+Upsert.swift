import Foundation

extension ModelContext {
    /// The second half of an upsert over several unique groups (`EntitySQL.UpsertConflict`): the
    /// insert of `object` returned no key because a stored row holds the values of one of its
    /// unique groups; that row is locked and takes `object`'s values. Returns its key.
    ///
    /// Under concurrent writers (PostgreSQL, read committed) the insert waited for any transaction
    /// inserting the same values and found its row committed, so the lookup, a new statement, sees
    /// it; a row deleted by another transaction in between is inserted again.
    ///
    /// - Throws: the store's error (a unique group that another row holds makes the update fail,
    ///   as SQLite's upsert does); `ModelStoreError.invalidSchema` when the conflicting row keeps
    ///   disappearing.
    func upsertIntoConflictingRow(_ object: ModelObject, entity: EntitySchema, sql: EntitySQL, conflict: EntitySQL.UpsertConflict,
                                  _ connection: any StoreConnection) throws -> Int64 {
        let encoder = RowEncoder(valueCount: entity.attributes.count, positions: entity.attributeValuePositions)
        object._encode(to: encoder)
        var values = encoder.values
        for slot in entity.keySlots { values.append(keyValue(of: object, slot: slot).map(SQLValue.integer) ?? .null) }
        let lookup = conflict.lookupValues.map { values[$0] }
        for _ in 0..<8 {
            if case .integer(let key)? = try connection.rows(conflict.lookup, lookup).first?.first {
                try connection.run(conflict.update, [.text(entity.name)] + values + [.integer(key)])
                return key
            }
            if case .integer(let key)? = try connection.rows(sql.insert, values).first?.first { return key }
        }
        throw ModelStoreError.invalidSchema("an insert into \(entity.tableName) kept conflicting with a row that was gone when looked up")
    }

    /// Before the inserts: the rows this save deletes (models deleted in the context, rows their
    /// delete rules reach) of each hierarchy with unique values that the save also inserts into
    /// are deleted first, so their unique values are free. Else an insert with a deleted model's
    /// unique values would upsert onto its row, which the save then deletes, and the new model
    /// would be lost (docs/Runtime.md, "Upsert"). History records these deletions as the save's
    /// other ones (`Deletions.deletedEarly`). Nothing to do unless the save inserts and deletes.
    ///
    /// - Throws: the store's error.
    func deleteRowsThatFreeUniqueValues(_ connection: any StoreConnection, _ deletions: inout Deletions) throws {
        guard !inserted.isEmpty, !deletions.entries.isEmpty else { return }
        var inserting = Set<Int>()
        for object in inserted where !deletions.contains(object) {
            if let entity = object.entity, container.entitySQL[entity.index].isUpsert { inserting.insert(entity.hierarchyIndex) }
        }
        guard !inserting.isEmpty else { return }
        var keys: [String: [Int64]] = [:]
        var tables: [String] = []
        for entry in deletions.entries {
            let entity: EntitySchema, key: Int64
            switch entry {
            case .model(let deleted):
                let object = deleted.object
                guard object.status != .inserted, let own = object.entity, let rowID = object.rowID else { continue }
                (entity, key) = (own, rowID)
            case .row(let row):
                (entity, key) = (row.entity, row.key)
            }
            guard inserting.contains(entity.hierarchyIndex) else { continue }
            if keys[entity.tableName] == nil { tables.append(entity.tableName) }
            keys[entity.tableName, default: []].append(key)
            deletions.deletedEarly.insert(Deletions.TombstoneKey(hierarchy: entity.hierarchyIndex, key: key))
        }
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        for table in tables {
            for chunk in KeyList.chunks(keys[table] ?? []) {
                let filter = KeyList.membership(primaryKey, chunk, connection.dialect)
                try connection.run("DELETE FROM \(SQLQuote.identifier(table)) WHERE \(filter.sql)", filter.bindings)
            }
        }
        deletions.deletedEarlyByTable = keys
    }

    /// After the save's updates and links, what the foreign keys' `ON DELETE` actions do for the
    /// rows `deleteRowsThatFreeUniqueValues` deleted before them: key columns written since that
    /// name such a row become NULL (`ON DELETE SET NULL`; a `.noAction` relationship of a changed
    /// model), join rows naming one go (`ON DELETE CASCADE`). Else the commit would fail on a
    /// reference to a missing row, where the rows deleted at the end of the save clear them.
    ///
    /// - Throws: the store's error.
    func repairReferencesToRowsDeletedEarly(_ connection: any StoreConnection, _ deletions: Deletions) throws {
        guard !deletions.deletedEarlyByTable.isEmpty else { return }
        for table in schema.storage.tables {
            let name = SQLQuote.identifier(table.name)
            if table.isJoinTable {
                for (column, referenced) in zip([StorageNames.source, StorageNames.target], table.joinReferences) {
                    for chunk in KeyList.chunks(deletions.deletedEarlyByTable[referenced] ?? []) {
                        let filter = KeyList.membership(SQLQuote.identifier(column), chunk, connection.dialect)
                        try connection.run("DELETE FROM \(name) WHERE \(filter.sql)", filter.bindings)
                    }
                }
                continue
            }
            for column in table.columns {
                guard let referenced = column.references else { continue }
                for chunk in KeyList.chunks(deletions.deletedEarlyByTable[referenced] ?? []) {
                    let filter = KeyList.membership(SQLQuote.identifier(column.name), chunk, connection.dialect)
                    try connection.run("UPDATE \(name) SET \(SQLQuote.identifier(column.name)) = NULL WHERE \(filter.sql)", filter.bindings)
                }
            }
        }
    }
}
