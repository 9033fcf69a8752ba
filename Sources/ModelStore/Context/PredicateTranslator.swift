import Foundation

/// Translates `#Predicate` to SQL. The one entry point every fetch, count and batch delete
/// goes through; the predicate stage of the project fills it in.
enum PredicateTranslator {
    /// The SQL condition equivalent to `predicate` on rows of `entity` (columns are in
    /// `entity.tableName`; use `entity.column(forKeyPath:)` and `schema` for related entities),
    /// spelled for `dialect`, in the store whose identifier is `store`.
    static func sqlFilter<T: PersistentModel>(for predicate: Predicate<T>, entity: EntitySchema, schema: Schema,
                                              dialect: any SQLDialect, store: String?) throws -> SQLFilter {
        try PredicateSQL.filter(for: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
    }

    /// `sqlFilter` through the container's translation cache (docs/Predicates.md, "Translation cache").
    static func sqlFilter<T: PersistentModel>(for predicate: Predicate<T>, entity: EntitySchema, schema: Schema,
                                              dialect: any SQLDialect, store: String?, cache: PredicateTranslationCache) throws -> SQLFilter {
        try PredicateSQL.translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store, cache: cache).filter
    }
}
