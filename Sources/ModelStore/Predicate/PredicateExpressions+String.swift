import Foundation

// String searches: on SQLite, functions implemented by the very Foundation expressions that
// `Predicate.evaluate` runs, so SQL and Swift agree on every string (see `PredicateFunctions`);
// on PostgreSQL, the closest built-in SQL (`PostgresDialect`, docs/PostgreSQL.md "Predicates").

extension PredicateExpressions.CollectionContainsCollection: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        try StringSearch.call(.contains, base, other, &context)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        try StringSearch.call(.startsWith, base, prefix, &context)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        try StringSearch.call(.localizedStandardContains, root, other, &context)
    }
}

enum StringSearch {
    static func call(_ search: StringSearchKind, _ base: Any, _ other: Any, _ context: inout TranslationContext) throws -> SQLTerm {
        let text = try context.scalar(base)
        let other = try context.scalar(other)
        guard text.kind == .string, other.kind == .string else {
            throw PredicateTranslationError.unsupported("\(TranslationContext.name(of: base)) search on values that are not strings")
        }
        return .scalar(ScalarTerm(context.dialect.stringSearch(search, text.fragment, other.fragment), kind: .plain))
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: SQLPredicateExpression {
    /// The `ComparisonResult`'s raw value (-1, 0, 1), compared with a captured result by `==`.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let text = try context.scalar(root)
        let other = try context.scalar(other)
        return .scalar(ScalarTerm(context.dialect.caseInsensitiveCompare(text.fragment, other.fragment), kind: .plain))
    }
}
