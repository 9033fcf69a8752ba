import Foundation

/// What a predicate expression translates to.
enum SQLTerm {
    /// A value (number, text, date, Bool, enum raw value, JSON array…); NULL stands for nil.
    case scalar(ScalarTerm)
    /// A model: a row of an entity's table (or none: its key is NULL).
    case model(ModelReference)
    /// A to-many relationship of a model.
    case toMany(ToManyReference)
}

/// How SQL must compare values of a Swift type so that it agrees with Swift.
indirect enum ValueKind: Equatable {
    /// `String`: compared as Swift compares strings (Unicode canonical equivalence) through
    /// the `MODELSTORE_SWIFT` collation.
    case string
    /// `Decimal`, stored as text: compared as numbers through the `MODELSTORE_DECIMAL` collation.
    case decimal
    /// `Float`: stored as a Double, so SQL arithmetic would not round like Swift's.
    case float
    /// An array stored as one JSON text column.
    case jsonArray(element: ValueKind)
    /// Numbers, dates, Bools, enum raw values, UUIDs, URLs, data: SQLite's own comparison agrees.
    case plain

    /// The kind of values of `type` (an optional has its wrapped type's kind).
    static func of(_ type: Any.Type) -> ValueKind {
        if let optional = type as? any OptionalTypeInfo.Type { return of(optional.wrappedType) }
        if type == String.self || type == Substring.self { return .string }
        if type == Decimal.self { return .decimal }
        if type == Float.self { return .float }
        if let array = type as? any ArrayTypeInfo.Type { return .jsonArray(element: of(array.elementType)) }
        return .plain
    }

    /// The `COLLATE` clause comparisons of this kind need (with a leading space), or "".
    var collation: String {
        switch self {
        case .string: return " COLLATE " + PredicateFunctions.swiftStringCollation
        case .decimal: return " COLLATE " + PredicateFunctions.decimalCollation
        default: return ""
        }
    }
}

/// A value in SQL.
struct ScalarTerm {
    /// The SQL expression.
    var fragment: SQLFragment
    /// How to compare it.
    var kind: ValueKind
    /// The Swift value, when the term is a captured constant (`Value`).
    var constant: Any?

    /// Whether the term is the `nil` literal.
    var isNilLiteral: Bool { fragment.sql == "NULL" && fragment.bindings.isEmpty }

    init(_ fragment: SQLFragment, kind: ValueKind, constant: Any? = nil) {
        self.fragment = fragment
        self.kind = kind
        self.constant = constant
    }
}

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

/// Reads an optional's wrapped type and value without knowing it statically.
protocol OptionalTypeInfo {
    static var wrappedType: Any.Type { get }
    var wrappedAny: Any? { get }
}

extension Optional: OptionalTypeInfo {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedAny: Any? { map { $0 } }
}

/// Reads an array's element type without knowing it statically.
protocol ArrayTypeInfo {
    static var elementType: Any.Type { get }
}

extension Array: ArrayTypeInfo {
    static var elementType: Any.Type { Element.self }
}
