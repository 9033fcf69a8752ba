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
}
