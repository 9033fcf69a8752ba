import Foundation
#if !canImport(Darwin)
import CoreFoundation
#endif

#if !canImport(Darwin)
extension String.StandardComparator {
    /// Compares `String`s as the Finder does: `localizedStandardCompare(_:)` (numeric, case- and
    /// width-insensitive, in the current locale). SwiftData's default for a `String` sort.
    ///
    /// Apple's Foundation declares it; swift-foundation does not outside Apple platforms
    /// (swiftlang/swift-foundation#284), so ModelStore declares it with Apple's name and value. A
    /// fetch sorts with it in SQL exactly as on Apple platforms (docs/Predicates.md, "Sorting").
    /// Foundation's own in-memory `sorted(using:)` on Linux runs its unlocalized comparison for it
    /// instead (the one difference, docs/Predicates.md).
    public static let localizedStandard = StandardComparatorLayout.make(
        options: [.numeric, .caseInsensitive, .widthInsensitive, .forcedOrdering], localized: true)

    /// Compares `String`s with a localized comparison in the current locale (`localizedCompare(_:)`).
    /// Declared here for the same reason as `localizedStandard`.
    public static let localized = StandardComparatorLayout.make(options: [], localized: true)
}

/// The stored properties of Foundation's `String.StandardComparator`, in its order
/// (swift-foundation 6.3.1, `String+SortComparator.swift`: `options`, `isLocalized`, `order`).
/// Its initializer is private, so Apple's two localized values are made from this layout; `make`
/// checks the result field by field and stops the program if Foundation's layout ever changes.
private struct StandardComparatorLayout {
    var options: UInt
    var isLocalized: Bool
    var order: SortOrder

    static func make(options: String.CompareOptions, localized: Bool) -> String.StandardComparator {
        precondition(MemoryLayout<StandardComparatorLayout>.size == MemoryLayout<String.StandardComparator>.size
                     && MemoryLayout<StandardComparatorLayout>.alignment == MemoryLayout<String.StandardComparator>.alignment,
                     "String.StandardComparator's layout changed: ModelStore cannot declare .localizedStandard")
        let comparator = unsafeBitCast(StandardComparatorLayout(options: options.rawValue, isLocalized: localized, order: .forward),
                                       to: String.StandardComparator.self)
        let fields = Mirror(reflecting: comparator).children.map { "\($0.label ?? ""):\($0.value)" }
        precondition(fields == ["options:\(options)", "isLocalized:\(localized)", "order:forward"],
                     "String.StandardComparator's layout changed: ModelStore cannot declare .localizedStandard")
        return comparator
    }
}
#endif

/// How a fetch orders `String`s: the comparison a `SortDescriptor` asks for, as SwiftData runs it on
/// Apple platforms (docs/Predicates.md, "Sorting"). SQLite's collations, the in-memory merge of
/// pending changes and the tests' oracle all compare through `compare`.
enum StringSortOrder: Sendable, CaseIterable {
    /// `.lexical`: Swift's `<` (`compare(_:options: [])`).
    case lexical
    /// `.localized`: `localizedCompare(_:)`.
    case localized
    /// `.localizedStandard`, and a `String` descriptor made without a comparator (SwiftData's
    /// default): `localizedStandardCompare(_:)`.
    case localizedStandard

    /// The order a `String.StandardComparator` compares in (its `order` ignored), if ModelStore knows it.
    init?(_ comparator: String.StandardComparator) {
        var forward = comparator
        forward.order = .forward
        switch forward {
        case .lexical: self = .lexical
        case .localizedStandard: self = .localizedStandard
        case .localized: self = .localized
        default: return nil
        }
    }

    /// `lhs` against `rhs`, forward.
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let order = compareUTF8(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
                return order < 0 ? .orderedAscending : (order > 0 ? .orderedDescending : .orderedSame)
            }
        }
    }

    /// -1, 0 or 1 as `compare` orders the two UTF-8 texts.
    func compareUTF8(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int32 {
        switch self {
        case .lexical:
            return PredicateFunctions.compareUTF8(lhs, rhs)
        case .localized:
            return FoundationStringCompare.compare(lhs, rhs, options: [])
        case .localizedStandard:
            if let order = LocalizedStandardASCII.compare(lhs, rhs) { return order }
            return FoundationStringCompare.compare(lhs, rhs, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering])
        }
    }
}

/// Foundation's localized comparison of two UTF-8 texts, in the current locale: the very function
/// `localizedStandardCompare` and `localizedCompare` run, called without their per-call costs.
///
/// On Linux, `String.localizedStandardCompare(_:)` is swift-corelibs-foundation's
/// `NSString.compare(_:options:range:locale:)` with `Locale.current`, which calls
/// `CFStringCompareWithOptionsAndLocale` (with `.nonliteral` added to the options). Bridging a
/// `String` to `NSString` and `Locale.current` to a new `NSLocale` on every call (which makes CF
/// open a new ICU collator) costs about 11 µs; this calls the same CF function on CF strings that
/// borrow the texts' bytes, with one locale object, so CF keeps its collator (about 3 µs).
enum FoundationStringCompare {
    #if !canImport(Darwin)
    /// The current locale, made once (CF caches its collator per thread for one locale object).
    nonisolated(unsafe) private static let locale = CFLocaleCopyCurrent()
    #endif

    static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer, options: String.CompareOptions) -> Int32 {
        #if canImport(Darwin)
        let left = String(decoding: lhs, as: UTF8.self), right = String(decoding: rhs, as: UTF8.self)
        let result = left.compare(right, options: options, range: nil, locale: .current)
        return Int32(result.rawValue)
        #else
        let flags = CFStringCompareFlags(rawValue: CFOptionFlags(options.rawValue) | CFStringCompareFlags.compareNonliteral.rawValue)
        guard let left = cfString(lhs) else { return rhs.isEmpty ? 0 : -1 }
        guard let right = cfString(rhs) else { return 1 }
        let result = CFStringCompareWithOptionsAndLocale(left, right, CFRangeMake(0, CFStringGetLength(left)), flags, locale)
        return Int32(result.rawValue)
        #endif
    }

    #if !canImport(Darwin)
    /// A CF string over `bytes` (not copied; the caller keeps them alive), nil when empty.
    private static func cfString(_ bytes: UnsafeRawBufferPointer) -> CFString? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        return CFStringCreateWithBytesNoCopy(nil, base.assumingMemoryBound(to: UInt8.self), bytes.count,
                                             CFStringBuiltInEncodings.UTF8.rawValue, false, kCFAllocatorNull)
    }
    #endif
}

/// `localizedStandardCompare` of two printable ASCII texts when the answer is certain without
/// Foundation (nil otherwise): most comparisons of a sort by name, at a fraction of Foundation's cost.
///
/// What Foundation does (swift-corelibs-foundation, `CFStringCompareWithOptionsAndLocale` and
/// `_CFCompareStringsWithLocale`): it walks both texts while their characters are equal; a digit
/// run in both is compared by value (different values decide; equal values of different lengths
/// note "the shorter run first" and go on, comparing letters case-insensitively from then on).
/// At the first other difference it hands the rest of both texts (with the equal character
/// before) to ICU's collator of the locale, at primary strength with numeric ordering (digit runs
/// as numbers, case ignored, punctuation and symbols not ignored); a primary difference decides.
/// Texts that run out first sort first; texts left equal keep the noted order.
///
/// This follows that walk and decides the ICU step itself when the primary weights of the rest
/// differ, from a table of ICU's primary order of the printable ASCII characters that is read
/// from Foundation itself on first use. Where the primary weights are all equal (only case or
/// leading zeros differ), or for digit runs of more than 18 digits, it answers nil and Foundation
/// decides. Only for the locales whose collation has no rule on ASCII characters (English, root):
/// elsewhere it is off. `LocalizedStandardOrderTests` checks it against Foundation on random texts.
enum LocalizedStandardASCII {
    /// Primary rank of each byte 0x00…0x7F (0 for bytes it does not handle), letters by their
    /// lower case, digits `numberRank` (the rank of any number); nil when the shortcut is off.
    private static let table: (ranks: [UInt8], numberRank: UInt8)? = makeTable()

    static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int32? {
        guard let table else { return nil }
        let ranks = table.ranks
        var i = 0, j = 0
        var noted: Int32 = 0
        while i < lhs.count && j < rhs.count {
            var left = lhs[i], right = rhs[j]
            guard left < 0x80, right < 0x80, ranks[Int(left)] != 0, ranks[Int(right)] != 0 else { return nil }
            if noted != 0 {
                if left >= 0x41 && left <= 0x5A { left += 0x20 }
                if right >= 0x41 && right <= 0x5A { right += 0x20 }
            }
            if isDigit(left) && isDigit(right) {
                guard let (leftValue, leftEnd) = number(lhs, from: i), let (rightValue, rightEnd) = number(rhs, from: j) else { return nil }
                if leftValue != rightValue { return leftValue < rightValue ? -1 : 1 }
                if noted == 0 && leftEnd - i != rightEnd - j { noted = leftEnd - i < rightEnd - j ? -1 : 1 }
                i = leftEnd
                j = rightEnd
                continue
            }
            if left == right {
                i += 1
                j += 1
                continue
            }
            return primaryOrder(lhs, from: i, rhs, from: j, table)
        }
        // Foundation compares each text to its end: a character it does not handle decides nothing here.
        guard isHandled(lhs, from: i, table.ranks), isHandled(rhs, from: j, table.ranks) else { return nil }
        if i < lhs.count { return 1 }
        if j < rhs.count { return -1 }
        return noted
    }

    /// The order of the two rests by ICU's primary weights with numeric ordering, nil when equal.
    private static func primaryOrder(_ lhs: UnsafeRawBufferPointer, from start: Int, _ rhs: UnsafeRawBufferPointer, from otherStart: Int,
                                     _ table: (ranks: [UInt8], numberRank: UInt8)) -> Int32? {
        guard isHandled(lhs, from: start, table.ranks), isHandled(rhs, from: otherStart, table.ranks) else { return nil }
        var i = start, j = otherStart
        while i < lhs.count && j < rhs.count {
            let left = lhs[i], right = rhs[j]
            switch (isDigit(left), isDigit(right)) {
            case (true, true):
                guard let (leftValue, leftEnd) = number(lhs, from: i), let (rightValue, rightEnd) = number(rhs, from: j) else { return nil }
                if leftValue != rightValue { return leftValue < rightValue ? -1 : 1 }
                i = leftEnd
                j = rightEnd
            case (true, false), (false, true):
                let leftRank = isDigit(left) ? table.numberRank : table.ranks[Int(left)]
                let rightRank = isDigit(right) ? table.numberRank : table.ranks[Int(right)]
                return leftRank < rightRank ? -1 : 1
            case (false, false):
                let leftRank = table.ranks[Int(left)], rightRank = table.ranks[Int(right)]
                if leftRank != rightRank { return leftRank < rightRank ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        if i < lhs.count { return 1 }
        if j < rhs.count { return -1 }
        return nil
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Whether every byte from `start` on is one the table ranks.
    private static func isHandled(_ text: UnsafeRawBufferPointer, from start: Int, _ ranks: [UInt8]) -> Bool {
        var index = start
        while index < text.count {
            guard text[index] < 0x80, ranks[Int(text[index])] != 0 else { return false }
            index += 1
        }
        return true
    }

    /// The value of the digit run at `start` and where it ends; nil past 18 digits (Foundation's
    /// own value would wrap at 2^64).
    private static func number(_ text: UnsafeRawBufferPointer, from start: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var index = start
        while index < text.count && isDigit(text[index]) {
            guard index - start < 18 else { return nil }
            value = value * 10 + UInt64(text[index] - 0x30)
            index += 1
        }
        return (value, index)
    }

    /// The primary ranks, read from Foundation: `x` sorts before `y` at primary strength exactly
    /// when `x + "b"` sorts before `y + "a"` (were they equal, "b" after "a" would decide).
    private static func makeTable() -> (ranks: [UInt8], numberRank: UInt8)? {
        let language = Locale.current.language.languageCode?.identifier ?? ""
        guard language == "en" || language == "und" || language.isEmpty else { return nil }
        func less(_ x: String, _ y: String) -> Bool {
            var left = x + "b", right = y + "a"
            return left.withUTF8 { l in
                right.withUTF8 { r in
                    FoundationStringCompare.compare(UnsafeRawBufferPointer(l), UnsafeRawBufferPointer(r),
                                                    options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering]) < 0
                }
            }
        }
        // Printable characters other than digits and capitals; "1" stands for every number.
        let characters = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
            .filter { !("0"..."9").contains($0) && !("A"..."Z").contains($0) } + ["1"]
        let sorted = characters.sorted(by: less)
        var ranks = [UInt8](repeating: 0, count: 128)
        var numberRank: UInt8 = 0
        var rank: UInt8 = 0
        for (index, character) in sorted.enumerated() {
            if index == 0 || less(sorted[index - 1], character) { rank += 1 }
            // A consistent order: nothing sorts before what came earlier.
            if index > 0 && less(character, sorted[index - 1]) { return nil }
            if character == "1" { numberRank = rank } else { ranks[Int(character.utf8.first!)] = rank }
        }
        for upper in UInt8(0x41)...0x5A { ranks[Int(upper)] = ranks[Int(upper + 0x20)] }
        // Ranks must tell the characters apart (only a letter and its capital share one).
        let distinct = Set((0x20...0x7E).filter { !(0x30...0x39).contains($0) && !(0x41...0x5A).contains($0) }.map { ranks[$0] })
        guard distinct.count == characters.count - 1, !distinct.contains(numberRank) else { return nil }
        for digit in 0x30...0x39 { ranks[digit] = numberRank }
        return (ranks, numberRank)
    }
}
