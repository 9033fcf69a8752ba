import Foundation

// Apple's `PredicateEvaluate` is available from macOS 14.4 (the package's floor is macOS 14).
@available(macOS 14.4, iOS 17.4, tvOS 17.4, watchOS 10.4, *)
extension PredicateExpressions.PredicateEvaluate: SQLPredicateExpression {
    /// `other.evaluate($0)` of a captured predicate: the captured predicate's own condition,
    /// inlined with its variables standing for the given inputs.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let inner: Predicate<repeat (each Input).Output>
        do {
            inner = try predicate.evaluate(PredicateBindings())
        } catch {
            throw PredicateTranslationError.unsupported("evaluate(_:) of a predicate that is not a captured value")
        }
        var keys: [PredicateExpressions.VariableID] = []
        for variable in repeat each inner.variable { keys.append(variable.key) }
        var terms: [SQLTerm] = []
        for expression in repeat each input { terms.append(try context.translate(expression)) }
        let condition = try InlinedPredicate.condition(inner.expression, binding: Array(zip(keys, terms)), &context)
        return .scalar(ScalarTerm(context.dialect.condition(condition), kind: .plain))
    }
}

enum InlinedPredicate {
    /// `expression` translated with each variable standing for its term.
    static func condition(_ expression: Any, binding bound: [(PredicateExpressions.VariableID, SQLTerm)],
                          _ context: inout TranslationContext) throws -> ScalarTerm {
        let previous = bound.map { context.variables[$0.0] }
        for (key, term) in bound { context.variables[key] = term }
        defer { for (index, (key, _)) in bound.enumerated() { context.variables[key] = previous[index] } }
        return try context.scalar(expression)
    }
}
