import Foundation

/// A descriptor as SQL: the transactions it selects, in its order.
private struct HistorySelection {
    var whereClause = ""
    var orderClause = ""
    var limitClause = ""
    var bindings: [SQLValue] = []
    var limitBindings: [SQLValue] = []
    var tokensAfter: [Int64] = []

    init(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        if let predicate = descriptor.predicate {
            let filter = try HistoryPredicateSQL.filter(predicate)
            whereClause = " WHERE " + filter.sql
            bindings = filter.bindings
            tokensAfter = filter.tokensAfter
        }
        var terms: [String] = []
        for sort in descriptor.sortBy {
            guard let keyPath = sort.keyPath, let column = HistoryPredicateSQL.column(for: keyPath) else {
                throw ModelStoreError.unsupportedPredicate("history: sort by \(sort.keyPath.map { "\($0)" } ?? "a comparator") (only token, transactionIdentifier, timestamp and author)")
            }
            terms.append(column.sql + (sort.order == .forward ? " ASC" : " DESC"))
        }
        terms.append(HistoryColumn.token.sql + " ASC")
        orderClause = " ORDER BY " + terms.joined(separator: ", ")
        if let limit = descriptor.fetchLimit {
            limitClause = " LIMIT ?"
            limitBindings = [.integer(Int64(max(0, limit)))]
        }
    }

    /// The selected transactions' tokens, as a subquery, and its bindings.
    var tokens: (sql: String, bindings: [SQLValue]) {
        ("SELECT \(HistoryColumn.token.sql) FROM \(SQLQuote.identifier(HistoryTables.transactions))" + whereClause
            + (limitClause.isEmpty ? "" : orderClause + limitClause), bindings + limitBindings)
    }
}

/// The history row of the store: its identifier and the newest deleted token.
private struct HistoryCounter {
    let store: String
    let deletedThrough: Int64

    static func read(_ connection: Connection) throws -> HistoryCounter? {
        let rows = try connection.rows("SELECT \(SQLQuote.identifier("store")), \(SQLQuote.identifier("deletedThrough")) FROM "
                                       + "\(SQLQuote.identifier(HistoryTables.counter)) WHERE \(SQLQuote.identifier("id")) = 1")
        guard let row = rows.first, row.count == 2, case .text(let store) = row[0], case .integer(let deleted) = row[1] else { return nil }
        return HistoryCounter(store: store, deletedThrough: deleted)
    }
}

extension ModelContext {
    /// The store's saved transactions that match `descriptor`, with their changes (SwiftData's
    /// `fetchHistory`): every save of any context or process on the store, in token order unless
    /// `sortBy` says otherwise. Changes of entities this container's schema does not have are
    /// left out.
    ///
    /// - Throws: `ModelStoreError.unsupportedPredicate` for a predicate or sort outside the forms
    ///   `HistoryDescriptor` lists; `ModelStoreError.historyTokenExpired` when the predicate asks
    ///   for transactions after a token (`$0.token > t`) and history after `t` was deleted (the
    ///   results would have a gap: start again from the oldest); `ModelStoreError.corruptHistory`
    ///   for a change that cannot be read; `SQLiteError` when the store cannot be read.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        let selection = try HistorySelection(descriptor)
        let connection = try connection()
        // One read transaction: the transactions and their changes from the same snapshot.
        let ownsTransaction = !connection.isInTransaction
        if ownsTransaction { try connection.execute("BEGIN") }
        defer { if ownsTransaction { try? connection.execute("COMMIT") } }
        guard let counter = try HistoryCounter.read(connection) else { return [] }
        if let after = selection.tokensAfter.min(), after < counter.deletedThrough {
            throw ModelStoreError.historyTokenExpired
        }

        let transactionRows = try connection.rows(
            "SELECT \(HistoryColumn.token.sql), \(HistoryColumn.author.sql), \(HistoryColumn.timestamp.sql), "
            + "\(SQLQuote.identifier("bundle")), \(SQLQuote.identifier("process")) FROM \(SQLQuote.identifier(HistoryTables.transactions))"
            + selection.whereClause + selection.orderClause + selection.limitClause, selection.bindings + selection.limitBindings)
        guard !transactionRows.isEmpty else { return [] }
        let changes = try readChanges(connection, selection)

        var result: [DefaultHistoryTransaction] = []
        result.reserveCapacity(transactionRows.count)
        for row in transactionRows {
            guard row.count == 5, case .integer(let token) = row[0], case .real(let seconds) = row[2],
                  case .text(let bundle) = row[3], case .text(let process) = row[4] else {
                throw ModelStoreError.corruptHistory("a transaction row of unexpected shape: \(row)")
            }
            var author: String?
            if case .text(let text) = row[1] { author = text }
            result.append(DefaultHistoryTransaction(
                storeIdentifier: counter.store, bundleIdentifier: bundle, processIdentifier: process,
                transactionIdentifier: token, token: DefaultHistoryToken(storeIdentifier: counter.store, value: token),
                author: author, changes: changes[token] ?? [], timestamp: Date(timeIntervalSinceReferenceDate: seconds)))
        }
        return result
    }

    /// Deletes the transactions that match `descriptor`, and their changes (SwiftData's
    /// `deleteHistory`), e.g. those before the last token every reader has processed:
    /// `#Predicate { $0.token < processed }`. A later fetch after a token older than the newest
    /// deleted transaction throws `historyTokenExpired`.
    ///
    /// - Throws: `ModelStoreError.unsupportedPredicate` for a predicate or sort outside the forms
    ///   `HistoryDescriptor` lists; `SQLiteError` when the store cannot be written (nothing is
    ///   deleted then).
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        let selection = try HistorySelection(descriptor)
        let connection = try connection()
        let (tokens, bindings) = selection.tokens
        let token = HistoryColumn.token.sql
        let writeLock = container.writeLock
        writeLock.lock()
        defer { writeLock.unlock() }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let newest = try connection.rows("SELECT MAX(\(token)) FROM \(SQLQuote.identifier(HistoryTables.transactions)) WHERE \(token) IN (\(tokens))", bindings)
            try connection.run("DELETE FROM \(SQLQuote.identifier(HistoryTables.changes)) WHERE \(token) IN (\(tokens))", bindings)
            try connection.run("DELETE FROM \(SQLQuote.identifier(HistoryTables.transactions)) WHERE \(token) IN (\(tokens))", bindings)
            if case .integer(let deleted)? = newest.first?.first {
                let through = SQLQuote.identifier("deletedThrough")
                try connection.run("UPDATE \(SQLQuote.identifier(HistoryTables.counter)) SET \(through) = ? WHERE \(SQLQuote.identifier("id")) = 1 AND \(through) < ?",
                                   [.integer(deleted), .integer(deleted)])
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The changes of the selected transactions, by token, each transaction's in order.
    private func readChanges(_ connection: Connection, _ selection: HistorySelection) throws -> [Int64: [HistoryChange]] {
        let (tokens, bindings) = selection.tokens
        let columns = HistoryTables.changeColumns.map(SQLQuote.identifier).joined(separator: ", ")
        let statement = try connection.statement(
            "SELECT \(columns) FROM \(SQLQuote.identifier(HistoryTables.changes)) WHERE \(HistoryColumn.token.sql) IN (\(tokens)) "
            + "ORDER BY \(HistoryColumn.token.sql), \(SQLQuote.identifier("change"))")
        statement.bind(bindings)
        defer { statement.reset() }
        var result: [Int64: [HistoryChange]] = [:]
        var keysByEntity: [String: ModelPropertyKeys] = [:]
        while try statement.step() {
            let token = statement.int64(at: 0)
            let identifier = DefaultHistoryChangeIdentifier(transactionIdentifier: token, index: statement.int64(at: 1))
            guard let kind = HistoryTables.Kind(rawValue: statement.int64(at: 2)) else {
                throw ModelStoreError.corruptHistory("change \(identifier.index) of transaction \(token) has an unknown kind")
            }
            let entityName = statement.text(at: 3)
            // A change of an entity this schema does not have cannot be typed: left out.
            guard let entity = schema.entity(named: entityName) else { continue }
            let keys = keysByEntity[entityName] ?? ModelPropertyKeys(entity.type)
            keysByEntity[entityName] = keys
            let attributes = statement.isNull(at: 5) ? [] : statement.text(at: 5).split(separator: ",").map(String.init)
            var tombstone: [(name: String, value: SQLValue)] = []
            if !statement.isNull(at: 6) {
                guard let values = TombstoneCoding.decode(statement.blob(at: 6)) else {
                    throw ModelStoreError.corruptHistory("the tombstone of change \(identifier.index) of transaction \(token) cannot be read")
                }
                tombstone = values
            }
            let modelType: any PersistentModel.Type = entity.type
            let change = Self.historyChange(modelType, kind: kind, identifier: identifier,
                                            model: PersistentIdentifier(entityName: entityName, rowID: statement.int64(at: 4)),
                                            attributes: attributes, tombstone: tombstone, keys: keys)
            result[token, default: []].append(change)
        }
        return result
    }

    /// A change typed for the row's own model class.
    private static func historyChange<Model: PersistentModel>(
        _ type: Model.Type, kind: HistoryTables.Kind, identifier: DefaultHistoryChangeIdentifier, model: PersistentIdentifier,
        attributes: [String], tombstone: [(name: String, value: SQLValue)], keys: ModelPropertyKeys
    ) -> HistoryChange {
        switch kind {
        case .insert:
            return .insert(DefaultHistoryInsert<Model>(changeIdentifier: identifier, changedPersistentIdentifier: model))
        case .update:
            return .update(DefaultHistoryUpdate<Model>(changeIdentifier: identifier, changedPersistentIdentifier: model,
                                                       updatedAttributes: attributes.compactMap { keys.keyPath(named: $0, in: Model.self) }))
        case .delete:
            return .delete(DefaultHistoryDelete<Model>(changeIdentifier: identifier, changedPersistentIdentifier: model,
                                                       tombstone: HistoryTombstone(storedValues: tombstone, keys: keys)))
        }
    }
}
