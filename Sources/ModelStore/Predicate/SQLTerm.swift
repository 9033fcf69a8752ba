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
    /// `String`: compared as Swift compares strings (Unicode canonical equivalence; SQLite's
    /// `MODELSTORE_SWIFT` collation, PostgreSQL's NFC forms in code point order).
    case string
    /// `Decimal`: compared as numbers (SQLite stores text and compares through the
    /// `MODELSTORE_DECIMAL` collation; PostgreSQL stores `numeric`).
    case decimal
    /// `Bool` as a column or a parameter holds it (0 or 1), not a condition: see
    /// `PredicateSpelling.condition(_:)`.
    case bool
    /// `Float`: stored as a Double, so SQL arithmetic would not round like Swift's.
    case float
    /// An array stored as one JSON text column: how its elements compare, and what they are.
    case jsonArray(element: ValueKind, elementType: JSONElementType)
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
        if type == Bool.self { return .bool }
        if let array = type as? any ArrayTypeInfo.Type {
            let element = (array.elementType as? any OptionalTypeInfo.Type)?.wrappedType ?? array.elementType
            return .jsonArray(element: jsonElement(element), elementType: JSONElementType(element))
        }
        return .plain
    }

    /// The kind of the elements of a JSON array of `type`, as SQL reads them.
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
        guard case .jsonArray(let element, _) = self else {
            throw PredicateTranslationError.unsupported("\(operation) on a value that is not a stored array")
        }
        if case .unmatchedJSONElement(let type) = element {
            throw PredicateTranslationError.unsupported("\(operation) over [\(type)]: the JSON form of its elements is not their stored form")
        }
        return element
    }

    /// What the elements of a stored array are (`.other` for a value that is not an array).
    var jsonElementType: JSONElementType {
        if case .jsonArray(_, let type) = self { return type }
        return .other
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
    /// Whether the term is a column of a row in scope (`"Trip"."name"`, not an expression):
    /// an index on the column may serve a comparison with it, and reading it twice costs nothing.
    var isColumn = false

    /// Whether the term is the `nil` literal.
    var isNilLiteral: Bool { fragment.sql == "NULL" && fragment.bindings.isEmpty }

    init(_ fragment: SQLFragment, kind: ValueKind, constant: Any? = nil) {
        self.fragment = fragment
        self.kind = kind
        self.constant = constant
    }
}
