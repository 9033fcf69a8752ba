/// What a bytewise index on a `String` column can do for Swift's `==` with a captured text
/// (docs/Predicates.md, "Equality and indexes"). Swift's `==` is canonical equivalence, so a stored
/// text equals the captured one when their NFC forms are equal, not only when their bytes are:
/// the index on the column (SQLite's `BINARY`, PostgreSQL's deterministic collation) can serve
/// the comparison only through texts the translator knows to be all the equivalent ones, or a
/// byte prefix every equivalent one starts with.
///
/// The facts this rests on, checked over every Unicode scalar against Swift's own `==` on the
/// running toolchain (`CanonicalEquivalentsTests`):
/// - The only scalars outside ASCII that are canonically equivalent to an ASCII text are three
///   singletons: KELVIN SIGN (U+212A) is `"K"`, GREEK QUESTION MARK (U+037E) is `";"`, GREEK
///   VARIA (U+1FEF) is `` "`" ``. Every other ASCII character (a *plain* one) equals only itself.
/// - No scalar decomposes into an ASCII character followed by a starter (a scalar of combining
///   class 0): what follows an ASCII character in a decomposition is a combining mark.
///
/// So a text of plain ASCII characters equals itself only; an ASCII text with k of the three
/// letters equals exactly its 2^k spellings; and any text whose first n scalars are plain ASCII
/// equals only texts that start with its first n - 1 scalars (the n-th may be the base of a
/// precomposed character when a combining mark follows it).
enum CanonicalEquivalents {
    /// How a text can be found through a bytewise index.
    enum Lookup: Equatable {
        /// Exactly the texts equal to it: every spelling, distinct.
        case exact([String])
        /// A non-empty ASCII prefix of every text equal to it (the equality must still be tested).
        case prefix(String)
        /// Nothing the index can serve.
        case none
    }

    /// Most spellings enumerated for one text (an ASCII text with four of the three singletons'
    /// letters); beyond, a prefix.
    static let maximumSpellings = 16

    /// The non-ASCII scalar equal to each ASCII character that has one.
    static let singletons: [Unicode.Scalar: Unicode.Scalar] = ["K": "\u{212A}", ";": "\u{037E}", "`": "\u{1FEF}"]

    static func lookup(_ text: String) -> Lookup {
        // Most texts: plain ASCII, equal only to themselves (one pass over the bytes).
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "K") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "`") }) {
            return .exact([text])
        }
        var plainCount = 0
        var spellings = 1
        var firstSingleton: Int?
        var isASCII = true
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            guard scalar.isASCII else {
                isASCII = false
                break
            }
            if singletons[scalar] != nil {
                if firstSingleton == nil { firstSingleton = offset }
                spellings = min(spellings * 2, maximumSpellings + 1)
            } else if firstSingleton == nil {
                plainCount = offset + 1
            }
        }
        if isASCII, spellings <= maximumSpellings {
            var results = [""]
            for scalar in text.unicodeScalars {
                if let other = singletons[scalar] {
                    results = results.flatMap { [$0 + String(scalar), $0 + String(other)] }
                } else {
                    for index in results.indices { results[index].unicodeScalars.append(scalar) }
                }
            }
            return .exact(results)
        }
        // The plain ASCII scalars before the first other one; the last of them may be the base of
        // a precomposed character (an ASCII text's singleton is a starter, so there it is not).
        let kept = isASCII ? plainCount : plainCount - 1
        guard kept > 0 else { return .none }
        return .prefix(String(text.unicodeScalars.prefix(kept)))
    }

    /// The smallest text greater than every text starting with `prefix` (a non-empty ASCII
    /// text), in byte order: its last byte increased, after dropping trailing U+007F; nil when
    /// nothing is left.
    static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.last, last.value == 0x7F { scalars.removeLast() }
        guard let last = scalars.popLast(), let next = Unicode.Scalar(last.value + 1) else { return nil }
        var text = String(String.UnicodeScalarView(scalars))
        text.unicodeScalars.append(next)
        return text
    }
}
