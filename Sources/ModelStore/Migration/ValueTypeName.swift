import Foundation
internal import SchemaEvolution

/// Names an attribute's Swift value type as the stored schema records it, so a migration can tell
/// `Int32` from `Int` (widening, inferred) or `String` from `Int` (a type change, which needs a
/// custom stage) although SQLite stores both kinds of integer alike.
///
/// Names: a built-in type's stored name (`ScalarType.storedTypeName`: `Bool`, `Int`…`UInt32`, `Double`,
/// `Float`, `String`, `Date`, `UUID`, `Data`, `URL`, `Decimal`); an enum is `enum(RAW)` with its raw
/// type's name (`enum(String)`; a plain enum, stored by case name, is `enum(String)` too); an array is `[ELEMENT]`; optionality is recorded apart (the name
/// of `T?` is the name of `T`). Any other type is named by Swift (`String(describing:)`).
enum ValueTypeName {
    /// The built-in types' names: SchemaEvolution's `ScalarType` table (`Double` for `CGFloat` and
    /// `TimeInterval`, stored as a `Double`: a property may go from one to another without a migration).
    private static let known: [ObjectIdentifier: String] = Dictionary(
        ScalarType.allCases.map { (ObjectIdentifier($0.storableType), $0.storedTypeName) }, uniquingKeysWith: { first, _ in first })

    /// The name of `type` (optionality left out).
    static func of(_ type: Any.Type) -> String {
        if let optional = type as? any OptionalValueType.Type { return of(optional.wrappedValueType) }
        if let name = known[ObjectIdentifier(type)] { return name }
        if let array = type as? any ArrayValueType.Type { return "[" + of(array.elementValueType) + "]" }
        if let raw = type as? any RawRepresentable.Type { return "enum(" + of(rawValueType(of: raw)) + ")" }
        // A plain enum is stored as a String enum whose raw values are its case names.
        if type is any CaseNameAttribute.Type { return "enum(String)" }
        return String(describing: type)
    }

    /// The raw values of an enum's cases (of `T` or `T?`), in declaration order; nil for a type
    /// that is not a `CaseIterable` enum with `SQLStorable` raw values.
    static func enumCases(of type: Any.Type) -> [SQLValue]? {
        if let optional = type as? any OptionalValueType.Type { return enumCases(of: optional.wrappedValueType) }
        if let named = type as? any CaseNameAttribute.Type { return caseNames(of: named) }
        guard type is any RawRepresentable.Type, let iterable = type as? any CaseIterable.Type else { return nil }
        return rawValues(of: iterable)
    }

    private static func caseNames<T: CaseNameAttribute>(of type: T.Type) -> [SQLValue] {
        T.allCases.map { .text($0._$caseName) }
    }

    private static func rawValueType<T: RawRepresentable>(of type: T.Type) -> Any.Type { T.RawValue.self }

    private static func rawValues<T: CaseIterable>(of type: T.Type) -> [SQLValue]? {
        var values: [SQLValue] = []
        for value in T.allCases {
            guard let raw = (value as? any RawRepresentable)?.rawValue as? any SQLStorable else { return nil }
            values.append(raw.sqlValue)
        }
        return values
    }
}

/// `Optional`, seen through an existential: its wrapped type.
protocol OptionalValueType {
    static var wrappedValueType: Any.Type { get }
}

extension Optional: OptionalValueType {
    static var wrappedValueType: Any.Type { Wrapped.self }
}

/// `Array`, seen through an existential: its element type.
protocol ArrayValueType {
    static var elementValueType: Any.Type { get }
}

extension Array: ArrayValueType {
    static var elementValueType: Any.Type { Element.self }
}
