import Foundation

/// What remains of a deleted model: the values of its `@Attribute(.preserveValueOnDeletion)`
/// properties, kept in the store after the deletion was saved.
public struct Tombstone<T: PersistentModel> {
    /// The identifier the model had.
    public let persistentModelID: PersistentIdentifier
    /// When the deletion was saved.
    public let deletedAt: Date
    /// The preserved values by property name, as stored.
    public let storedValues: [String: SQLValue]
    let entity: EntitySchema

    /// The preserved value of a property, nil if it was not preserved (or was nil).
    public subscript<Value: SQLStorable>(keyPath: KeyPath<T, Value>) -> Value? {
        guard let name = entity.property(forKeyPath: keyPath), let value = storedValues[name] else { return nil }
        return Value(sqlValue: value)
    }
}

extension ModelContext {
    /// Tombstones of deleted models of `type` (and its subclasses), oldest first.
    public func tombstones<T: PersistentModel>(for type: T.Type) throws -> [Tombstone<T>] {
        guards.enter()
        defer { guards.leave() }
        let entity = try entity(for: type)
        let names = entity.typeNames
        let table = SQLQuote.identifier(StorageNames.tombstoneTable)
        let values = SQLQuote.identifier(StorageNames.tombstoneValueTable)
        let rows = try connection().rows(
            "SELECT t.id, t.entity, t.rowID, t.deletedAt, v.property, v.value FROM \(table) t LEFT JOIN \(values) v ON v.tombstone = t.id "
            + "WHERE t.entity IN (\(names.map { _ in "?" }.joined(separator: ", "))) ORDER BY t.id",
            names.map(SQLValue.text))
        var result: [Tombstone<T>] = []
        var currentID: Int64?
        for row in rows {
            guard case .integer(let id) = row[0], case .text(let name) = row[1], case .integer(let rowID) = row[2],
                  let deletedAt = Date(sqlValue: row[3]) else { continue }
            if currentID != id {
                currentID = id
                result.append(Tombstone(persistentModelID: PersistentIdentifier(entityName: name, rowID: rowID),
                                        deletedAt: deletedAt, storedValues: [:], entity: schema.entity(named: name) ?? entity))
            }
            if case .text(let property) = row[4], let last = result.popLast() {
                var values = last.storedValues
                values[property] = row[5]
                result.append(Tombstone(persistentModelID: last.persistentModelID, deletedAt: last.deletedAt,
                                        storedValues: values, entity: last.entity))
            }
        }
        return result
    }

    /// Removes the tombstones of `type` (and its subclasses).
    public func removeTombstones<T: PersistentModel>(for type: T.Type) throws {
        guards.enter()
        defer { guards.leave() }
        let entity = try entity(for: type)
        let names = entity.typeNames
        try connection().run("DELETE FROM \(SQLQuote.identifier(StorageNames.tombstoneTable)) WHERE entity IN (\(names.map { _ in "?" }.joined(separator: ", ")))",
                             names.map(SQLValue.text))
    }
}
