import CSQLite
import Foundation

/// The SQLite functions and collations predicates use, registered on every connection. Each
/// runs the Swift code `Predicate.evaluate` runs, so SQL gives exactly Swift's answer.
enum PredicateFunctions {
    /// Collation comparing text as Swift compares `String`s (Unicode canonical equivalence:
    /// "é" precomposed equals "e" + combining accent; order by canonical form).
    static let swiftStringCollation = "MODELSTORE_SWIFT"
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

    // MARK: Swift semantics

    /// `text.contains(other)` through Foundation's own expression.
    static func contains(_ text: String, _ other: String) -> Bool {
        evaluate(PredicateExpressions.build_contains(PredicateExpressions.Value(text), PredicateExpressions.Value(other)))
    }

    /// `text.starts(with: prefix)` through Foundation's own expression.
    static func startsWith(_ text: String, _ prefix: String) -> Bool {
        evaluate(PredicateExpressions.SequenceStartsWith(base: PredicateExpressions.Value(text), prefix: PredicateExpressions.Value(prefix)))
    }

    /// `text.localizedStandardContains(other)` through the predicate expression.
    static func localizedStandardContains(_ text: String, _ other: String) -> Bool {
        evaluate(PredicateExpressions.StringLocalizedStandardContains(root: PredicateExpressions.Value(text), other: PredicateExpressions.Value(other)))
    }

    /// `text.caseInsensitiveCompare(other)` through the predicate expression, as -1, 0 or 1.
    static func caseInsensitiveCompare(_ text: String, _ other: String) -> Int32 {
        let expression = PredicateExpressions.StringCaseInsensitiveCompare(root: PredicateExpressions.Value(text), other: PredicateExpressions.Value(other))
        return Int32((try? expression.evaluate(PredicateBindings()))?.rawValue ?? 0)
    }

    private static func evaluate<E: PredicateExpression<Bool>>(_ expression: E) -> Bool {
        (try? expression.evaluate(PredicateBindings())) ?? false
    }

    /// -1, 0 or 1 as Swift orders the two strings.
    static func compare(_ lhs: String, _ rhs: String) -> Int32 {
        lhs == rhs ? 0 : (lhs < rhs ? -1 : 1)
    }

    /// -1, 0 or 1 as Swift orders the two UTF-8 texts (`compare` without making Strings when
    /// the bytes decide).
    static func compareUTF8(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int32 {
        if let order = bytewiseOrder(lhs, rhs) { return order }
        return compare(String(decoding: lhs, as: UTF8.self), String(decoding: rhs, as: UTF8.self))
    }

    /// The order Swift's `<` gives two UTF-8 texts when their bytes alone decide it, else nil.
    ///
    /// Swift compares strings by the Unicode scalars of their NFC forms, and UTF-8 byte order is
    /// scalar order. Past their common bytes, the texts go on with two different scalars (or one
    /// ends). When each of those is an ASCII character followed by an ASCII character (or the
    /// end), normalization changes neither: an ASCII character is a starter that composes with
    /// nothing before it, and only a non-ASCII mark after it could combine with it. So the first
    /// differing bytes are the first differing scalars of the NFC forms. Otherwise (a non-ASCII
    /// scalar at the difference or just after it) the caller compares Strings.
    static func bytewiseOrder(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int32? {
        let index = commonPrefixLength(lhs, rhs)
        switch (index == lhs.count, index == rhs.count) {
        case (true, true): return 0
        case (true, false): return isSettledASCII(rhs, at: index) ? -1 : nil
        case (false, true): return isSettledASCII(lhs, at: index) ? 1 : nil
        case (false, false):
            guard isSettledASCII(lhs, at: index), isSettledASCII(rhs, at: index) else { return nil }
            return lhs[index] < rhs[index] ? -1 : 1
        }
    }

    /// Whether `text[index]` is ASCII and so is the byte after it (or it is the last).
    @inline(__always)
    private static func isSettledASCII(_ text: UnsafeRawBufferPointer, at index: Int) -> Bool {
        text[index] < 0x80 && (index + 1 == text.count || text[index + 1] < 0x80)
    }

    /// How many leading bytes the two texts share (eight at a time, then one at a time).
    @inline(__always)
    private static func commonPrefixLength(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        var index = 0
        while index + 8 <= common {
            let left = lhs.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let right = rhs.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if left != right {
                // The first differing byte in memory order.
                let difference = UInt64(littleEndian: left ^ right)
                return index + difference.trailingZeroBitCount / 8
            }
            index += 8
        }
        while index < common && lhs[index] == rhs[index] { index += 1 }
        return index
    }

    /// -1, 0 or 1 as the two decimal texts compare as numbers (text order if one is not a number).
    static func compareDecimalTexts(_ lhs: String, _ rhs: String) -> Int32 {
        let locale = Locale(identifier: "en_US_POSIX")
        guard let left = Decimal(string: lhs, locale: locale), let right = Decimal(string: rhs, locale: locale) else {
            return compare(lhs, rhs)
        }
        return left == right ? 0 : (left < right ? -1 : 1)
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
