import CSQLite
import Foundation

// How `#Predicate` and `SortDescriptor` read on SQLite (docs/Predicates.md): SQLite runs Swift's
// own code (`PredicateFunctions`) in functions and collations registered on every connection
// (`SQLiteFunctions`), so SQL gives exactly Swift's answer. PostgreSQL's counterpart is
// Storage/PostgreSQL/PostgresPredicates.swift.

extension SQLiteDialect {
    var trueCondition: String { "1" }
    var falseCondition: String { "0" }

    func condition(_ term: ScalarTerm) -> SQLFragment { term.fragment }
    func boolValue(_ term: ScalarTerm) -> SQLFragment { term.fragment }

    func parameter(_ value: SQLValue, type: Any.Type) -> SQLFragment { .parameter(value) }

    func compare(_ lhs: SQLFragment, _ op: String, _ rhs: SQLFragment, kind: ValueKind) -> SQLFragment {
        "(\(lhs) \(raw: op) \(rhs)\(raw: collation(kind)))"
    }

    func same(_ lhs: SQLFragment, _ rhs: SQLFragment, negated: Bool, kind: ValueKind) -> SQLFragment {
        "(\(lhs) \(raw: negated ? "IS NOT" : "IS") \(rhs)\(raw: collation(kind)))"
    }

    /// `IS` with a non-NULL value, and `IN` with `IS NOT NULL`, are never NULL; SQLite searches an
    /// index (or the row key) for both.
    func columnIn(_ column: SQLFragment, _ values: [SQLFragment]) -> SQLFragment {
        if values.count == 1 { return "(\(column) IS \(values[0]))" }
        return "(\(column) IN (\(SQLFragment.joined(values, separator: ", "))) AND \(column) IS NOT NULL)"
    }

    /// Texts compare through `MODELSTORE_SWIFT`, Decimals through `MODELSTORE_DECIMAL`: not as the
    /// column's `BINARY` index.
    func comparesAsIndexed(_ kind: ValueKind) -> Bool {
        switch kind {
        case .plain, .bool, .float: return true
        default: return false
        }
    }

    func columnEquals(_ column: SQLFragment, _ value: SQLFragment, prefix: String) -> SQLFragment? {
        guard let bound = CanonicalEquivalents.upperBound(ofPrefix: prefix) else { return nil }
        return "(\(column) >= \(SQLFragment.parameter(.text(prefix))) AND \(column) < \(SQLFragment.parameter(.text(bound))) AND \(same(column, value, negated: false, kind: .string)))"
    }

    func isIn(_ item: SQLFragment, _ list: [SQLFragment], kind: ValueKind) -> SQLFragment {
        "COALESCE(\(item)\(raw: membershipCollation(kind)) IN (\(SQLFragment.joined(list, separator: ", "))), 0)"
    }

    /// One JSON array parameter read by `json_each`: integers and texts as they are, reals in
    /// their shortest exact digits, bytes as upper-case hex compared with `hex(item)` (SQLite
    /// reads JSON numbers back to the same double).
    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    func columnIn(_ column: SQLFragment, values: [SQLValue], type: Any.Type) -> SQLFragment? {
        guard let (json, blobs) = Self.jsonArray(values), !blobs else { return nil }
        return "(\(column) IN (SELECT \"value\" FROM json_each(\(SQLFragment.parameter(.text(json))))) AND \(column) IS NOT NULL)"
    }

    func isIn(_ item: SQLFragment, values: [SQLValue], type: Any.Type, kind: ValueKind) -> SQLFragment? {
        guard let (json, blobs) = Self.jsonArray(values) else { return nil }
        let subject: SQLFragment = blobs ? "hex(\(item))" : "\(item)\(raw: membershipCollation(kind))"
        return "COALESCE(\(subject) IN (SELECT \"value\" FROM json_each(\(SQLFragment.parameter(.text(json))))), 0)"
    }

    /// `values` as a JSON array, and whether they are bytes (as hex); nil when they cannot be one
    /// (a non-finite Double, bytes among other values).
    private static func jsonArray(_ values: [SQLValue]) -> (json: String, blobs: Bool)? {
        var json = "["
        var blobs = false
        for (index, value) in values.enumerated() {
            if index > 0 { json += "," }
            switch value {
            case .null: json += "null"
            case .integer(let integer): json += String(integer)
            case .real(let real):
                guard real.isFinite else { return nil }
                json += "\(real)"
            case .text(let text): JSONText.append(text, to: &json)
            case .blob(let data):
                blobs = true
                json += "\""
                for byte in data { json.unicodeScalars.append(contentsOf: [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 15)]]) }
                json += "\""
            }
        }
        json += "]"
        if blobs && values.contains(where: { if case .blob = $0 { return false } else { return true } }) { return nil }
        return (json, blobs)
    }

    func jsonElements(of array: SQLFragment, alias: String, element: JSONElementType) -> (source: SQLFragment, value: SQLFragment) {
        ("json_each(\(array)) AS \(identifier: alias)", "\(identifier: alias).\"value\"")
    }

    func jsonArrayLength(_ array: SQLFragment) -> SQLFragment { "json_array_length(\(array))" }

    func aggregate(_ function: String, of value: SQLFragment, kind: ValueKind) -> SQLFragment {
        "\(raw: function)(\(value)\(raw: collation(kind)))"
    }

    func stringSearch(_ search: StringSearchKind, _ text: SQLFragment, _ other: SQLFragment) -> SQLFragment {
        let function: String
        switch search {
        case .contains: function = SQLiteFunctions.contains
        case .startsWith: function = SQLiteFunctions.startsWith
        case .localizedStandardContains: function = SQLiteFunctions.localizedStandardContains
        }
        return "\(raw: function)(\(text), \(other))"
    }

    func characterCount(_ text: SQLFragment) -> SQLFragment { "\(raw: SQLiteFunctions.characterCount)(\(text))" }

    func caseInsensitiveCompare(_ text: SQLFragment, _ other: SQLFragment) -> SQLFragment {
        "\(raw: SQLiteFunctions.caseInsensitiveCompare)(\(text), \(other))"
    }

    func floatingPoint(_ number: SQLFragment) -> SQLFragment { "CAST(\(number) AS REAL)" }

    func sortKey(_ value: SQLFragment, _ order: SortKeyOrder) -> SQLFragment? {
        switch order {
        case .string(let order): return "\(value) COLLATE \(raw: SQLiteFunctions.collation(for: order))"
        case .decimal: return "\(value) COLLATE \(raw: SQLiteFunctions.decimalCollation)"
        }
    }

    /// The `COLLATE` clause of `IN`: SQLite looks values up in a B-tree it builds of the list,
    /// which needs a consistent order; for strings the NFC forms' (`MODELSTORE_CANONICAL`: equal
    /// exactly when Swift's `==` says so), not Swift's `<`, which is not one.
    private func membershipCollation(_ kind: ValueKind) -> String {
        kind == .string ? " COLLATE " + SQLiteFunctions.canonicalCollation : collation(kind)
    }

    /// The `COLLATE` clause (with a leading space) comparisons of `kind` need: Swift's string
    /// comparison, `Decimal` text as numbers.
    private func collation(_ kind: ValueKind) -> String {
        switch kind {
        case .string: return " COLLATE " + SQLiteFunctions.swiftStringCollation
        case .decimal: return " COLLATE " + SQLiteFunctions.decimalCollation
        default: return ""
        }
    }
}

/// The SQLite functions and collations predicates use, registered on every connection. Each
/// runs the Swift code `Predicate.evaluate` runs (`PredicateFunctions`).
enum SQLiteFunctions {
    /// Collation comparing text as Swift compares `String`s (Unicode canonical equivalence:
    /// "é" precomposed equals "e" + combining accent; order by canonical form).
    static let swiftStringCollation = "MODELSTORE_SWIFT"
    /// Collation comparing texts by their NFC forms' bytes: equality is Swift's `==`, and the
    /// order is consistent (for `IN`; `PredicateFunctions.compareCanonicalUTF8`).
    static let canonicalCollation = "MODELSTORE_CANONICAL"
    /// Collation comparing `Decimal` text as numbers.
    static let decimalCollation = "MODELSTORE_DECIMAL"
    /// `modelstore_contains(text, other)`: `text.contains(other)` as `#Predicate` evaluates it.
    static let contains = "modelstore_contains"
    /// `modelstore_starts_with(text, prefix)`: `text.starts(with: prefix)`.
    static let startsWith = "modelstore_starts_with"
    /// `modelstore_localized_standard_contains(text, other)`: Foundation's `localizedStandardContains`.
    static let localizedStandardContains = "modelstore_localized_standard_contains"
    /// `modelstore_character_count(text)`: `text.count` (Swift characters).
    static let characterCount = "modelstore_character_count"
    /// `modelstore_case_insensitive_compare(text, other)`: `text.caseInsensitiveCompare(other)`
    /// as `#Predicate` evaluates it, as the `ComparisonResult`'s raw value (-1, 0, 1).
    static let caseInsensitiveCompare = "modelstore_case_insensitive_compare"

    /// The collation that sorts in `order` (docs/Predicates.md, "Sorting").
    static func collation(for order: StringSortOrder) -> String {
        switch order {
        case .lexical: return "MODELSTORE_LEXICAL"
        case .localized: return "MODELSTORE_LOCALIZED"
        case .localizedStandard: return "MODELSTORE_LOCALIZED_STANDARD"
        }
    }

    /// Registers the functions and collations on a connection.
    static func register(on handle: OpaquePointer) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        try check(handle, sqlite3_create_collation_v2(handle, swiftStringCollation, SQLITE_UTF8, nil, compareSwiftStrings, nil))
        try check(handle, sqlite3_create_collation_v2(handle, decimalCollation, SQLITE_UTF8, nil, compareDecimals, nil))
        try check(handle, sqlite3_create_collation_v2(handle, canonicalCollation, SQLITE_UTF8, nil, compareCanonicalStrings, nil))
        try check(handle, sqlite3_create_function_v2(handle, contains, 2, flags, nil, containsFunction, nil, nil, nil))
        try check(handle, sqlite3_create_function_v2(handle, startsWith, 2, flags, nil, startsWithFunction, nil, nil, nil))
        try check(handle, sqlite3_create_function_v2(handle, localizedStandardContains, 2, flags, nil, localizedStandardContainsFunction, nil, nil, nil))
        try check(handle, sqlite3_create_function_v2(handle, characterCount, 1, flags, nil, characterCountFunction, nil, nil, nil))
        try check(handle, sqlite3_create_function_v2(handle, caseInsensitiveCompare, 2, flags, nil, caseInsensitiveCompareFunction, nil, nil, nil))
        for (index, order) in StringSortOrder.allCases.enumerated() {
            // The order's index travels in the user-data pointer (offset by one: never NULL).
            try check(handle, sqlite3_create_collation_v2(handle, collation(for: order), SQLITE_UTF8, UnsafeMutableRawPointer(bitPattern: index + 1),
                                                          compareInOrder, nil))
        }
    }

    private static func check(_ handle: OpaquePointer, _ result: Int32) throws {
        guard result == SQLITE_OK else {
            throw SQLiteError(code: result, extendedCode: result, message: String(cString: sqlite3_errmsg(handle)))
        }
    }
}

// MARK: C callbacks

private func text(_ length: Int32, _ bytes: UnsafeRawPointer?) -> String {
    guard let bytes, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
}

private func argument(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> String? {
    guard let value = arguments?[index], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
    return text(sqlite3_value_bytes(value), sqlite3_value_text(value))
}

private func resultBool(_ context: OpaquePointer?, _ value: Bool?) {
    if let value { sqlite3_result_int(context, value ? 1 : 0) } else { sqlite3_result_null(context) }
}

private func bytes(_ length: Int32, _ pointer: UnsafeRawPointer?) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: length > 0 ? pointer : nil, count: length > 0 ? Int(length) : 0)
}

private let compareSwiftStrings: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, leftLength, left, rightLength, right in
    PredicateFunctions.compareUTF8(bytes(leftLength, left), bytes(rightLength, right))
}

private let compareCanonicalStrings: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, leftLength, left, rightLength, right in
    PredicateFunctions.compareCanonicalUTF8(bytes(leftLength, left), bytes(rightLength, right))
}

private let compareInOrder: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    index, leftLength, left, rightLength, right in
    StringSortOrder.allCases[Int(bitPattern: index) - 1].compareUTF8(bytes(leftLength, left), bytes(rightLength, right))
}

private let compareDecimals: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, leftLength, left, rightLength, right in
    PredicateFunctions.compareDecimalTexts(text(leftLength, left), text(rightLength, right))
}

private let containsFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    guard let base = argument(arguments, 0), let other = argument(arguments, 1) else { return resultBool(context, nil) }
    resultBool(context, PredicateFunctions.contains(base, other))
}

private let startsWithFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    guard let base = argument(arguments, 0), let prefix = argument(arguments, 1) else { return resultBool(context, nil) }
    resultBool(context, PredicateFunctions.startsWith(base, prefix))
}

private let localizedStandardContainsFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    guard let base = argument(arguments, 0), let other = argument(arguments, 1) else { return resultBool(context, nil) }
    resultBool(context, PredicateFunctions.localizedStandardContains(base, other))
}

private let caseInsensitiveCompareFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    guard let base = argument(arguments, 0), let other = argument(arguments, 1) else { return sqlite3_result_null(context) }
    sqlite3_result_int(context, PredicateFunctions.caseInsensitiveCompare(base, other))
}

private let characterCountFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    guard let value = argument(arguments, 0) else { return sqlite3_result_null(context) }
    sqlite3_result_int64(context, Int64(value.count))
}
