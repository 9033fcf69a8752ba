import Foundation

/// Translates a `#Predicate` into an SQL condition on the rows of an entity's table.
enum PredicateSQL {
    /// The condition equivalent to `predicate` on rows of `entity` (the outer query selects from
    /// `entity.tableName` without an alias), spelled for `dialect`, in the store `store` (its
    /// identifier, for captured `PersistentIdentifier`s). Throws
    /// `ModelStoreError.unsupportedPredicate` naming the first expression that has no SQL equivalent.
    static func filter<T>(for predicate: Predicate<T>, entity: EntitySchema, schema: Schema, dialect: any SQLDialect,
                          store: String?) throws -> SQLFilter {
        try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store).filter
    }

    /// The condition, and the relationships it follows (once per use, in the order met).
    static func translation<T>(of predicate: Predicate<T>, entity: EntitySchema, schema: Schema, dialect: any SQLDialect,
                               store: String?) throws -> (filter: SQLFilter, followed: [RelationshipSchema]) {
        var context = TranslationContext(schema: schema, dialect: dialect, store: store)
        context.variables[predicate.variable.key] = .model(.row(of: entity, alias: entity.tableName))
        do {
            let condition = try context.condition(predicate.expression)
            return (SQLFilter(sql: condition.sql, bindings: condition.bindings), context.followedRelationships)
        } catch PredicateTranslationError.unsupported(let what) {
            throw ModelStoreError.unsupportedPredicate(what)
        }
    }
}
