import CSQLite
import Foundation

/// A SQLite connection's statement tracing (docs/Runtime.md, "Seeing the SQL"), through SQLite's
/// own hook (`sqlite3_trace_v2`): registered only on the connections of a container with a
/// tracer, so a connection without one runs no tracing code at all. Every statement SQLite runs
/// on the connection is reported, prepared ones and those of `sqlite3_exec` (transactions, DDL,
/// pragmas) alike: its start (`SQLITE_TRACE_STMT`), each row (`SQLITE_TRACE_ROW`), and its end
/// (`SQLITE_TRACE_PROFILE`, when it is done or reset).
final class SQLiteTrace {
    let tracer: StatementTracer
    /// A statement running: when it started, the rows it returned so far, and the connection's
    /// total changes then.
    private struct Running {
        var start: UInt64
        var rows = 0
        var totalChanges: Int64
    }
    private var running: [OpaquePointer: Running] = [:]
    /// The values bound to each statement, by parameter (kept only when the tracer shows values;
    /// `SQLiteStatement` reports its binds here then, see `noteBind`).
    private var values: [OpaquePointer: [SQLValue]] = [:]

    init(tracer: StatementTracer) {
        self.tracer = tracer
    }

    /// Starts reporting the statements of `handle` (kept alive by the connection that owns both).
    func register(on handle: OpaquePointer) {
        let mask = UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_ROW | SQLITE_TRACE_PROFILE)
        sqlite3_trace_v2(handle, mask, { kind, context, pointer, _ in
            guard let context, let pointer else { return 0 }
            Unmanaged<SQLiteTrace>.fromOpaque(context).takeUnretainedValue().handle(kind, OpaquePointer(pointer))
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func handle(_ kind: UInt32, _ statement: OpaquePointer) {
        switch Int32(kind) {
        case SQLITE_TRACE_STMT:
            // Also called again for the statements of triggers, with the same statement: keep the start.
            if running[statement] == nil {
                running[statement] = Running(start: StatementTracer.now(), totalChanges: sqlite3_total_changes64(sqlite3_db_handle(statement)))
            }
        case SQLITE_TRACE_ROW:
            running[statement]?.rows += 1
        case SQLITE_TRACE_PROFILE:
            guard let run = running.removeValue(forKey: statement) else { return }
            let database = sqlite3_db_handle(statement)
            var rows = run.rows
            // A statement without result columns: the rows it changed (changes only count
            // INSERT, UPDATE and DELETE; the total tells a DDL statement from one that changed rows).
            if sqlite3_column_count(statement) == 0, sqlite3_total_changes64(database) != run.totalChanges {
                rows = Int(sqlite3_changes64(database))
            }
            let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
            var bound: [SQLValue]?
            if tracer.capturesValues {
                let count = Int(sqlite3_bind_parameter_count(statement))
                let known = values[statement] ?? []
                bound = (0..<count).map { $0 < known.count ? known[$0] : .null }
            }
            tracer.record(sql: sql, values: bound, start: run.start, rowCount: rows)
        default:
            break
        }
    }

    /// Notes `value` bound at the 1-based `index` of `statement`.
    func noteBind(_ value: SQLValue, at index: Int32, of statement: OpaquePointer) {
        guard index >= 1 else { return }
        Self.set(value, at: Int(index) - 1, in: &values[statement, default: []])
    }

    /// Sets `known[position]` in place (no copy of the statement's values per bind).
    private static func set(_ value: SQLValue, at position: Int, in known: inout [SQLValue]) {
        if known.count <= position { known.append(contentsOf: repeatElement(.null, count: position + 1 - known.count)) }
        known[position] = value
    }

    /// Forgets the values of `statement` (its bindings were cleared, or it is finalized).
    func forgetValues(of statement: OpaquePointer) {
        values[statement] = nil
    }
}
