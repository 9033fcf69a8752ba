import Foundation

/// A descriptor as SQL: the transactions it selects, in its order.
private struct HistorySelection {
    var whereClause = ""
    var orderClause = ""
    /// `orderClause` with the transactions' columns qualified by the alias `t`.
    var qualifiedOrderClause = ""
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
        var terms: [(column: HistoryColumn, direction: String)] = []
        for sort in descriptor.sortBy {
            guard let keyPath = sort.keyPath, let column = HistoryPredicateSQL.column(for: keyPath) else {
                throw ModelStoreError.unsupportedPredicate("history: sort by \(sort.keyPath.map { "\($0)" } ?? "a comparator") (only token, transactionIdentifier, timestamp and author)")
            }
            terms.append((column, sort.order == .forward ? " ASC" : " DESC"))
        }
        terms.append((.token, " ASC"))
        orderClause = " ORDER BY " + terms.map { $0.column.sql + $0.direction }.joined(separator: ", ")
        qualifiedOrderClause = " ORDER BY " + terms.map { "t." + $0.column.sql + $0.direction }.joined(separator: ", ")
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

    static func read(_ connection: any StoreConnection) throws -> HistoryCounter? {
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
        guards.enter()
        defer { guards.leave() }
        let selection = try HistorySelection(descriptor)
        let connection = try connection()
        // One query (one snapshot): the selected transactions, each joined with its changes.
        let transactionColumns = [HistoryColumn.token.sql, HistoryColumn.author.sql, HistoryColumn.timestamp.sql,
                                  SQLQuote.identifier("bundle"), SQLQuote.identifier("process")]
        let changeColumns = HistoryTables.changeColumns.dropFirst().map { "c." + SQLQuote.identifier($0) }
        let statement = try connection.statement(
            "SELECT \((transactionColumns.map { "t." + $0 } + changeColumns).joined(separator: ", ")) FROM (SELECT "
            + transactionColumns.joined(separator: ", ") + " FROM \(SQLQuote.identifier(HistoryTables.transactions))"
            + selection.whereClause + selection.orderClause + selection.limitClause + ") t LEFT JOIN "
            + "\(SQLQuote.identifier(HistoryTables.changes)) c ON c.\(HistoryColumn.token.sql) = t.\(HistoryColumn.token.sql)"
            + selection.qualifiedOrderClause + ", c.\(SQLQuote.identifier("change"))")
        statement.bind(selection.bindings + selection.limitBindings)
        defer { statement.reset() }
        var rows: [(transaction: [SQLValue], changes: [HistoryChange])] = []
        var keysByEntity: [String: ModelPropertyKeys] = [:]
        while try statement.step() {
            let token = try statement.integer(at: 0)
            if rows.last.map({ $0.transaction.first != .integer(token) }) ?? true {
                rows.append(((0..<5).map { statement.value(at: $0) }, []))
            }
            if !statement.isNull(at: 5), let change = try historyChange(statement, token: token, keys: &keysByEntity) {
                rows[rows.count - 1].changes.append(change)
            }
        }
        // Read after the transactions: a deletion that removed some of them before the query
        // is seen here, so the gap is reported.
        guard let counter = try HistoryCounter.read(connection) else { return [] }
        if let after = selection.tokensAfter.min(), after < counter.deletedThrough {
            throw ModelStoreError.historyTokenExpired
        }
        return try rows.map { row in
            guard row.transaction.count == 5, case .integer(let token) = row.transaction[0], case .real(let seconds) = row.transaction[2],
                  case .text(let bundle) = row.transaction[3], case .text(let process) = row.transaction[4] else {
                throw ModelStoreError.corruptHistory("a transaction row of unexpected shape: \(row.transaction)")
            }
            var author: String?
            if case .text(let text) = row.transaction[1] { author = text }
            return DefaultHistoryTransaction(
                storeIdentifier: counter.store, bundleIdentifier: bundle, processIdentifier: process,
                transactionIdentifier: token, token: DefaultHistoryToken(storeIdentifier: counter.store, value: token),
                author: author, changes: row.changes, timestamp: Date(timeIntervalSinceReferenceDate: seconds))
        }
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
        guards.enter()
        defer { guards.leave() }
        let selection = try HistorySelection(descriptor)
        try container.checkWritable()
        let connection = try connection()
        let (tokens, bindings) = selection.tokens
        let token = HistoryColumn.token.sql
        try container.driver.withWriteLock {
            try connection.transaction {
                let newest = try connection.rows("SELECT MAX(\(token)) FROM \(SQLQuote.identifier(HistoryTables.transactions)) WHERE \(token) IN (\(tokens))", bindings)
                try connection.run("DELETE FROM \(SQLQuote.identifier(HistoryTables.changes)) WHERE \(token) IN (\(tokens))", bindings)
                try connection.run("DELETE FROM \(SQLQuote.identifier(HistoryTables.transactions)) WHERE \(token) IN (\(tokens))", bindings)
                if case .integer(let deleted)? = newest.first?.first {
                    let through = SQLQuote.identifier("deletedThrough")
                    try connection.run("UPDATE \(SQLQuote.identifier(HistoryTables.counter)) SET \(through) = ? WHERE \(SQLQuote.identifier("id")) = 1 AND \(through) < ?",
                                       [.integer(deleted), .integer(deleted)])
                }
            }
        }
    }

    /// The change in columns 5… of the current row (`change`, `kind`, `entity`, `row`,
    /// `attributes`, `tombstone`), typed for its row's class; nil for an entity this schema does
    /// not have (it cannot be typed: left out).
    private func historyChange(_ statement: any StoreStatement, token: Int64, keys: inout [String: ModelPropertyKeys]) throws -> HistoryChange? {
        let identifier = DefaultHistoryChangeIdentifier(transactionIdentifier: token, index: try statement.integer(at: 5))
        guard let kind = HistoryTables.Kind(rawValue: try statement.integer(at: 6)) else {
            throw ModelStoreError.corruptHistory("change \(identifier.index) of transaction \(token) has an unknown kind")
        }
        let entityName = statement.text(at: 7)
        guard let entity = schema.entity(named: entityName) else { return nil }
        let entityKeys = keys[entityName] ?? ModelPropertyKeys(entity.type)
        keys[entityName] = entityKeys
        let attributes = statement.isNull(at: 9) ? [] : statement.text(at: 9).split(separator: ",").map(String.init)
        var tombstone: [(name: String, value: SQLValue)] = []
        let stored = statement.value(at: 10)
        if stored != .null {
            guard case .blob(let data) = stored, let values = TombstoneCoding.decode(data) else {
                throw ModelStoreError.corruptHistory("the tombstone of change \(identifier.index) of transaction \(token) cannot be read")
            }
            tombstone = values
        }
        guard let modelType = entity.type as? any PersistentModel.Type else { return nil }
        return Self.historyChange(modelType, kind: kind, identifier: identifier,
                                  model: PersistentIdentifier(entityName: entityName, rowID: try statement.integer(at: 8), store: container.storeIdentifier),
                                  attributes: attributes, tombstone: tombstone, keys: entityKeys)
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
