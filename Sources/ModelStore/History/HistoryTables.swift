/// The tables persistent history lives in, and their DDL (in one place, so that another SQL
/// dialect can have its own). Every save of a container whose configuration `recordsHistory`
/// writes one row in `"$history"` (its transaction) and one row per change in
/// `"$history_changes"`, inside the save's own database transaction.
enum HistoryTables {
    /// One row per saved transaction: its token, author, time and writer.
    static let transactions = "$history"
    /// One row per change of a transaction (insert, update, delete), in the order they happened.
    static let changes = "$history_changes"
    /// One row (`id` = 1): the store's identifier, the last token handed out, and the newest
    /// token `deleteHistory` removed (fetches after an older token throw `historyTokenExpired`).
    static let counter = "$history_counter"

    /// `kind` of a change row.
    enum Kind: Int64 {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// The CREATE statements (idempotent), spelled for `dialect`.
    ///
    /// Keys: tokens are handed out by incrementing `"$history_counter"."lastToken"` inside the
    /// saving transaction, so they grow in commit order and are never reused, even after
    /// `deleteHistory` removed the newest transactions (a store-assigned key could reuse max + 1,
    /// and no sequence or AUTOINCREMENT is needed). The change key is (token, position in the
    /// transaction), kept clustered where the store can (`keyOnlyTableSuffix`: SQLite's
    /// `WITHOUT ROWID`, one B-tree write per change). No foreign keys: a transaction's changes
    /// are deleted with it explicitly, and a key check per change would cost a lookup each.
    /// Timestamps are seconds since 2001 (like `Date` columns). Tombstones are a blob (see
    /// `TombstoneCoding`); updated attribute names one text, comma-separated.
    static func createStatements(_ dialect: any SQLDialect) -> [String] {
        let integer = dialect.columnType(.integer)
        let text = dialect.columnType(.text)
        let token = SQLQuote.identifier("token")
        return [
            "CREATE TABLE IF NOT EXISTS \(SQLQuote.identifier(counter)) (\(SQLQuote.identifier("id")) \(integer) PRIMARY KEY, "
                + "\(SQLQuote.identifier("store")) \(text) NOT NULL, \(SQLQuote.identifier("lastToken")) \(integer) NOT NULL, "
                + "\(SQLQuote.identifier("deletedThrough")) \(integer) NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(SQLQuote.identifier(transactions)) (\(token) \(integer) PRIMARY KEY, "
                + "\(SQLQuote.identifier("author")) \(text), \(SQLQuote.identifier("timestamp")) \(dialect.columnType(.real)) NOT NULL, "
                + "\(SQLQuote.identifier("bundle")) \(text) NOT NULL, \(SQLQuote.identifier("process")) \(text) NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(SQLQuote.identifier(changes)) (\(token) \(integer) NOT NULL, "
                + "\(SQLQuote.identifier("change")) \(integer) NOT NULL, \(SQLQuote.identifier("kind")) \(integer) NOT NULL, "
                + "\(SQLQuote.identifier("entity")) \(text) NOT NULL, \(SQLQuote.identifier("row")) \(integer) NOT NULL, "
                + "\(SQLQuote.identifier("attributes")) \(text), \(SQLQuote.identifier("tombstone")) \(dialect.columnType(.blob)), "
                + "PRIMARY KEY (\(token), \(SQLQuote.identifier("change"))))" + dialect.keyOnlyTableSuffix,
        ]
    }

    /// Whether the store has the history tables (a store written before history existed gets
    /// them when it is next opened, even when its schema is up to date).
    ///
    /// - Throws: the store's error when it cannot be read.
    static func exist(_ connection: any StoreConnection) throws -> Bool {
        try !connection.rows(connection.dialect.tableExistsQuery, [.text(counter)]).isEmpty
    }

    /// Columns of `changes` in insert order.
    static let changeColumns = ["token", "change", "kind", "entity", "row", "attributes", "tombstone"]
}
