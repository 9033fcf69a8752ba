import Foundation

/// Why a predicate cannot be translated (turned into `ModelStoreError.unsupportedPredicate`).
enum PredicateTranslationError: Error {
    case unsupported(String)
}

/// A predicate expression that can be written as SQL. Foundation's expression types conform
/// retroactively (see the `PredicateExpressions+…` files); children are translated through
/// `TranslationContext.translate`, which names any expression type that does not conform.
protocol SQLPredicateExpression {
    /// The SQL for this expression.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm
}

/// The state of one translation: the schema, the bound variables, fresh alias names.
struct TranslationContext {
    /// The schema the predicate's models belong to.
    let schema: Schema
    /// How the store spells SQL.
    let dialect: any SQLDialect
    /// The store's identifier (`ModelContainer.storeIdentifier`): a captured `PersistentIdentifier`
    /// of another store matches no row.
    let store: String?
    /// What each predicate variable (`$0`, a `flatMap` or `contains(where:)` variable) stands for.
    var variables: [PredicateExpressions.VariableID: SQLTerm] = [:]
    /// Every relationship the expression follows, once per use (a fetch with pending changes asks
    /// which stored rows a changed related model can change the answer for).
    var followedRelationships: [RelationshipSchema] = []
    private var aliasCount = 0
    /// Set while the translation cache learns a new shape: captured values are replaced by
    /// probes (docs/Predicates.md, "Translation cache").
    var probe: CapturedProbe?

    init(schema: Schema, dialect: any SQLDialect, store: String?) {
        self.schema = schema
        self.dialect = dialect
        self.store = store
    }

    /// A new table alias (`$` never starts a model identifier, so it cannot clash with a table).
    mutating func freshAlias() -> String {
        aliasCount += 1
        return "$p\(aliasCount)"
    }

    /// A captured value as the translation reads it: the value, or its probe.
    mutating func captured<V>(_ value: V) -> V {
        guard probe != nil else { return value }
        return probe!.substitute(value)
    }

    /// Translates any expression.
    mutating func translate(_ expression: Any) throws -> SQLTerm {
        guard let translatable = expression as? any SQLPredicateExpression else {
            throw PredicateTranslationError.unsupported("unsupported predicate expression \(Self.name(of: expression))")
        }
        return try translatable.sqlTerm(&self)
    }

    /// Translates an expression that must be a value (not a model or a to-many relationship).
    mutating func scalar(_ expression: Any) throws -> ScalarTerm {
        switch try translate(expression) {
        case .scalar(let term): return term
        case .model: throw PredicateTranslationError.unsupported("a model used as a value in \(Self.name(of: expression))")
        case .toMany: throw PredicateTranslationError.unsupported("a to-many relationship used as a value in \(Self.name(of: expression))")
        case .composite: throw PredicateTranslationError.unsupported("a struct used as a value in \(Self.name(of: expression)) (compare its fields, or the struct with == or != against nil or a captured value)")
        case .identifier: throw PredicateTranslationError.unsupported("a persistentModelID used as a value in \(Self.name(of: expression)) (it can only be compared with == or != or looked up with contains)")
        }
    }

    /// Translates an expression of Swift type `Bool` into a condition.
    mutating func condition(_ expression: Any) throws -> SQLFragment {
        dialect.condition(try scalar(expression))
    }

    /// Runs `body` with `variable` bound to `term`.
    mutating func binding<T>(_ variable: PredicateExpressions.VariableID, to term: SQLTerm, _ body: (inout TranslationContext) throws -> T) rethrows -> T {
        let previous = variables[variable]
        variables[variable] = term
        defer { variables[variable] = previous }
        return try body(&self)
    }

    /// The entity of a model type, or an error naming the type.
    func entity(for type: Any.Type) throws -> EntitySchema {
        guard let modelType = type as? ModelObject.Type, let entity = schema.entity(for: modelType) else {
            throw PredicateTranslationError.unsupported("\(type) is not a model of the container's schema")
        }
        return entity
    }

    /// `PredicateExpressions.Name` of an expression's type, without generic arguments.
    static func name(of expression: Any) -> String {
        var name = String(reflecting: type(of: expression))
        if let open = name.firstIndex(of: "<") { name = String(name[..<open]) }
        if let range = name.range(of: "PredicateExpressions.") { name = String(name[range.lowerBound...]) }
        return name
    }
}
