import Foundation

extension PredicateExpressions.Variable: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        guard let term = context.variables[key] else {
            throw PredicateTranslationError.unsupported("a predicate variable outside its scope")
        }
        return term
    }
}

extension PredicateExpressions.Value: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let value = context.captured(self.value)
        guard let sqlValue = CapturedValue.sqlValue(of: value) else {
            throw PredicateTranslationError.unsupported("a captured value of type \(Output.self)")
        }
        return .scalar(ScalarTerm(context.dialect.parameter(sqlValue, type: CapturedValue.wrappedType(of: value)), kind: .of(Output.self), constant: value))
    }
}

extension PredicateExpressions.NilLiteral: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        .scalar(ScalarTerm("NULL", kind: .of(Wrapped.self)))
    }
}

/// Captured values as SQL values (bound as parameters, never spliced into the SQL text).
enum CapturedValue {
    /// The stored form of `value`: what a column holding it contains. Nil for a type that
    /// cannot be stored.
    static func sqlValue(of value: Any) -> SQLValue? {
        if let optional = value as? any OptionalTypeInfo {
            guard let wrapped = optional.wrappedAny else { return .null }
            return sqlValue(of: wrapped)
        }
        if let storable = value as? any SQLStorable { return storable.sqlValue }
        // Compared only where the translator knows them: identifiers with `persistentModelID`
        // (`IdentitySQL`), comparison results with `caseInsensitiveCompare`'s raw value.
        if let identifier = value as? PersistentIdentifier { return .text(identifier.description) }
        if let result = value as? ComparisonResult { return .integer(Int64(result.rawValue)) }
        return nil
    }

    /// The value inside any optionals (nil for nil).
    static func unwrapped(_ value: Any) -> Any? {
        if let optional = value as? any OptionalTypeInfo {
            guard let wrapped = optional.wrappedAny else { return nil }
            return unwrapped(wrapped)
        }
        return value
    }

    /// The type of `value`, without `Optional` (a nil's wrapped type).
    static func wrappedType(of value: Any) -> Any.Type {
        var type: Any.Type = Swift.type(of: value)
        while let optional = type as? any OptionalTypeInfo.Type { type = optional.wrappedType }
        return type
    }

    /// The elements of a captured sequence.
    static func elements(of value: Any) -> [Any]? {
        guard let sequence = value as? any Sequence else { return nil }
        return elements(sequence)
    }

    private static func elements<S: Sequence>(_ sequence: S) -> [Any] {
        sequence.map { $0 as Any }
    }
}
