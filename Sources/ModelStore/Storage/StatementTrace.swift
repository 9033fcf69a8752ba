import Foundation

/// One statement a store ran, as `ModelConfiguration.sqlTrace` receives it and
/// `MODELSTORE_SQL_DEBUG` prints it (docs/Runtime.md, "Seeing the SQL").
public struct SQLTraceEvent: Sendable, CustomStringConvertible {
    /// The statement as the database received it, with its placeholders (SQLite `?`, PostgreSQL
    /// `$1`, `$2`…), never with the values in it.
    public let sql: String
    /// The values bound to the placeholders, in order: nil unless asked for
    /// (`ModelConfiguration.sqlTraceIncludesValues`, `MODELSTORE_SQL_DEBUG=2`).
    public let values: [SQLValue]?
    /// From the statement's start to its end: on SQLite from its first step to its last (the rows
    /// read in between); on PostgreSQL from sending it to its whole result received.
    public let duration: Duration
    /// The rows the statement returned; for one that returns none (an `INSERT`, `UPDATE` or
    /// `DELETE` without `RETURNING`), the rows it changed.
    public let rowCount: Int

    init(sql: String, values: [SQLValue]?, duration: Duration, rowCount: Int) {
        self.sql = sql
        self.values = values
        self.duration = duration
        self.rowCount = rowCount
    }

    /// `0.052 ms, 3 rows: SELECT …`, then ` -- values: 'Paris', 3` when there are values and they
    /// are known (long text and bytes shortened).
    public var description: String {
        var text = Self.text(of: duration) + ", " + (rowCount == 1 ? "1 row" : "\(rowCount) rows") + ": " + sql
        if let values, !values.isEmpty { text += " -- values: " + values.map(Self.text(of:)).joined(separator: ", ") }
        return text
    }

    /// A duration in milliseconds (three decimals), or seconds from one second on.
    static func text(of duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return milliseconds < 1000 ? String(format: "%.3f ms", milliseconds) : String(format: "%.3f s", milliseconds / 1000)
    }

    /// A value as an SQL literal, text over 100 characters and bytes over 32 shortened.
    static func text(of value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return "\(real)"
        case .text(let text):
            guard text.count > 100 else { return SQLQuote.literal(text) }
            return SQLQuote.literal(String(text.prefix(100)) + "…") + " (\(text.count) characters)"
        case .blob(let data):
            let hex = data.prefix(32).map { String(format: "%02X", $0) }.joined()
            return data.count > 32 ? "X'\(hex)…' (\(data.count) bytes)" : "X'\(hex)'"
        }
    }
}

/// Where a container's stores report the statements they run: the configuration's closure and the
/// standard-error printer of `MODELSTORE_SQL_DEBUG` (read when the container opens). A container
/// without either has no tracer, and its drivers run no tracing code (docs/Runtime.md, "Seeing the
/// SQL"): SQLite registers no trace hook, PostgreSQL checks one optional per statement.
final class StatementTracer: Sendable {
    /// The configuration's closure, and whether its events carry the values.
    private let closure: (@Sendable (SQLTraceEvent) -> Void)?
    private let closureValues: Bool
    /// `MODELSTORE_SQL_DEBUG`'s level: 0 (no printing), 1 (statements), 2 or more (with values).
    let printLevel: Int
    /// Whether the drivers must collect the bound values (some sink shows them).
    let capturesValues: Bool

    /// The environment variable that turns the printer on.
    static let environmentVariable = "MODELSTORE_SQL_DEBUG"

    init(closure: (@Sendable (SQLTraceEvent) -> Void)?, closureValues: Bool, printLevel: Int) {
        self.closure = closure
        self.closureValues = closure != nil && closureValues
        self.printLevel = printLevel
        capturesValues = self.closureValues || printLevel >= 2
    }

    /// The tracer `configuration` and `environment` ask for (nil: neither does), after printing the
    /// printer's first line (which store; never its password) or why the variable's value is not a level.
    static func make(for configuration: ModelConfiguration,
                     environment: [String: String] = ProcessInfo.processInfo.environment) -> StatementTracer? {
        let (level, problem) = level(environment[environmentVariable])
        if let problem { printLine(problem) }
        guard configuration.sqlTrace != nil || level > 0 else { return nil }
        if level > 0 {
            let store = configuration.isStoredInMemoryOnly ? "an in-memory store" : redactingPassword(configuration.url.absoluteString)
            let shown = level >= 2 ? "with bound values" : "values hidden (\(environmentVariable)=2 shows them)"
            printLine("tracing \(store), \(shown)")
        }
        return StatementTracer(closure: configuration.sqlTrace, closureValues: configuration.sqlTraceIncludesValues, printLevel: level)
    }

    /// `MODELSTORE_SQL_DEBUG`'s level, Core Data's `SQLDebug` levels: unset, empty, `0`, `false`,
    /// `no`, `off` are 0; `true`, `yes`, `on` are 1; a number is itself. Anything else is 0, with a
    /// line saying so.
    static func level(_ text: String?) -> (level: Int, problem: String?) {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return (0, nil) }
        if let number = Int(text), number >= 0 { return (number, nil) }
        switch text.lowercased() {
        case "false", "no", "off": return (0, nil)
        case "true", "yes", "on": return (1, nil)
        default:
            return (0, "\(environmentVariable)=\(text) is not a level (0: off, 1: statements, 2: statements with their values): tracing stays off")
        }
    }

    /// The current time for a statement's start, in nanoseconds of the monotonic clock.
    @inline(__always) static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Reports a statement that started at `start` (`now()`) and ended now.
    func record(sql: String, values: [SQLValue]?, start: UInt64, rowCount: Int) {
        let elapsed = Self.now() &- start
        let duration = Duration.nanoseconds(Int64(clamping: elapsed))
        if let closure { closure(SQLTraceEvent(sql: sql, values: closureValues ? values ?? [] : nil, duration: duration, rowCount: rowCount)) }
        if printLevel > 0 {
            Self.printLine(SQLTraceEvent(sql: sql, values: printLevel >= 2 ? values ?? [] : nil, duration: duration, rowCount: rowCount).description)
        }
    }

    /// Writes `ModelStore SQL: <text>` to standard error, in one `write` (lines of threads do not mix).
    static func printLine(_ text: String) {
        var line = "ModelStore SQL: " + text + "\n"
        line.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let written = write(STDERR_FILENO, rest.baseAddress, rest.count)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }
}
