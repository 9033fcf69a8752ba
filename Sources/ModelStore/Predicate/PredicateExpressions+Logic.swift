import Foundation

// Swift Bools are SQL conditions (on SQLite 0/1; stored Bool values are turned into conditions
// where a store's SQL tells them apart, see `PredicateSpelling`). Every Bool-valued term is NULL
// only where Swift would not evaluate it (inside an optional's `flatMap` whose value is nil), so
// AND, OR and NOT give Swift's answer.

extension PredicateExpressions.Conjunction: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let left = try context.condition(lhs)
        let right = try context.condition(rhs)
        return .scalar(ScalarTerm("(\(left) AND \(right))", kind: .plain))
    }
}

extension PredicateExpressions.Disjunction: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let left = try context.condition(lhs)
        let right = try context.condition(rhs)
        return .scalar(ScalarTerm("(\(left) OR \(right))", kind: .plain))
    }
}

extension PredicateExpressions.Negation: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let inner = try context.condition(wrapped)
        return .scalar(ScalarTerm("(NOT \(inner))", kind: .plain))
    }
}

extension PredicateExpressions.Conditional: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let condition = try context.condition(test)
        switch (try context.translate(trueBranch), try context.translate(falseBranch)) {
        case (.scalar(let yes), .scalar(let no)):
            let kind = yes.isNilLiteral ? no.kind : yes.kind
            // Bool branches, one a stored value and the other a condition: both as values.
            if (yes.kind == .bool) != (no.kind == .bool) {
                let dialect = context.dialect
                return .scalar(ScalarTerm("(CASE WHEN \(condition) THEN \(dialect.boolValue(yes)) ELSE \(dialect.boolValue(no)) END)", kind: .bool))
            }
            return .scalar(ScalarTerm("(CASE WHEN \(condition) THEN \(yes.fragment) ELSE \(no.fragment) END)", kind: kind))
        case (.model(let yes), .model(let no)):
            return .model(ModelReference(entity: yes.entity, alias: nil,
                                         key: "(CASE WHEN \(condition) THEN \(yes.key) ELSE \(no.key) END)"))
        case (.model(let yes), .scalar(let no)) where no.isNilLiteral:
            return .model(ModelReference(entity: yes.entity, alias: nil,
                                         key: "(CASE WHEN \(condition) THEN \(yes.key) END)"))
        case (.scalar(let yes), .model(let no)) where yes.isNilLiteral:
            return .model(ModelReference(entity: no.entity, alias: nil,
                                         key: "(CASE WHEN \(condition) THEN NULL ELSE \(no.key) END)"))
        default:
            throw PredicateTranslationError.unsupported("a conditional expression whose branches are not both values or both models")
        }
    }
}
