import Foundation

extension PredicateExpressions.Equal: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        .scalar(try Equality.sql(lhs, rhs, negated: false, &context))
    }
}

extension PredicateExpressions.NotEqual: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        .scalar(try Equality.sql(lhs, rhs, negated: true, &context))
    }
}

extension PredicateExpressions.Comparison: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let left = try context.scalar(lhs)
        let right = try context.scalar(rhs)
        let symbol: String
        switch op {
        case .lessThan: symbol = "<"
        case .lessThanOrEqual: symbol = "<="
        case .greaterThan: symbol = ">"
        case .greaterThanOrEqual: symbol = ">="
        }
        // Both sides are non-optional in Swift, so never NULL where the result counts.
        return .scalar(ScalarTerm("(\(left.fragment) \(raw: symbol) \(right.fragment)\(raw: left.kind.collation))", kind: .plain))
    }
}

/// `==` and `!=` with Swift's meaning for optionals: `nil == nil` is true, `nil == x` false.
/// SQL's `IS` / `IS NOT` compare NULLs that way and never yield NULL.
enum Equality {
    static func sql(_ lhs: Any, _ rhs: Any, negated: Bool, _ context: inout TranslationContext) throws -> ScalarTerm {
        let operation = negated ? "IS NOT" : "IS"
        switch (try context.translate(lhs), try context.translate(rhs)) {
        case (.scalar(let left), .scalar(let right)):
            let kind = left.isNilLiteral ? right.kind : left.kind
            return ScalarTerm("(\(left.fragment) \(raw: operation) \(right.fragment)\(raw: kind.collation))", kind: .plain)
        case (.model(let left), .model(let right)):
            return ScalarTerm("(\(left.key) \(raw: operation) \(right.key))", kind: .plain)
        case (.model(let model), .scalar(let value)), (.scalar(let value), .model(let model)):
            guard value.isNilLiteral else {
                throw PredicateTranslationError.unsupported("a model compared with a value")
            }
            return ScalarTerm("(\(model.key) \(raw: operation) NULL)", kind: .plain)
        default:
            throw PredicateTranslationError.unsupported("== or != on a to-many relationship")
        }
    }
}
