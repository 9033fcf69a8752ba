// Placeholder until the runtime lands (issue 5).
import CSQLite

/// The version of the SQLite library ModelStore is linked against.
public var sqliteLibraryVersion: String { String(cString: sqlite3_libversion()) }
