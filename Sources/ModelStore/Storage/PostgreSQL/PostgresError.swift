/// An error from the PostgreSQL client: a URL that cannot be used, a server that cannot be reached
/// or refuses the login, a statement the server rejects (with its SQLSTATE), a value that cannot be
/// bound, a lost connection, or a pool with no free connection in time.
///
/// Its text never holds a password: URL errors name the part that is wrong, connection errors
/// show the URL with its password replaced by `***`.
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, coarsely; `sqlState` has the server's exact code when there is one.
    public enum Kind: String, Sendable {
        /// The URL cannot be parsed or names an unknown option.
        case invalidURL
        /// The server cannot be reached (no such host or socket, refused, timed out).
        case connectionFailed
        /// The server refused the login (wrong password, no such role, not allowed by pg_hba.conf).
        case authenticationFailed
        /// The server runs but has no database of that name.
        case databaseMissing
        /// The connection broke during a call (server restarted or stopped, backend terminated,
        /// network down) before a transaction's `COMMIT` was sent: the server rolled the transaction
        /// back, nothing of it was applied. The next use reconnects.
        case connectionLost
        /// The connection broke after `COMMIT` was sent and before the server answered: the
        /// transaction may or may not have been applied (docs/Scaling.md, "Failover"). Check the
        /// data before doing it again.
        case commitOutcomeUnknown
        /// The server rejected a statement (syntax, constraint, type …): see `sqlState`.
        case server
        /// A value cannot be sent as the parameter's type (NUL in text, out of range, NaN, …),
        /// or a result cannot be read.
        case invalidValue
        /// Every connection of a pool stayed busy for the whole wait timeout.
        case poolTimeout
    }

    /// What went wrong.
    public var kind: Kind
    /// The five-character SQLSTATE the server reported (`23505` unique violation, `42P01`
    /// undefined table, `3D000` missing database, `28P01` wrong password, …), when known.
    public var sqlState: String?
    /// The message (the server's primary message, or the client's).
    public var message: String
    /// The server's detail and hint lines, when it sent any.
    public var detail: String?
    /// The statement that failed, when there was one.
    public var sql: String?

    /// Creates an error from its parts.
    public init(kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, sql: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
    }

    /// Whether the server refused a prepared query because a schema change altered its result
    /// columns (SQLSTATE 0A000, "cached plan must not change result type").
    var isStalePlan: Bool {
        sqlState == "0A000" && message.contains("cached plan must not change result type")
    }

    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let detail, !detail.isEmpty { text += " (\(detail))" }
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
