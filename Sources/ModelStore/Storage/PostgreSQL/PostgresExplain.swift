import Foundation

extension PostgresDialect {
    /// The SQL with PostgreSQL's numbered placeholders, as the server prepares it.
    func serverText(of sql: String) -> String { PostgresPlaceholders.rewrite(sql).sql }

    /// `EXPLAIN` of the query with its values bound (the plan for those values), its lines as the
    /// server writes them: `Index Scan using … on "Customer"` where an index finds the rows,
    /// `Seq Scan on "Customer"` where every row is read.
    func queryPlan(of sql: String, bindings: [SQLValue], on connection: any StoreConnection) throws -> [String] {
        try connection.rows("EXPLAIN " + sql, bindings).compactMap { row in
            guard case .text(let line)? = row.first else { return nil }
            return line
        }
    }
}
