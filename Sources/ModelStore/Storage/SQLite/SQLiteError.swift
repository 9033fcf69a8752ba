import CSQLite

/// An error reported by SQLite, with its result code and message.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, …).
    public var code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, …).
    public var extendedCode: Int32
    /// SQLite's message.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    /// Creates an error from its parts.
    public init(code: Int32, extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
