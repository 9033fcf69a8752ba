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
            return .scalar(try Self.membership(item, in: elements, &context))
        }
        let elementKind = try values.kind.comparableJSONElement(for: "contains(_:)")
        let alias = context.freshAlias()
        let elements = context.dialect.jsonElements(of: values.fragment, alias: alias, element: values.kind.jsonElementType)
        let element = ScalarTerm(elements.value, kind: elementKind)
        let match = elementKind == .bool
            ? context.dialect.same(elements.value, context.dialect.boolValue(item), negated: false, kind: .bool)
            : context.dialect.same(element.fragment, item.fragment, negated: false, kind: elementKind)
        return .scalar(ScalarTerm("EXISTS (SELECT 1 FROM \(elements.source) WHERE \(match))", kind: .plain))
    }

    /// `item` is one of `elements` (with Swift's `==`, so nil matches nil). Duplicates are dropped
    /// through a set, so a list of n values costs n hashes, not n² comparisons (#26, item 10).
    private static func membership(_ item: ScalarTerm, in elements: [Any], _ context: inout TranslationContext) throws -> ScalarTerm {
        var values: [(value: SQLValue, type: Any.Type)] = []
        var seen = Set<SQLValue>()
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = CapturedValue.sqlValue(of: element) else {
                throw PredicateTranslationError.unsupported("contains(_:) on captured values of type \(type(of: element))")
            }
            if seen.insert(value).inserted { values.append((value, CapturedValue.wrappedType(of: element))) }
        }
        let dialect = context.dialect
        let nonNull = values.filter { !$0.value.isNull }
        var parts: [SQLFragment] = []
        if !nonNull.isEmpty, let indexed = IndexedEquality.membership(item, nonNull, dialect) {
            parts.append(indexed)
        } else if !nonNull.isEmpty {
            let subject = item.kind == .bool || nonNull.first?.type == Bool.self ? dialect.boolValue(item) : item.fragment
            if nonNull.count > CapturedList.longList, let first = nonNull.first, nonNull.allSatisfy({ $0.type == first.type }),
               let one = dialect.isIn(subject, values: nonNull.map(\.value), type: first.type, kind: item.kind) {
                parts.append(one)
            } else {
                let list = nonNull.map { dialect.parameter($0.value, type: $0.type) }
                parts.append(dialect.isIn(subject, list, kind: item.kind))
            }
        }
        if nonNull.count < values.count { parts.append("(\(item.fragment) IS NULL)") }
        if parts.isEmpty { return ScalarTerm("\(raw: dialect.falseCondition)", kind: .plain) }
        return ScalarTerm("(\(SQLFragment.joined(parts, separator: " OR ")))", kind: .plain)
    }
}

extension PredicateExpressions.SequenceContainsWhere: SQLPredicateExpression {
    /// `relationship.contains(where:)` or `arrayAttribute.contains(where:)`: `EXISTS`.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let (rows, element) = try SequenceRows.rows(of: sequence, &context)
        let condition = try context.binding(variable.key, to: element) { try $0.condition(test) }
        return .scalar(ScalarTerm("EXISTS (SELECT 1 \(rows) AND \(condition))", kind: .plain))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SQLPredicateExpression {
    /// `relationship.allSatisfy { … }`: `NOT EXISTS` a row that fails the test.
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let (rows, element) = try SequenceRows.rows(of: sequence, &context)
        let condition = try context.binding(variable.key, to: element) { try $0.condition(test) }
        return .scalar(ScalarTerm("(NOT EXISTS (SELECT 1 \(rows) AND NOT \(condition)))", kind: .plain))
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
            let elements = context.dialect.jsonElements(of: values.fragment, alias: alias, element: values.kind.jsonElementType)
            return ("FROM \(elements.source) WHERE \(raw: context.dialect.trueCondition)", .scalar(ScalarTerm(elements.value, kind: elementKind)))
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
        let dialect = context.dialect
        let above = dialect.compare(lower.fragment, "<=", item.fragment, kind: item.kind)
        let below = dialect.compare(item.fragment, isClosed ? "<=" : "<", upper.fragment, kind: item.kind)
        return .scalar(ScalarTerm("(\(above) AND \(below))", kind: .plain))
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

/// Captured lists in predicates.
enum CapturedList {
    /// Lists longer than this are bound as one parameter (`SQLDialect.isIn(_:values:type:kind:)`):
    /// SQLite takes at most 250,000 parameters a statement (Debian's build; 32,766 by default),
    /// and PostgreSQL's protocol message breaks past a few thousand (docs/Predicates.md).
    static let longList = 1_000
}
