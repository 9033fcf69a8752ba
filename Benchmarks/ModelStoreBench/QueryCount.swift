import CSQLite

/// Counts the queries (`SELECT` statements started) of every SQLite connection the process opens,
/// ModelStore's and the hand-written side's alike: an automatic extension installs SQLite's trace
/// hook on each new connection.
enum QueryCount {
    /// Queries started since the last `reset()`.
    nonisolated(unsafe) static var count = 0

    /// Installs the hook for connections opened from now on.
    static func install() {
        typealias EntryPoint = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, OpaquePointer?) -> Int32
        let entry: EntryPoint = { connection, _, _ in
            sqlite3_trace_v2(connection, UInt32(SQLITE_TRACE_STMT), { _, _, statement, _ in
                if let statement, let sql = sqlite3_sql(OpaquePointer(statement)), sql[0] == CChar(UInt8(ascii: "S")),
                   sql[1] == CChar(UInt8(ascii: "E")) {
                    QueryCount.count += 1
                }
                return 0
            }, nil)
            return SQLITE_OK
        }
        sqlite3_auto_extension(unsafeBitCast(entry, to: (@convention(c) () -> Void).self))
    }

    static func reset() { count = 0 }
}
