import Foundation

// Swift Bools are SQL 0/1. Every Bool-valued term is NULL only where Swift would not evaluate
// it (inside an optional's `flatMap` whose value is nil), so AND, OR and NOT give Swift's answer.

extension PredicateExpressions.Conjunction: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let left = try context.scalar(lhs)
        let right = try context.scalar(rhs)
        return .scalar(ScalarTerm("(\(left.fragment) AND \(right.fragment))", kind: .plain))
    }
}

extension PredicateExpressions.Disjunction: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let left = try context.scalar(lhs)
        let right = try context.scalar(rhs)
        return .scalar(ScalarTerm("(\(left.fragment) OR \(right.fragment))", kind: .plain))
    }
}

extension PredicateExpressions.Negation: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let inner = try context.scalar(wrapped)
        return .scalar(ScalarTerm("(NOT \(inner.fragment))", kind: .plain))
    }
}

extension PredicateExpressions.Conditional: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let condition = try context.scalar(test)
        switch (try context.translate(trueBranch), try context.translate(falseBranch)) {
        case (.scalar(let yes), .scalar(let no)):
            let kind = yes.isNilLiteral ? no.kind : yes.kind
            return .scalar(ScalarTerm("(CASE WHEN \(condition.fragment) THEN \(yes.fragment) ELSE \(no.fragment) END)", kind: kind))
        case (.model(let yes), .model(let no)):
            return .model(ModelReference(entity: yes.entity, alias: nil,
                                         key: "(CASE WHEN \(condition.fragment) THEN \(yes.key) ELSE \(no.key) END)"))
        case (.model(let yes), .scalar(let no)) where no.isNilLiteral:
            return .model(ModelReference(entity: yes.entity, alias: nil,
                                         key: "(CASE WHEN \(condition.fragment) THEN \(yes.key) END)"))
        case (.scalar(let yes), .model(let no)) where yes.isNilLiteral:
            return .model(ModelReference(entity: no.entity, alias: nil,
                                         key: "(CASE WHEN \(condition.fragment) THEN NULL ELSE \(no.key) END)"))
        default:
            throw PredicateTranslationError.unsupported("a conditional expression whose branches are not both values or both models")
        }
    }
}
