import CSQLite
import Foundation

/// Persistent history written by hand, as ModelStore records it (see `HistoryTables` and
/// Tests/ModelStoreTests/Goldens/Trips.schema.sql): inside the caller's write transaction, the
/// next token from the counter row, one change row per changed model (one prepared statement,
/// reused), then the transaction row.
final class HandHistory {
    private let connection: HandConnection
    private let token: Int64
    private let change: OpaquePointer
    private var index: Int64 = 0

    /// The tables, as the runtime creates them.
    static let tables = """
        CREATE TABLE "$history_counter" ("id" INTEGER PRIMARY KEY, "store" TEXT NOT NULL, "lastToken" INTEGER NOT NULL, "deletedThrough" INTEGER NOT NULL);
        CREATE TABLE "$history" ("token" INTEGER PRIMARY KEY, "author" TEXT, "timestamp" REAL NOT NULL, "bundle" TEXT NOT NULL, "process" TEXT NOT NULL);
        CREATE TABLE "$history_changes" ("token" INTEGER NOT NULL, "change" INTEGER NOT NULL, "kind" INTEGER NOT NULL, "entity" TEXT NOT NULL, "row" INTEGER NOT NULL, "attributes" TEXT, "tombstone" BLOB, PRIMARY KEY ("token", "change")) WITHOUT ROWID;
        """

    /// Starts the history of a save (call inside its transaction).
    init(connection: HandConnection) throws {
        self.connection = connection
        let next = try connection.prepare("UPDATE \"$history_counter\" SET \"lastToken\" = \"lastToken\" + 1 WHERE \"id\" = 1 RETURNING \"lastToken\"")
        defer { sqlite3_finalize(next) }
        if sqlite3_step(next) == SQLITE_ROW {
            token = sqlite3_column_int64(next, 0)
        } else {
            try connection.execute("INSERT INTO \"$history_counter\" VALUES (1, '\(UUID().uuidString)', 1, 0)")
            token = 1
        }
        change = try connection.prepare("INSERT INTO \"$history_changes\" (\"token\", \"change\", \"kind\", \"entity\", \"row\", \"attributes\", \"tombstone\") VALUES (?, ?, ?, ?, ?, ?, ?)")
    }

    deinit { sqlite3_finalize(change) }

    /// Records a change: kind 0 insert, 1 update (with the updated property names), 2 delete
    /// (with the tombstone blob).
    func record(kind: Int64, entity: String, row: Int64, attributes: String? = nil, tombstone: [UInt8]? = nil) throws {
        sqlite3_bind_int64(change, 1, token)
        sqlite3_bind_int64(change, 2, index)
        sqlite3_bind_int64(change, 3, kind)
        bindText(change, 4, entity)
        sqlite3_bind_int64(change, 5, row)
        bindText(change, 6, attributes)
        if let tombstone {
            tombstone.withUnsafeBytes { bindBlob(change, 7, $0) }
        } else {
            sqlite3_bind_null(change, 7)
        }
        try connection.runAndReset(change)
        index += 1
    }

    /// Writes the transaction row.
    func finish() throws {
        let transaction = try connection.prepare("INSERT INTO \"$history\" (\"token\", \"author\", \"timestamp\", \"bundle\", \"process\") VALUES (?, NULL, ?, ?, ?)")
        defer { sqlite3_finalize(transaction) }
        sqlite3_bind_int64(transaction, 1, token)
        sqlite3_bind_double(transaction, 2, Date().timeIntervalSinceReferenceDate)
        bindText(transaction, 3, ProcessInfo.processInfo.processName)
        bindText(transaction, 4, String(ProcessInfo.processInfo.processIdentifier))
        try connection.runAndReset(transaction)
    }

    /// The tombstone of a trip's preserved `identifier`: name length, name, blob tag, length, bytes.
    static func tombstone(identifier: UUID) -> [UInt8] {
        var bytes: [UInt8] = [10] + Array("identifier".utf8) + [4, 16]
        withUnsafeBytes(of: identifier.uuid) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The entity name of a plain trip's class.
    static func entity(of trip: PlainTrip) -> String {
        trip is PlainBusinessTrip ? "BusinessTrip" : trip is PlainPersonalTrip ? "PersonalTrip" : "Trip"
    }
}
