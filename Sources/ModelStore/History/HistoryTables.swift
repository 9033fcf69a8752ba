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

    /// The CREATE statements (idempotent: run at every open).
    ///
    /// Keys: tokens are handed out by incrementing `"$history_counter"."lastToken"` inside the
    /// saving transaction, so they grow in commit order and are never reused, even after
    /// `deleteHistory` removed the newest transactions (a plain `INTEGER PRIMARY KEY` would reuse
    /// max + 1, and AUTOINCREMENT or a sequence is not needed). The change key is
    /// (token, position in the transaction). `WITHOUT ROWID` keeps the changes in their key's
    /// B-tree (one write per change); a PostgreSQL dialect drops it. No foreign keys: the changes
    /// of a transaction are deleted with it explicitly, and a key check per change would cost a
    /// lookup each. Timestamps are REAL seconds since 2001 (like `Date` columns). Tombstones are
    /// a BLOB (see `TombstoneCoding`); updated attribute names are one TEXT, comma-separated.
    static func createStatements() -> [String] {
        let token = SQLQuote.identifier("token")
        return [
            "CREATE TABLE IF NOT EXISTS \(SQLQuote.identifier(counter)) (\(SQLQuote.identifier("id")) INTEGER PRIMARY KEY, "
                + "\(SQLQuote.identifier("store")) TEXT NOT NULL, \(SQLQuote.identifier("lastToken")) INTEGER NOT NULL, "
                + "\(SQLQuote.identifier("deletedThrough")) INTEGER NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(SQLQuote.identifier(transactions)) (\(token) INTEGER PRIMARY KEY, "
                + "\(SQLQuote.identifier("author")) TEXT, \(SQLQuote.identifier("timestamp")) REAL NOT NULL, "
                + "\(SQLQuote.identifier("bundle")) TEXT NOT NULL, \(SQLQuote.identifier("process")) TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(SQLQuote.identifier(changes)) (\(token) INTEGER NOT NULL, "
                + "\(SQLQuote.identifier("change")) INTEGER NOT NULL, \(SQLQuote.identifier("kind")) INTEGER NOT NULL, "
                + "\(SQLQuote.identifier("entity")) TEXT NOT NULL, \(SQLQuote.identifier("row")) INTEGER NOT NULL, "
                + "\(SQLQuote.identifier("attributes")) TEXT, \(SQLQuote.identifier("tombstone")) BLOB, "
                + "PRIMARY KEY (\(token), \(SQLQuote.identifier("change")))) WITHOUT ROWID",
        ]
    }

    /// Columns of `changes` in insert order.
    static let changeColumns = ["token", "change", "kind", "entity", "row", "attributes", "tombstone"]
}
