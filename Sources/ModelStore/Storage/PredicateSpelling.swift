import Foundation

/// How a store spells what `#Predicate` and `SortDescriptor` translate to (Sources/ModelStore/Predicate):
/// the part of `SQLDialect` the predicate translator uses. Every operation says which Swift
/// semantics it must keep; SQLite runs Swift's own code in registered functions and collations
/// (`SQLiteFunctions`, Storage/SQLite/SQLitePredicates.swift), PostgreSQL spells the closest built-in SQL (see `PostgresDialect` and
/// docs/PostgreSQL.md, "Predicates").
///
/// Terms: a *condition* is an SQL truth value (a comparison, `EXISTS`, `AND`…); a *Bool value* is
/// a `Bool` as a column stores it (`ValueKind.bool`: 0 or 1). SQLite does not tell them apart; a
/// store whose SQL does (PostgreSQL) converts with `condition(_:)` and `boolValue(_:)`.
protocol PredicateSpelling: Sendable {
    /// Swift's `true` and `false` as conditions.
    var trueCondition: String { get }
    var falseCondition: String { get }

    /// `term` (a Bool-typed term: a condition, or a Bool value) as a condition.
    func condition(_ term: ScalarTerm) -> SQLFragment
    /// `term` (a Bool-typed term) as a Bool value (0, 1, or NULL for nil).
    func boolValue(_ term: ScalarTerm) -> SQLFragment

    /// A placeholder bound to `value`, a captured value of Swift type `type` (typed for stores
    /// that infer parameter types from their context, where the context may not say).
    func parameter(_ value: SQLValue, type: Any.Type) -> SQLFragment

    /// `lhs op rhs` (`op`: `<`, `<=`, `>`, `>=`) in Swift's order of values of `kind`.
    func compare(_ lhs: SQLFragment, _ op: String, _ rhs: SQLFragment, kind: ValueKind) -> SQLFragment
    /// Swift's `==` (or `!=` when `negated`) on values of `kind`, optionals included: nil equals
    /// nil, and the result is never NULL.
    func same(_ lhs: SQLFragment, _ rhs: SQLFragment, negated: Bool, kind: ValueKind) -> SQLFragment
    /// Swift's `==` between `column`, a column of a row in scope (`ScalarTerm.isColumn`), and one
    /// of `values` (non-NULL, in the column's stored form), each compared as the column's index
    /// compares (bytewise for texts: the caller passes every equal spelling), as a condition an
    /// index on the column serves (docs/Predicates.md, "Equality and indexes"): false, never NULL,
    /// for a NULL column.
    func columnIn(_ column: SQLFragment, _ values: [SQLFragment]) -> SQLFragment
    /// `columnIn` for more than `CapturedList.longList` distinct non-NULL `values` (captured
    /// values of Swift type `type`, or texts compared bytewise) bound as one parameter; nil when
    /// the store cannot (bytes on SQLite).
    func columnIn(_ column: SQLFragment, values: [SQLValue], type: Any.Type) -> SQLFragment?
    /// Whether `columnIn` compares values of `kind` (other than `String`) as Swift's `==` does.
    func comparesAsIndexed(_ kind: ValueKind) -> Bool
    /// Swift's `==` between a `String` column in scope and `value`, a captured text every text
    /// equal to which starts with the ASCII text `prefix`: the prefix as a byte range an index
    /// on the column serves, and the equality itself; false, never NULL, for a NULL column. Nil
    /// when the store's index does not order bytewise.
    func columnEquals(_ column: SQLFragment, _ value: SQLFragment, prefix: String) -> SQLFragment?
    /// Whether `item` equals one of `list` (non-NULL values of `item`'s kind), as a condition that
    /// is false, never NULL, for a NULL `item`.
    func isIn(_ item: SQLFragment, _ list: [SQLFragment], kind: ValueKind) -> SQLFragment
    /// `isIn` for a long list of distinct non-NULL `values` (captured values of Swift type
    /// `type`) bound as one parameter, so the statement's parameter count does not grow with the
    /// list; nil when the store cannot (then `isIn` takes one parameter per value).
    func isIn(_ item: SQLFragment, values: [SQLValue], type: Any.Type, kind: ValueKind) -> SQLFragment?

    /// The elements of a stored JSON array `array` as rows under `alias`: the `FROM` item and the
    /// element value (in the stored form of a column of the element's type).
    func jsonElements(of array: SQLFragment, alias: String, element: JSONElementType) -> (source: SQLFragment, value: SQLFragment)
    /// The number of elements of a stored JSON array.
    func jsonArrayLength(_ array: SQLFragment) -> SQLFragment
    /// `max` or `min` (`function`) of `value` over rows, in Swift's order of values of `kind`.
    func aggregate(_ function: String, of value: SQLFragment, kind: ValueKind) -> SQLFragment

    /// A string search as `#Predicate` evaluates it, as a condition.
    func stringSearch(_ search: StringSearchKind, _ text: SQLFragment, _ other: SQLFragment) -> SQLFragment
    /// `text.count` (Swift characters).
    func characterCount(_ text: SQLFragment) -> SQLFragment
    /// `text.caseInsensitiveCompare(other)` as the `ComparisonResult`'s raw value (-1, 0, 1).
    func caseInsensitiveCompare(_ text: SQLFragment, _ other: SQLFragment) -> SQLFragment
    /// A number as floating point (for `/` on Doubles whose operands may be integers in SQL).
    func floatingPoint(_ number: SQLFragment) -> SQLFragment

    /// The `ORDER BY` value of `value` sorted in Swift's order of `order`, without the direction;
    /// nil when the store has no such order.
    func sortKey(_ value: SQLFragment, _ order: SortKeyOrder) -> SQLFragment?
}

/// A string search `#Predicate` can express.
enum StringSearchKind {
    /// `text.contains(other)`.
    case contains
    /// `text.starts(with: other)`.
    case startsWith
    /// `text.localizedStandardContains(other)`.
    case localizedStandardContains
}

/// What the elements of a stored JSON array are, as far as SQL must know to read them.
enum JSONElementType: Equatable {
    /// Integers and enums with `Int` raw values (JSON numbers).
    case integer
    /// `Double` and `Date` (JSON numbers; `Date` as seconds since 2001, its stored form).
    case real
    /// `String`, `URL` and enums with `String` raw values (JSON strings).
    case text
    /// `Bool` (JSON `true` / `false`, stored as 1 / 0).
    case bool
    /// Anything else (its JSON form is not a column's stored form).
    case other

    /// The element type of values of `type` (an optional's wrapped type).
    init(_ type: Any.Type) {
        if type == Bool.self {
            self = .bool
            return
        }
        switch (type as? any SQLStorable.Type)?.storageType {
        case .integer?: self = .integer
        case .real?: self = .real
        case .text?: self = .text
        default: self = .other
        }
    }
}

/// The order a sort compares values in, beyond the store's own order of numbers.
enum SortKeyOrder {
    /// `String`s, in one of the orders a `SortDescriptor` asks for.
    case string(StringSortOrder)
    /// `Decimal`: as numbers.
    case decimal
}

// MARK: SQLite

/// JSON string literals, for values bound as one JSON array.
enum JSONText {
    /// Appends `text` as a JSON string: quote and backslash escaped, control characters as `\u00XX`.
    static func append(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case _ where scalar.value < 0x20:
                json += "\\u00" + String(format: "%02x", scalar.value)
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
