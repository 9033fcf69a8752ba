import Foundation

// `max()` and `min()` of an array attribute: SQL's `max`/`min` over the JSON array's elements,
// in the order Swift gives them (`PredicateSpelling.aggregate`); NULL (Swift's nil) for an empty array.
// Refused for elements whose JSON form is not their stored form (`ValueKind.unmatchedJSONElement`).
// A to-many relationship has no `max()`: models are not `Comparable`.

extension PredicateExpressions.SequenceMaximum: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        try ArrayExtreme.sql("max", of: elements, element: Elements.Output.Element.self, constant: { try evaluate($0) as Any }, &context)
    }
}

extension PredicateExpressions.SequenceMinimum: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        try ArrayExtreme.sql("min", of: elements, element: Elements.Output.Element.self, constant: { try evaluate($0) as Any }, &context)
    }
}

enum ArrayExtreme {
    /// `function` (`max` or `min`) of the elements of `elements`, an array attribute or a
    /// captured sequence (computed in Swift by `constant`).
    static func sql(_ function: String, of elements: Any, element: Any.Type, constant: (PredicateBindings) throws -> Any,
                    _ context: inout TranslationContext) throws -> SQLTerm {
        let values = try context.scalar(elements)
        let name = "\(function)() over [\(element)]"
        if values.constant != nil {
            let result = try constant(PredicateBindings())
            guard let value = CapturedValue.sqlValue(of: result) else {
                throw PredicateTranslationError.unsupported("\(name) of a captured sequence")
            }
            return .scalar(ScalarTerm(context.dialect.parameter(value, type: element), kind: .of(element), constant: result))
        }
        let kind = try values.kind.comparableJSONElement(for: "\(function)()")
        let alias = context.freshAlias()
        let elements = context.dialect.jsonElements(of: values.fragment, alias: alias, element: values.kind.jsonElementType)
        return .scalar(ScalarTerm("(SELECT \(context.dialect.aggregate(function, of: elements.value, kind: kind)) FROM \(elements.source))", kind: kind))
    }
}
