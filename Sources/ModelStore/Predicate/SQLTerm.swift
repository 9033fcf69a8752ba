import Foundation

/// What a predicate expression translates to.
enum SQLTerm {
    /// A value (number, text, date, Bool, enum raw value, JSON array…); NULL stands for nil.
    case scalar(ScalarTerm)
    /// A model: a row of an entity's table (or none: its key is NULL).
    case model(ModelReference)
    /// A to-many relationship of a model.
    case toMany(ToManyReference)
    /// A model's `persistentModelID` (its row; nil when the key is NULL), compared only with
    /// `==` / `!=` and `contains` against captured identifiers or another identifier.
    case identifier(ModelReference)
    /// A struct attribute of a model (or a struct field of one): its columns, nil when its
    /// presence column is NULL (an optional struct).
    case composite(CompositeReference)
}

/// How SQL must compare values of a Swift type so that it agrees with Swift.
indirect enum ValueKind: Equatable {
    /// `String`: compared as Swift compares strings (Unicode canonical equivalence) through
    /// the `MODELSTORE_SWIFT` collation.
    case string
    /// `Decimal`, stored as text: compared as numbers through the `MODELSTORE_DECIMAL` collation.
    case decimal
    /// `Float`: stored as a Double, so SQL arithmetic would not round like Swift's.
    case float
    /// An array stored as one JSON text column.
    case jsonArray(element: ValueKind)
    /// An element of a JSON array whose JSON form is not the value a column or a captured value
    /// of its type holds (`UUID` and `Data`: text vs bytes; `Decimal`: a JSON number read as a
    /// Double vs exact text; `Float`: its shortest decimal read as another Double), so SQL
    /// cannot compare it with one. Holds the element type's name.
    case unmatchedJSONElement(String)
    /// Numbers, dates, Bools, enum raw values, UUIDs, URLs, data: SQLite's own comparison agrees.
    case plain

    /// The kind of values of `type` (an optional has its wrapped type's kind).
    static func of(_ type: Any.Type) -> ValueKind {
        if let optional = type as? any OptionalTypeInfo.Type { return of(optional.wrappedType) }
        if type == String.self || type == Substring.self { return .string }
        if type == Decimal.self { return .decimal }
        if type == Float.self { return .float }
        if let array = type as? any ArrayTypeInfo.Type { return .jsonArray(element: jsonElement(array.elementType)) }
        return .plain
    }

    /// The kind of the elements of a JSON array of `type`, as `json_each` reads them.
    private static func jsonElement(_ type: Any.Type) -> ValueKind {
        let wrapped = (type as? any OptionalTypeInfo.Type)?.wrappedType ?? type
        switch wrapped {
        case is UUID.Type, is Data.Type, is Decimal.Type, is Float.Type: return .unmatchedJSONElement(String(describing: wrapped))
        default: return of(wrapped)
        }
    }

    /// The kind of an array's elements, or an error naming `operation` when SQL cannot compare
    /// them as Swift does.
    func comparableJSONElement(for operation: String) throws -> ValueKind {
        guard case .jsonArray(let element) = self else {
            throw PredicateTranslationError.unsupported("\(operation) on a value that is not a stored array")
        }
        if case .unmatchedJSONElement(let type) = element {
            throw PredicateTranslationError.unsupported("\(operation) over [\(type)]: the JSON form of its elements is not their stored form")
        }
        return element
    }

    /// The `COLLATE` clause comparisons of this kind need (with a leading space), or "".
    var collation: String {
        switch self {
        case .string: return " COLLATE " + PredicateFunctions.swiftStringCollation
        case .decimal: return " COLLATE " + PredicateFunctions.decimalCollation
        default: return ""
        }
    }
}

/// A value in SQL.
struct ScalarTerm {
    /// The SQL expression.
    var fragment: SQLFragment
    /// How to compare it.
    var kind: ValueKind
    /// The Swift value, when the term is a captured constant (`Value`).
    var constant: Any?

    /// Whether the term is the `nil` literal.
    var isNilLiteral: Bool { fragment.sql == "NULL" && fragment.bindings.isEmpty }

    init(_ fragment: SQLFragment, kind: ValueKind, constant: Any? = nil) {
        self.fragment = fragment
        self.kind = kind
        self.constant = constant
    }
}
