import Foundation

/// The store's identifier: a UUID recorded in `"$metadata"` under the key `storeIdentifier` when
/// the store is created, or when a store written before identifiers named their store is first
/// opened for writing (inside the opening transaction, so it is recorded whole or not at all).
/// Every saved model's `PersistentIdentifier` carries it, so an identifier of one store finds
/// nothing in another; the history's `storeIdentifier` is the same value (docs/Runtime.md,
/// "Identifiers").
enum StoreIdentity {
    /// The `"$metadata"` key.
    static let key = "storeIdentifier"

    /// The identifier the store records, nil when it has none (or no `"$metadata"` table yet).
    ///
    /// - Throws: the store's error when it cannot be read.
    static func recorded(_ connection: any StoreConnection) throws -> String? {
        guard try !connection.rows(connection.dialect.tableExistsQuery, [.text(StorageNames.metadataTable)]).isEmpty else { return nil }
        let rows = try connection.rows("SELECT value FROM \(SQLQuote.identifier(StorageNames.metadataTable)) WHERE key = ?", [.text(key)])
        guard case .text(let identifier)? = rows.first?.first else { return nil }
        return identifier
    }

    /// The identifier the history's counter row holds (made by the first recorded save of a
    /// store written before `"$metadata"` had one), nil when there is none.
    ///
    /// - Throws: the store's error when it cannot be read.
    static func historyStore(_ connection: any StoreConnection) throws -> String? {
        guard try HistoryTables.exist(connection) else { return nil }
        let rows = try connection.rows("SELECT \(SQLQuote.identifier("store")) FROM \(SQLQuote.identifier(HistoryTables.counter)) "
                                       + "WHERE \(SQLQuote.identifier("id")) = 1")
        guard case .text(let identifier)? = rows.first?.first else { return nil }
        return identifier
    }

    /// The store's identifier, recorded first when it has none: the history's (so transactions
    /// and identifiers name the store alike) or a new UUID. (The first recorded save makes the
    /// history's counter row with it: `HistoryRecorder`.) Runs inside the opening write
    /// transaction, after `StoreDDL.internalTables`.
    ///
    /// - Throws: the store's error when it cannot be read or written.
    static func ensure(_ connection: any StoreConnection) throws -> String {
        let identifier: String
        if let recorded = try recorded(connection) {
            identifier = recorded
        } else {
            identifier = try historyStore(connection) ?? UUID().uuidString
            try connection.run("INSERT INTO \(SQLQuote.identifier(StorageNames.metadataTable)) (key, value) VALUES (?, ?)",
                               [.text(key), .text(identifier)])
        }
        return identifier
    }
}
