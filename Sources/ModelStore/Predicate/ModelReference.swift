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

/// A struct attribute of a model, or a struct field of one, stored as columns: `$0.plumage`,
/// `$0.plumage.primary`. A key path on it names a field: another struct, or a column's value.
struct CompositeReference {
    /// The model whose row holds the columns.
    var model: ModelReference
    /// The struct's columns, in order (a presence column first for an optional struct).
    var columns: [AttributeColumn]
    /// The key paths of the fields from the attribute's struct to this struct (empty for the attribute).
    var path: [AnyKeyPath]
    /// The condition that the struct is nil (`presence IS NULL` of every optional struct on the
    /// way), or nil when it cannot be.
    var isNil: SQLFragment?

    /// The struct attribute `attribute` of `model`.
    static func attribute(_ attribute: StoredAttribute, of model: ModelReference, _ context: inout TranslationContext) -> CompositeReference {
        let columns = Array(model.entity.attributes[attribute.columns])
        var reference = CompositeReference(model: model, columns: columns, path: [], isNil: nil)
        reference.addPresence(&context)
        return reference
    }

    /// Adds this struct's presence column (if it has one) to the nil condition.
    private mutating func addPresence(_ context: inout TranslationContext) {
        guard let presence = columns.first, presence.details.isPresence, presence.details.fieldPath.count == path.count else { return }
        let test: SQLFragment = "\(model.column(presence.column, &context)) IS NULL"
        isNil = isNil.map { "(\($0) OR \(test))" } ?? test
    }

    /// The field at `keyPath` (a key path of the struct's type): a value or a nested struct.
    func field(_ keyPath: AnyKeyPath, valueType: Any.Type, _ context: inout TranslationContext) throws -> SQLTerm {
        let depth = path.count
        let inside = columns.filter { $0.details.fieldPath.count > depth && $0.details.fieldPath[depth] == keyPath }
        guard let first = inside.first else {
            throw PredicateTranslationError.unsupported("key path \(keyPath) is not a stored field of struct \(columns.first?.propertyName ?? "")")
        }
        if inside.count == 1, !first.details.isPresence, first.details.fieldPath.count == depth + 1 {
            var value = model.column(first.column, &context)
            if let isNil { value = "(CASE WHEN \(isNil) THEN NULL ELSE \(value) END)" }
            return .scalar(ScalarTerm(value, kind: .of(valueType)))
        }
        var nested = CompositeReference(model: model, columns: inside, path: path + [keyPath], isNil: isNil)
        nested.addPresence(&context)
        return .composite(nested)
    }

    /// The value columns (presence columns left out) as SQL, in order.
    func valueColumns(_ context: inout TranslationContext) -> [SQLFragment] {
        columns.filter { !$0.details.isPresence }.map { model.column($0.column, &context) }
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
