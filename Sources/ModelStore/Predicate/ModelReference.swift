import Foundation

/// A model in SQL: a row of `entity`'s hierarchy table.
struct ModelReference {
    /// The entity of the Swift static type (after a cast, the cast's type).
    var entity: EntitySchema
    /// An alias of the row in the current query scope, when there is one (the fetched row, a
    /// row of an `EXISTS` subquery); otherwise columns are read by a scalar subquery on `key`.
    var alias: String?
    /// The row's primary key, or NULL for no model (nil).
    var key: SQLFragment

    /// The row in scope under `alias`.
    static func row(of entity: EntitySchema, alias: String) -> ModelReference {
        ModelReference(entity: entity, alias: alias, key: "\(identifier: alias).\(identifier: StorageNames.primaryKey)")
    }

    /// The value of `column` of the referenced row (NULL when there is no row).
    func column(_ column: String, _ context: inout TranslationContext) -> SQLFragment {
        if let alias { return "\(identifier: alias).\(identifier: column)" }
        let inner = context.freshAlias()
        return "(SELECT \(identifier: inner).\(identifier: column) FROM \(identifier: entity.tableName) AS \(identifier: inner) WHERE \(identifier: inner).\(identifier: StorageNames.primaryKey) = \(key))"
    }

    /// The row's type column (its entity name).
    func typeColumn(_ context: inout TranslationContext) -> SQLFragment {
        column(StorageNames.type, &context)
    }
}

/// A to-many relationship of a model, read with a subquery.
struct ToManyReference {
    /// The relationship.
    var relationship: RelationshipSchema
    /// The entity of the related models.
    var destination: EntitySchema
    /// The owning model's key.
    var ownerKey: SQLFragment

    /// `FROM … WHERE …` text selecting the related rows under `alias` (without the `SELECT`).
    func rows(alias: String, _ context: inout TranslationContext) throws -> SQLFragment {
        let pk = StorageNames.primaryKey
        var clause: SQLFragment
        switch relationship.storage {
        case .inverseKeyColumn(let table, let column):
            clause = "FROM \(identifier: table) AS \(identifier: alias) WHERE \(identifier: alias).\(identifier: column) = \(ownerKey)"
        case .joinTable(let table, let ownColumn, let otherColumn):
            let link = context.freshAlias()
            clause = "FROM \(identifier: table) AS \(identifier: link) JOIN \(identifier: destination.tableName) AS \(identifier: alias) ON \(identifier: alias).\(identifier: pk) = \(identifier: link).\(identifier: otherColumn) WHERE \(identifier: link).\(identifier: ownColumn) = \(ownerKey)"
        case .keyColumn:
            throw PredicateTranslationError.unsupported("to-many relationship \(relationship.entityName).\(relationship.name) without storage")
        }
        if destination.baseName != nil {
            let names = SQLFragment.joined(destination.typeNames.map { .parameter(.text($0)) }, separator: ", ")
            clause = "\(clause) AND \(identifier: alias).\(identifier: StorageNames.type) IN (\(names))"
        }
        return clause
    }
}
