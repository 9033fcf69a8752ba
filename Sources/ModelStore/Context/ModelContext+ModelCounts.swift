/// `minimumModelCount` and `maximumModelCount` of to-many relationships, checked by `save()` as
/// SwiftData's save validates them (docs/Runtime.md, "Model counts"): inside the save's
/// transaction, after its writes, on the rows as the save leaves them, for every model whose
/// list the save may change. Nothing is done for a schema without such a relationship.
extension ModelContext {
    /// The owners (row keys, by relationship in `schema.countedRelationships` order) whose counts
    /// the save may change: the inserted, changed and relinked models that have the relationship
    /// (their keys known once the inserts are written), and the owners of the rows the save
    /// deletes (read before the deletes). Empty when the schema counts nothing.
    func ownersToCount(_ connection: any StoreConnection, _ deletions: Deletions) throws -> [Set<Int64>] {
        let counted = schema.countedRelationships
        guard !counted.isEmpty else { return [] }
        var owners = Array(repeating: Set<Int64>(), count: counted.count)
        func note(_ object: ModelObject) {
            guard object.status == .inserted || object.status == .persisted, let entity = object.entity,
                  let rowID = object.rowID, !deletions.contains(object) else { return }
            for (index, relationship) in counted.enumerated() where entity.relationships.contains(where: { $0 === relationship }) {
                owners[index].insert(rowID)
            }
        }
        for object in inserted { note(object) }
        for object in dirty { note(object) }
        for object in touched.values { note(object) }
        let primaryKey = SQLQuote.identifier(StorageNames.primaryKey)
        for (index, relationship) in counted.enumerated() {
            guard let destination = schema.entity(named: relationship.destinationName) else { continue }
            let deleted = deletions.keys(inHierarchy: destination.hierarchyIndex)
            guard !deleted.isEmpty else { continue }
            // The member column comes quoted (the primary key is, already).
            let (table, ownerColumn, memberColumn): (String, String, String)
            switch relationship.storage {
            case .inverseKeyColumn(let keyTable, let column): (table, ownerColumn, memberColumn) = (keyTable, column, primaryKey)
            case .joinTable(let joinTable, let ownColumn, let otherColumn): (table, ownerColumn, memberColumn) = (joinTable, ownColumn, SQLQuote.identifier(otherColumn))
            case .keyColumn: continue
            }
            let owner = SQLQuote.identifier(ownerColumn)
            for chunk in KeyList.chunks(deleted) {
                let filter = KeyList.membership(memberColumn, chunk, connection.dialect)
                let statement = try connection.statement("SELECT DISTINCT \(owner) FROM \(SQLQuote.identifier(table)) WHERE \(filter.sql) AND \(owner) IS NOT NULL")
                statement.bind(filter.bindings)
                defer { statement.reset() }
                while try statement.step() {
                    owners[index].insert(try statement.integer(at: 0))
                }
            }
        }
        return owners
    }

    /// Throws `ModelStoreError.modelCountOutOfRange` for the first owner of `owners` (as
    /// `ownersToCount` gives them, counted once the save's writes and deletes are done) whose
    /// list is outside its relationship's limits. An optional to-many (`[E]?`) may be empty.
    func checkModelCounts(_ connection: any StoreConnection, _ owners: [Set<Int64>], _ deletions: Deletions) throws {
        for (relationship, keys) in zip(schema.countedRelationships, owners) where !keys.isEmpty {
            guard let ownerEntity = schema.entity(named: relationship.entityName) else { continue }
            let (table, ownerColumn): (String, String)
            switch relationship.storage {
            case .inverseKeyColumn(let keyTable, let column): (table, ownerColumn) = (keyTable, column)
            case .joinTable(let joinTable, let ownColumn, _): (table, ownerColumn) = (joinTable, ownColumn)
            case .keyColumn: continue
            }
            let owner = SQLQuote.identifier(ownerColumn)
            var counts: [Int64: Int] = [:]
            let live = keys.filter { !deletions.contains(hierarchy: ownerEntity.hierarchyIndex, key: $0) }.sorted()
            for chunk in KeyList.chunks(live) {
                let filter = KeyList.membership(owner, chunk, connection.dialect)
                let statement = try connection.statement("SELECT \(owner), COUNT(*) FROM \(SQLQuote.identifier(table)) WHERE \(filter.sql) GROUP BY \(owner)")
                statement.bind(filter.bindings)
                defer { statement.reset() }
                while try statement.step() {
                    counts[try statement.integer(at: 0)] = Int(try statement.integer(at: 1))
                }
            }
            for key in live {
                let count = counts[key] ?? 0
                let tooMany = relationship.maximumModelCount > 0 && count > relationship.maximumModelCount
                let tooFew = count < relationship.minimumModelCount && !(relationship.isOptional && count == 0)
                if tooMany || tooFew {
                    throw ModelStoreError.modelCountOutOfRange(
                        entity: relationship.entityName, relationship: relationship.name, count: count,
                        minimumModelCount: relationship.minimumModelCount, maximumModelCount: relationship.maximumModelCount)
                }
            }
        }
    }
}
