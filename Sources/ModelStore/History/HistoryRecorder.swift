import Foundation

/// What a save wrote, as permanent identifiers (the `didSave` notification's contents).
struct SavedChanges {
    var inserted: [PersistentIdentifier] = []
    var updated: [PersistentIdentifier] = []
    var deleted: [PersistentIdentifier] = []
}

/// One change as history records it.
private struct RecordedChange {
    let kind: HistoryTables.Kind
    let entity: EntitySchema
    let row: Int64
    /// Updated property names (updates).
    var attributes: [String] = []
    /// Preserved values (deletes).
    var tombstone: [(name: String, value: SQLValue)] = []
}

extension ModelContext {
    /// Hook of `save()`, inside its database transaction, after the inserts, updates and
    /// join-table rows were written and before the deletes: collects what the save changes and,
    /// when the configuration `recordsHistory`, writes the save's transaction and its changes.
    ///
    /// - inserts: the inserted models (keys assigned by now);
    /// - updates: changed saved models with the properties whose stored value differs from the
    ///   snapshot taken at their first change (attributes, and to-one relationships whose key
    ///   changed), and models whose many-to-many links changed (with that relationship);
    /// - deletes: deleted models (cascades included) whose row is still in the store, with their
    ///   `preserveValueOnDeletion` values as stored: a row deleted through two contexts gets one
    ///   delete change.
    func recordSave(_ connection: Connection, removals: [ModelObject]) throws -> SavedChanges {
        let removed = Set(removals.map(ObjectIdentifier.init))
        let history = container.configuration.recordsHistory
        var saved = SavedChanges()
        var changes: [RecordedChange] = []

        for object in inserted where !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, let rowID = object.rowID else { continue }
            saved.inserted.append(PersistentIdentifier(entityName: entity.name, rowID: rowID))
            if history { changes.append(RecordedChange(kind: .insert, entity: entity, row: rowID)) }
        }

        // Updated models: in `saved.updated` once; in `changes` (by `updateIndex`) when a stored
        // value changed (a model changed back to its saved values is written, but changed nothing).
        var listed: Set<ObjectIdentifier> = []
        var updateIndex: [ObjectIdentifier: Int] = [:]
        let encoder = RowEncoder()
        for object in dirty where object.status == .persisted && !removed.contains(ObjectIdentifier(object)) {
            guard let entity = object.entity, let rowID = object.rowID else { continue }
            listed.insert(ObjectIdentifier(object))
            saved.updated.append(PersistentIdentifier(entityName: entity.name, rowID: rowID))
            guard history else { continue }
            let names = changedProperties(of: object, entity, encoder)
            if names.isEmpty { continue }
            updateIndex[ObjectIdentifier(object)] = changes.count
            changes.append(RecordedChange(kind: .update, entity: entity, row: rowID, attributes: names))
        }
        for key in linkOrder {
            guard let link = linkChanges[key], link.source.rowID != nil, link.target.rowID != nil else { continue }
            for (object, column) in [(link.source, StorageNames.source), (link.target, StorageNames.target)] {
                guard object.status == .persisted, !removed.contains(ObjectIdentifier(object)),
                      let entity = object.entity, let rowID = object.rowID else { continue }
                if listed.insert(ObjectIdentifier(object)).inserted {
                    saved.updated.append(PersistentIdentifier(entityName: entity.name, rowID: rowID))
                }
                // The relationship stored in this join table on this side (none for the target
                // side of a to-many without inverse).
                guard history, let name = entity.relationships.first(where: {
                    if case .joinTable(link.table, column, _) = $0.storage { return true }
                    return false
                })?.name else { continue }
                if let index = updateIndex[ObjectIdentifier(object)] {
                    if !changes[index].attributes.contains(name) { changes[index].attributes.append(name) }
                } else {
                    updateIndex[ObjectIdentifier(object)] = changes.count
                    changes.append(RecordedChange(kind: .update, entity: entity, row: rowID, attributes: [name]))
                }
            }
        }

        var preservedByEntity: [ObjectIdentifier: [(offset: Int, name: String)]] = [:]
        for object in removals where object.status != .inserted {
            guard let entity = object.entity, let rowID = object.rowID else { continue }
            saved.deleted.append(PersistentIdentifier(entityName: entity.name, rowID: rowID))
            guard history else { continue }
            let preserved: [(offset: Int, name: String)]
            if let known = preservedByEntity[ObjectIdentifier(entity)] {
                preserved = known
            } else {
                preserved = entity.attributes.enumerated()
                    .filter { $0.element.metadata.options.contains(.preserveValueOnDeletion) }
                    .map { (offset: $0.offset, name: $0.element.name) }
                preservedByEntity[ObjectIdentifier(entity)] = preserved
            }
            var change = RecordedChange(kind: .delete, entity: entity, row: rowID)
            if !preserved.isEmpty {
                // The values as stored: a model changed before its deletion kept its saved row's.
                let values: [SQLValue]
                if let snapshot = object.snapshot {
                    values = snapshot
                } else {
                    encoder.state.pointee.values.removeAll(keepingCapacity: true)
                    object._encode(to: encoder)
                    values = encoder.values
                }
                change.tombstone = preserved.compactMap { $0.offset < values.count ? ($0.name, values[$0.offset]) : nil }
            }
            changes.append(change)
        }

        if !changes.isEmpty { try HistoryWriter.write(changes, author: author, connection: connection) }
        return saved
    }

    /// The properties of a changed saved model whose stored form differs from its snapshot.
    private func changedProperties(of object: ModelObject, _ entity: EntitySchema, _ encoder: RowEncoder) -> [String] {
        guard let snapshot = object.snapshot else { return [] }
        encoder.state.pointee.values.removeAll(keepingCapacity: true)
        object._encode(to: encoder)
        let current = encoder.values
        var names: [String] = []
        for (offset, attribute) in entity.attributes.enumerated() where offset < current.count && offset < snapshot.count {
            if current[offset] != snapshot[offset] { names.append(attribute.name) }
        }
        for (index, slot) in entity.keySlots.enumerated() {
            let position = entity.attributes.count + index
            guard position < snapshot.count else { continue }
            if (keyValue(of: object, slot: slot).map(SQLValue.integer) ?? .null) != snapshot[position] {
                names.append(entity.relationships[slot].name)
            }
        }
        return names
    }
}

/// Writes a save's transaction and changes (one prepared statement per kind of row, reused).
private enum HistoryWriter {
    /// Who writes: the bundle identifier (the process name where there is no bundle) and the pid.
    static let bundle = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    static let process = String(ProcessInfo.processInfo.processIdentifier)

    static func write(_ changes: [RecordedChange], author: String?, connection: Connection) throws {
        let token = try nextToken(connection)
        let columns = HistoryTables.changeColumns.map(SQLQuote.identifier).joined(separator: ", ")
        let table = SQLQuote.identifier(HistoryTables.changes)
        let insert = try connection.statement("INSERT INTO \(table) (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
        var conditional: [String: Statement] = [:]
        var unconditional = 0
        for (index, change) in changes.enumerated() {
            let statement: Statement
            if change.kind == .delete {
                // Only if the row is still there: another context may have deleted it already.
                if let known = conditional[change.entity.tableName] {
                    statement = known
                } else {
                    statement = try connection.statement(
                        "INSERT INTO \(table) (\(columns)) SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM "
                        + "\(SQLQuote.identifier(change.entity.tableName)) WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?)")
                    conditional[change.entity.tableName] = statement
                }
                statement.bindInt64(change.row, at: 8)
            } else {
                statement = insert
                unconditional += 1
            }
            statement.bindInt64(token, at: 1)
            statement.bindInt64(Int64(index), at: 2)
            statement.bindInt64(change.kind.rawValue, at: 3)
            statement.bindText(change.entity.name, at: 4)
            statement.bindInt64(change.row, at: 5)
            if change.attributes.isEmpty {
                statement.bind(.null, at: 6)
            } else {
                statement.bindText(change.attributes.joined(separator: ","), at: 6)
            }
            if change.tombstone.isEmpty {
                statement.bind(.null, at: 7)
            } else {
                statement.bindBlob(TombstoneCoding.encode(change.tombstone), at: 7)
            }
            try statement.run()
            statement.reset()
        }
        if unconditional == 0 {
            // Only deletes of rows other contexts may have removed: no transaction if none was.
            let rows = try connection.rows("SELECT count(*) FROM \(table) WHERE \(SQLQuote.identifier("token")) = ?", [.integer(token)])
            guard case .integer(let count)? = rows.first?.first, count > 0 else { return }
        }
        try connection.run(
            "INSERT INTO \(SQLQuote.identifier(HistoryTables.transactions)) (\(SQLQuote.identifier("token")), \(SQLQuote.identifier("author")), "
            + "\(SQLQuote.identifier("timestamp")), \(SQLQuote.identifier("bundle")), \(SQLQuote.identifier("process"))) VALUES (?, ?, ?, ?, ?)",
            [.integer(token), author.map(SQLValue.text) ?? .null, .real(Date().timeIntervalSinceReferenceDate), .text(bundle), .text(process)])
    }

    /// The next token of the store: the counter row's, incremented inside the saving
    /// transaction (so tokens follow commit order); the row is made, with the store's
    /// identifier, by the first save that records history.
    private static func nextToken(_ connection: Connection) throws -> Int64 {
        let counter = SQLQuote.identifier(HistoryTables.counter)
        let last = SQLQuote.identifier("lastToken")
        let rows = try connection.rows("UPDATE \(counter) SET \(last) = \(last) + 1 WHERE \(SQLQuote.identifier("id")) = 1 RETURNING \(last)")
        if case .integer(let token)? = rows.first?.first { return token }
        try connection.run("INSERT INTO \(counter) (\(SQLQuote.identifier("id")), \(SQLQuote.identifier("store")), \(last), \(SQLQuote.identifier("deletedThrough"))) VALUES (1, ?, 1, 0)",
                           [.text(UUID().uuidString)])
        return 1
    }
}
