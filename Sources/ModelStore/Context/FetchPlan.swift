import Foundation

/// A fetch descriptor translated once: its SQL condition, its sort and the relationships both
/// follow. Used by the fetches that see pending changes, by `fetchIdentifiers`, by batches and by
/// prefetching; `fetch` and `fetchCount` with nothing pending build the same SQL themselves.
struct FetchPlan {
    /// The fetched entity.
    let entity: EntitySchema
    /// What every row must satisfy (the type filter of a subclass, and the predicate), without
    /// `WHERE`; nil when every row of the table is wanted.
    let condition: SQLFragment?
    /// The sort descriptors, translated.
    let terms: [SortSQL.Term]
    /// ` ORDER BY …`: the terms, then the row key.
    let orderBy: SQLFragment
    /// The relationships the predicate and the sort follow, once per use.
    let followed: [RelationshipSchema]
    /// `fetchLimit`.
    let limit: Int?
    /// `fetchOffset` (0 when none).
    let offset: Int

    /// The quoted table name.
    var table: String { SQLQuote.identifier(entity.tableName) }

    /// The quoted, table-qualified row key column (`"Trip"."$pk"`): the sort's subqueries name
    /// the fetched table too.
    var keyColumn: String { table + "." + SQLQuote.identifier(StorageNames.primaryKey) }

    /// ` WHERE …` (with a leading space) of `condition` and `extra`, or "" when neither.
    func whereClause(and extra: SQLFragment? = nil) -> SQLFragment {
        switch (condition, extra) {
        case (nil, nil): return ""
        case (let condition?, nil): return " WHERE \(condition)"
        case (nil, let extra?): return " WHERE \(extra)"
        case (let condition?, let extra?): return " WHERE \(condition) AND \(extra)"
        }
    }

    /// `select` (a `SELECT … FROM` the fetched table) with the plan's condition, order and window:
    /// the rows of a fetch that merges nothing (also what `explain` shows for it).
    func rowsQuery(select: String, dialect: any SQLDialect) -> SQLFragment {
        "\(raw: select)\(whereClause())\(orderBy)\(window(dialect))"
    }

    /// ` LIMIT ? OFFSET ?` for the descriptor's window (nothing when it has none).
    func window(_ dialect: any SQLDialect) -> SQLFragment {
        guard limit != nil || offset > 0 else { return "" }
        let count: SQLValue = limit.map { .integer(Int64($0)) } ?? dialect.noLimit
        return " LIMIT \(SQLFragment(dialect.windowPlaceholder, [count])) OFFSET \(SQLFragment(dialect.windowPlaceholder, [.integer(Int64(offset))]))"
    }
}

extension ModelContext {
    /// Translates `descriptor` for `entity` (throws `unsupportedPredicate` as `fetch` does).
    func plan<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: EntitySchema) throws -> FetchPlan {
        var conditions: [SQLFragment] = []
        if entity.baseName != nil {
            let names = SQLFragment.joined(entity.typeNames.map { SQLFragment(dialect.typeNamePlaceholder, [.text($0)]) }, separator: ", ")
            conditions.append("\(identifier: entity.tableName).\(identifier: StorageNames.type) IN (\(names))")
        }
        var followed: [RelationshipSchema] = []
        if let predicate = descriptor.predicate {
            let translation = try PredicateSQL.fastTranslation(of: predicate, entity: entity, schema: schema, dialect: dialect,
                                                       store: container.storeIdentifier, cache: predicateCache)
            conditions.append("(\(SQLFragment(translation.filter.sql, translation.filter.bindings)))")
            followed = translation.followed
        }
        let terms = try SortSQL.terms(descriptor.sortBy, entity: entity, schema: schema, dialect: dialect)
        for term in terms { followed += term.relationships }
        return FetchPlan(entity: entity,
                         condition: conditions.isEmpty ? nil : SQLFragment.joined(conditions, separator: " AND "),
                         terms: terms,
                         orderBy: SortSQL.orderBy(terms, entity: entity),
                         followed: followed,
                         limit: descriptor.fetchLimit.map { max(0, $0) },
                         offset: max(0, descriptor.fetchOffset ?? 0))
    }
}

/// Row keys a statement is about, in chunks: `column IN (…)` lists, padded (with the first key)
/// to a power of two, so a query shape prepares and caches at most a dozen statements, not one per
/// list length; or one array parameter where the store takes one (`SQLDialect.keyArrayMembership`).
enum KeyList {
    /// The most keys in one list (well under SQLite's and PostgreSQL's parameter limits).
    static let chunk = 4096

    /// The keys in chunks of at most `chunk`.
    static func chunks<C: Collection<Int64>>(_ keys: C) -> [ArraySlice<Int64>] {
        let all = Array(keys)
        return stride(from: 0, to: all.count, by: chunk).map { all[$0..<min($0 + chunk, all.count)] }
    }

    /// `(?, …)` with `1 << n` placeholders, at index n, up to `chunk`: made once, not per list.
    private static let placeholderLists: [String] = (0...chunk.trailingZeroBitCount).map { exponent in
        "(" + Array(repeating: "?", count: 1 << exponent).joined(separator: ", ") + ")"
    }

    /// `column` among `keys` (at most `chunk`, not empty) as `dialect` spells it: one array
    /// parameter, or `column IN (?, …)`.
    static func membership(_ column: String, _ keys: ArraySlice<Int64>, _ dialect: any SQLDialect) -> SQLFragment {
        dialect.keyArrayMembership(column, keys) ?? placeholderList(column, keys)
    }

    /// `column IN (?, …)`: a placeholder per key, padded with the first key to a power of two.
    static func placeholderList(_ column: String, _ keys: ArraySlice<Int64>) -> SQLFragment {
        var size = 1
        while size < keys.count { size *= 2 }
        var values: [SQLValue] = []
        values.reserveCapacity(size)
        for key in keys { values.append(.integer(key)) }
        if let first = keys.first {
            for _ in keys.count..<size { values.append(.integer(first)) }
        }
        let exponent = size.trailingZeroBitCount
        let list = exponent < placeholderLists.count ? placeholderLists[exponent] : "(" + Array(repeating: "?", count: size).joined(separator: ", ") + ")"
        return SQLFragment(column + " IN " + list, values)
    }
}
