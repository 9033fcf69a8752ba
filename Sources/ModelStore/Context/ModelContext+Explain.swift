import Foundation

/// What a fetch runs and how the database runs it: `ModelContext.explain(_:)` (docs/Runtime.md,
/// "Seeing the SQL").
public struct FetchExplanation: Sendable, CustomStringConvertible {
    /// The query of the stored rows, as the database receives it (placeholders: SQLite `?`,
    /// PostgreSQL `$1`…): the very text `fetch` builds for the descriptor.
    public let sql: String
    /// The values bound to the placeholders, in order (the predicate's constants, the subclasses'
    /// type names, the limit and offset).
    public let values: [SQLValue]
    /// The database's plan for the query with those values, one step a line, indented under the
    /// step it belongs to: SQLite's `EXPLAIN QUERY PLAN` (`SEARCH … USING INDEX …` finds rows
    /// through an index, `SCAN …` reads every row), PostgreSQL's `EXPLAIN` (`Index Scan`, `Seq Scan`).
    public let plan: [String]
    /// What the fetch does besides the query, when it does (unsaved changes merged, prefetching).
    public let notes: [String]

    /// The SQL, its values, the plan (indented) and the notes, one per line.
    public var description: String {
        var lines = ["SQL: " + sql]
        if !values.isEmpty { lines.append("values: " + values.map(SQLTraceEvent.text(of:)).joined(separator: ", ")) }
        lines.append("plan:")
        lines += plan.map { "  " + $0 }
        lines += notes.map { "note: " + $0 }
        return lines.joined(separator: "\n")
    }
}

extension ModelContext {
    /// The SQL `fetch(descriptor)` runs for the stored rows and the database's plan for it (SQLite:
    /// `EXPLAIN QUERY PLAN`, PostgreSQL: `EXPLAIN`), without fetching: whether an index finds the
    /// rows or every row is read. The query is built by the code `fetch` builds it with.
    ///
    /// With unsaved changes that a fetch including them may merge, the query shown is the one of
    /// the stored rows, and `notes` says that the fetch may read their keys with the same condition
    /// and order, merge the unsaved models in memory and read the rows by key; with prefetching,
    /// that the prefetching queries follow (docs/Runtime.md, "Seeing the SQL").
    ///
    /// - Throws: what `fetch` throws before it runs anything: `ModelStoreError.unsupportedPredicate`
    ///   for a predicate or sort with no SQL equivalent, `.invalidFetch`, `.unknownEntity`; the
    ///   store's error.
    public func explain<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> FetchExplanation {
        guards.enter()
        defer { guards.leave() }
        try descriptor.checkWindow()
        let entity = try entity(for: T.self)
        let partial = PartialRow(entity: entity, schema: schema, keyPaths: descriptor.propertiesToFetch)
        var notes: [String] = []
        let query: (sql: String, bindings: [SQLValue])
        if fetchesThroughPlan(descriptor) {
            // As `fetchPlanned` when nothing it merges (ModelContext+PendingChanges.swift).
            let prefetched = try prefetchRelationships(descriptor.relationshipKeyPathsForPrefetching, entity: entity)
            let rows = try plan(descriptor, entity: entity).rowsQuery(select: partial?.selectSQL ?? entity.selectSQL, dialect: dialect)
            query = (rows.sql, rows.bindings)
            if descriptor.includePendingChanges && !hasNothingPending {
                notes.append("the context has unsaved changes: when they can change this fetch's answer, it reads the matching keys "
                             + "with this condition and order, merges the unsaved models in memory and reads the rows by key")
            }
            if !prefetched.isEmpty {
                let names = prefetched.map(\.relationship.name).joined(separator: ", ")
                notes.append("then the prefetching queries of \(names) (one per to-one or to-many relationship, two per many-to-many)")
            }
        } else {
            query = try fetchQuery(descriptor, entity: entity, partial: partial)
        }
        let steps = try dialect.queryPlan(of: query.sql, bindings: query.bindings, on: connection())
        return FetchExplanation(sql: dialect.serverText(of: query.sql), values: query.bindings, plan: steps, notes: notes)
    }
}
