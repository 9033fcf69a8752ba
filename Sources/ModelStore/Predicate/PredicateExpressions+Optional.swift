import Foundation

extension PredicateExpressions.OptionalFlatMap: SQLPredicateExpression {
    /// `wrapped.flatMap { transform }`: NULL when the wrapped value is nil, otherwise the
    /// transform with its variable bound to the (non-nil) wrapped value.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let input = try context.translate(wrapped)
        let isNil: SQLFragment
        switch input {
        case .model(let model): isNil = "\(model.key) IS NULL"
        case .scalar(let value): isNil = "\(value.fragment) IS NULL"
        case .identifier(let model): isNil = "\(model.key) IS NULL"
        case .toMany: throw PredicateTranslationError.unsupported("flatMap over a to-many relationship")
        case .composite(let composite):
            guard let test = composite.isNil else { throw PredicateTranslationError.unsupported("flatMap over a struct that is not optional") }
            isNil = test
        }
        let output = try context.binding(variable.key, to: input) { try $0.translate(transform) }
        switch output {
        case .scalar(let value):
            return .scalar(ScalarTerm("(CASE WHEN \(isNil) THEN NULL ELSE \(value.fragment) END)", kind: value.kind))
        case .model(let model):
            return .model(ModelReference(entity: model.entity, alias: model.alias,
                                         key: "(CASE WHEN \(isNil) THEN NULL ELSE \(model.key) END)"))
        case .identifier(let model):
            return .identifier(ModelReference(entity: model.entity, alias: model.alias,
                                              key: "(CASE WHEN \(isNil) THEN NULL ELSE \(model.key) END)"))
        case .toMany:
            throw PredicateTranslationError.unsupported("an optional to-many relationship")
        case .composite(var composite):
            composite.isNil = composite.isNil.map { "(\(isNil) OR \($0))" } ?? isNil
            return .composite(composite)
        }
    }
}

extension PredicateExpressions.NilCoalesce: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        switch (try context.translate(lhs), try context.translate(rhs)) {
        case (.scalar(let value), .scalar(let fallback)):
            return .scalar(ScalarTerm("COALESCE(\(value.fragment), \(fallback.fragment))", kind: fallback.kind))
        case (.model(let model), .model(let fallback)):
            return .model(ModelReference(entity: fallback.entity, alias: nil, key: "COALESCE(\(model.key), \(fallback.key))"))
        default:
            throw PredicateTranslationError.unsupported("?? between a model and a value")
        }
    }
}

extension PredicateExpressions.ConditionalCast: SQLPredicateExpression {
    /// `model as? Subclass`: the same row when its type column names the subclass (or one of
    /// its subclasses), otherwise nil.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        guard case .model(let model) = try context.translate(input) else {
            throw PredicateTranslationError.unsupported("as? on a value (only models can be cast)")
        }
        let target = try context.entity(for: Desired.self)
        let test = TypeTest.sql(model, target, &context)
        return .model(ModelReference(entity: target, alias: model.alias,
                                     key: "(CASE WHEN \(test) THEN \(model.key) END)"))
    }
}

extension PredicateExpressions.TypeCheck: SQLPredicateExpression {
    /// `model is Subclass`: the row's type column names the subclass or one of its subclasses.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        guard case .model(let model) = try context.translate(input) else {
            throw PredicateTranslationError.unsupported("is on a value (only models can be tested)")
        }
        let target = try context.entity(for: Desired.self)
        return .scalar(ScalarTerm(TypeTest.sql(model, target, &context), kind: .plain))
    }
}

/// Whether a model's row is of an entity (0 or 1, 0 for no model).
enum TypeTest {
    static func sql(_ model: ModelReference, _ target: EntitySchema, _ context: inout TranslationContext) -> SQLFragment {
        guard target.tableName == model.entity.tableName else { return "0" }
        let names = SQLFragment.joined(target.typeNames.map { .parameter(.text($0)) }, separator: ", ")
        return "COALESCE(\(model.typeColumn(&context)) IN (\(names)), 0)"
    }
}
