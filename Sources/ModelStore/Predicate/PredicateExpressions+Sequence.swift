import Foundation

extension PredicateExpressions.SequenceContains: SQLPredicateExpression {
    /// `captured.contains(value)` (an `IN` list) or `arrayAttribute.contains(value)` (over the
    /// JSON array's elements).
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let collection = try context.translate(sequence)
        let item: ScalarTerm
        switch try context.translate(element) {
        case .scalar(let value):
            item = value
        case .identifier(let model):
            guard case .scalar(let values) = collection, let constant = values.constant,
                  let elements = CapturedValue.elements(of: constant) else {
                throw PredicateTranslationError.unsupported("contains(_:) of a persistentModelID in a value that is not a captured array")
            }
            return .scalar(ScalarTerm(try IdentitySQL.contains(model, in: elements, &context), kind: .plain))
        case .model, .toMany:
            throw PredicateTranslationError.unsupported("contains(_:) of a model (compare persistentModelID, or use contains(where:))")
        case .composite:
            throw PredicateTranslationError.unsupported("contains(_:) of a struct (compare its fields)")
        }
        guard case .scalar(let values) = collection else {
            throw PredicateTranslationError.unsupported("contains(_:) on a to-many relationship (use contains(where:))")
        }
        if let constant = values.constant {
            guard let elements = CapturedValue.elements(of: constant) else {
                throw PredicateTranslationError.unsupported("contains(_:) on a captured \(type(of: constant))")
            }
            return .scalar(try Self.membership(item, in: elements))
        }
        let elementKind = try values.kind.comparableJSONElement(for: "contains(_:)")
        let alias = context.freshAlias()
        return .scalar(ScalarTerm(
            "EXISTS (SELECT 1 FROM json_each(\(values.fragment)) AS \(identifier: alias) WHERE \(identifier: alias).\"value\" IS \(item.fragment)\(raw: elementKind.collation))",
            kind: .plain))
    }

    /// `item` is one of `elements` (with Swift's `==`, so nil matches nil).
    private static func membership(_ item: ScalarTerm, in elements: [Any]) throws -> ScalarTerm {
        var values: [SQLValue] = []
        for element in elements {
            guard let value = CapturedValue.sqlValue(of: element) else {
                throw PredicateTranslationError.unsupported("contains(_:) on captured values of type \(type(of: element))")
            }
            if !values.contains(value) { values.append(value) }
        }
        let nonNull = values.filter { !$0.isNull }
        var parts: [SQLFragment] = []
        if !nonNull.isEmpty {
            let list = SQLFragment.joined(nonNull.map(SQLFragment.parameter), separator: ", ")
            parts.append("COALESCE(\(item.fragment)\(raw: item.kind.collation) IN (\(list)), 0)")
        }
        if nonNull.count < values.count { parts.append("(\(item.fragment) IS NULL)") }
        if parts.isEmpty { return ScalarTerm("0", kind: .plain) }
        return ScalarTerm("(\(SQLFragment.joined(parts, separator: " OR ")))", kind: .plain)
    }
}

extension PredicateExpressions.SequenceContainsWhere: SQLPredicateExpression {
    /// `relationship.contains(where:)` or `arrayAttribute.contains(where:)`: `EXISTS`.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let (rows, element) = try SequenceRows.rows(of: sequence, &context)
        let condition = try context.binding(variable.key, to: element) { try $0.scalar(test) }
        return .scalar(ScalarTerm("EXISTS (SELECT 1 \(rows) AND \(condition.fragment))", kind: .plain))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SQLPredicateExpression {
    /// `relationship.allSatisfy { … }`: `NOT EXISTS` a row that fails the test.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let (rows, element) = try SequenceRows.rows(of: sequence, &context)
        let condition = try context.binding(variable.key, to: element) { try $0.scalar(test) }
        return .scalar(ScalarTerm("(NOT EXISTS (SELECT 1 \(rows) AND NOT \(condition.fragment)))", kind: .plain))
    }
}

/// The rows of a to-many relationship or of a JSON array attribute, for a subquery.
enum SequenceRows {
    /// `FROM … WHERE …` (a condition always follows, so callers append `AND …`) and the term
    /// the element variable stands for.
    static func rows(of sequence: Any, _ context: inout TranslationContext) throws -> (SQLFragment, SQLTerm) {
        let alias = context.freshAlias()
        switch try context.translate(sequence) {
        case .toMany(let many):
            let rows = try many.rows(alias: alias, &context)
            return (rows, .model(.row(of: many.destination, alias: alias)))
        case .scalar(let values):
            guard values.constant == nil else {
                throw PredicateTranslationError.unsupported("contains(where:) or allSatisfy on a value that is not a stored array")
            }
            let elementKind = try values.kind.comparableJSONElement(for: "contains(where:) or allSatisfy")
            return ("FROM json_each(\(values.fragment)) AS \(identifier: alias) WHERE 1",
                    .scalar(ScalarTerm("\(identifier: alias).\"value\"", kind: elementKind)))
        case .model, .identifier:
            throw PredicateTranslationError.unsupported("contains(where:) on a model")
        case .composite:
            throw PredicateTranslationError.unsupported("contains(where:) on a struct")
        }
    }
}

extension PredicateExpressions.RangeExpressionContains: SQLPredicateExpression {
    /// `(a...b).contains(x)` and `(a..<b).contains(x)`.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        guard let bounds = range as? any SQLRangeExpression else {
            throw PredicateTranslationError.unsupported("unsupported predicate expression \(TranslationContext.name(of: range))")
        }
        let (lower, upper, isClosed) = try bounds.bounds(&context)
        let item = try context.scalar(element)
        let collation = item.kind.collation
        return .scalar(ScalarTerm(
            "(\(lower.fragment) <= \(item.fragment)\(raw: collation) AND \(item.fragment) \(raw: isClosed ? "<=" : "<") \(upper.fragment)\(raw: collation))",
            kind: .plain))
    }
}

/// A range expression with translatable bounds.
protocol SQLRangeExpression {
    func bounds(_ context: inout TranslationContext) throws -> (ScalarTerm, ScalarTerm, Bool)
}

extension PredicateExpressions.Range: SQLRangeExpression {
    func bounds(_ context: inout TranslationContext) throws -> (ScalarTerm, ScalarTerm, Bool) {
        (try context.scalar(lower), try context.scalar(upper), false)
    }
}

extension PredicateExpressions.ClosedRange: SQLRangeExpression {
    func bounds(_ context: inout TranslationContext) throws -> (ScalarTerm, ScalarTerm, Bool) {
        (try context.scalar(lower), try context.scalar(upper), true)
    }
}
