import Foundation

/// Swift's own semantics of the string operations predicates and sorts use, run by the SQL
/// functions and collations a store registers (SQLite: `SQLiteFunctions`, Storage/SQLite), by
/// the in-memory evaluation of pending changes, and by the sort orders, so SQL gives exactly
/// Swift's answer.
enum PredicateFunctions {
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

    /// -1, 0 or 1 as the NFC forms of the two UTF-8 texts compare bytewise: 0 exactly when
    /// Swift's `==` holds, and unlike Swift's `<` a consistent order (Swift's is not when one
    /// text's NFC form is a proper prefix of the other's and it is not in NFC itself:
    /// `"\u{212A}" == "K"`, `"K" < "Ka"`, yet `"\u{212A}" > "Ka"`), so a B-tree built with it
    /// (SQLite's for `IN`) finds every equal value. docs/Predicates.md, "Semantics decisions".
    static func compareCanonicalUTF8(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int32 {
        if let order = bytewiseOrder(lhs, rhs) { return order }
        let left = String(decoding: lhs, as: UTF8.self)._nfcCodeUnits
        let right = String(decoding: rhs, as: UTF8.self)._nfcCodeUnits
        if left == right { return 0 }
        return left.lexicographicallyPrecedes(right) ? -1 : 1
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

