extension HistoryTables {
    /// Keeps the history readable across a migration that renames entities (`@Entity(originalName:)`)
    /// or attributes (`originalName:`): the changes of a renamed entity take its new name, and the
    /// updated-attribute lists and tombstones of the entity types in `attributes` (new names)
    /// take the attribute's new name. Runs inside the migration's transaction.
    ///
    /// - Throws: the store's error.
    static func rename(entities: [String: String], attributes: [(entityTypes: [String], old: String, new: String)],
                       on connection: any StoreConnection) throws {
        let table = SQLQuote.identifier(changes)
        let entity = SQLQuote.identifier("entity")
        for (old, new) in entities.sorted(by: { $0.key < $1.key }) {
            try connection.run("UPDATE \(table) SET \(entity) = ? WHERE \(entity) = ?", [.text(new), .text(old)])
        }
        let (token, change) = (SQLQuote.identifier("token"), SQLQuote.identifier("change"))
        let (names, tombstone) = (SQLQuote.identifier("attributes"), SQLQuote.identifier("tombstone"))
        for rename in attributes where !rename.entityTypes.isEmpty {
            let rows = try connection.rows(
                "SELECT \(token), \(change), \(names), \(tombstone) FROM \(table) WHERE \(entity) IN ("
                + rename.entityTypes.map { _ in "?" }.joined(separator: ", ") + ") AND (\(names) IS NOT NULL OR \(tombstone) IS NOT NULL)",
                rename.entityTypes.map(SQLValue.text))
            for row in rows where row.count == 4 {
                var renamedNames = row[2]
                if case .text(let list) = row[2] {
                    renamedNames = .text(list.split(separator: ",").map { $0 == rename.old ? rename.new : String($0) }.joined(separator: ","))
                }
                var renamedTombstone = row[3]
                if case .blob(let data) = row[3], let values = TombstoneCoding.decode(data) {
                    renamedTombstone = .blob(TombstoneCoding.encode(values.map { ($0.name == rename.old ? rename.new : $0.name, $0.value) }))
                }
                guard renamedNames != row[2] || renamedTombstone != row[3] else { continue }
                try connection.run("UPDATE \(table) SET \(names) = ?, \(tombstone) = ? WHERE \(token) = ? AND \(change) = ?",
                                   [renamedNames, renamedTombstone, row[0], row[1]])
            }
        }
    }
}
