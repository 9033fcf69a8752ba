import Foundation

extension SQLiteDialect {
    /// SQLite runs the SQL as written.
    func serverText(of sql: String) -> String { sql }

    /// `EXPLAIN QUERY PLAN` (https://sqlite.org/eqp.html): its rows (id, parent, detail) as a tree,
    /// two spaces of indent per level, as the `sqlite3` shell draws it: `SEARCH Customer USING
    /// INDEX …` where an index finds the rows, `SCAN Customer` where every row is read.
    func queryPlan(of sql: String, bindings: [SQLValue], on connection: any StoreConnection) throws -> [String] {
        var depth: [Int64: Int] = [0: -1]
        var lines: [String] = []
        for row in try connection.rows("EXPLAIN QUERY PLAN " + sql, bindings) {
            guard row.count >= 4, case .integer(let id) = row[0], case .integer(let parent) = row[1] else { continue }
            let level = (depth[parent] ?? -1) + 1
            depth[id] = level
            let detail: String
            if case .text(let text) = row[3] { detail = text } else { detail = "" }
            lines.append(String(repeating: "  ", count: level) + detail)
        }
        return lines
    }
}
