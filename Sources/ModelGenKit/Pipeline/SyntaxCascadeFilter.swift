/// Keeps the semantic diagnostics of a run with syntax errors that those errors cannot have caused.
///
/// Declarations that parsed are checked even when others did not; but a declaration that the parser
/// had to recover inside is incomplete, so rules would report follow-on errors about it (a property
/// lost by recovery is "missing" from an init, an entity lost by recovery is an "unknown type" where it
/// is used). Such diagnostics are dropped:
/// - every semantic diagnostic that starts inside a *broken region* (the top-level declaration that
///   contains a syntax error, or, when the error lies outside every parsed declaration, the text from the
///   error to the next parsed declaration), except those of the rules about one property the parser read
///   whole (its type, default, attributes, name), which recovery cannot cause: every error is wanted (docs/Rules.md);
/// - a diagnostic about a reference (`unknown-type`, `inverse-mismatch`, `ambiguous-inverse`) whose
///   referenced names occur in a broken region: the declaration they name may be the broken one.
enum SyntaxCascadeFilter {
    /// The rules whose diagnostics are about a name that may be declared in a broken region.
    private static let referenceRules: Set<RuleID> = [.unknownType, .inverseMismatch, .ambiguousInverse]

    /// The rules that judge one property as written, whatever else its declaration lost.
    private static let memberRules: Set<RuleID> = [
        .unknownType, .unsupportedType, .defaultTypeMismatch, .invalidAttribute, .reservedName, .optionalToOne,
    ]

    static func filter(_ semantic: [Diagnostic], files: [ModelFile], syntaxErrors: [Diagnostic]) -> [Diagnostic] {
        if syntaxErrors.isEmpty { return semantic }
        var regions: [String: Set<Range<Int>>] = [:]
        var filesByPath: [String: ModelFile] = [:]
        for file in files { filesByPath[file.source.path] = file }
        for error in syntaxErrors {
            guard let file = filesByPath[error.range.file] else { continue }
            regions[file.source.path, default: []].insert(brokenRegion(containing: error.range.start.offset, in: file))
        }
        // How often each word occurs in the broken regions.
        var brokenWords: [Substring: Int] = [:]
        for (path, ranges) in regions {
            guard let bytes = filesByPath[path]?.source.bytes else { continue }
            for range in ranges {
                for word in words(in: bytes, range) { brokenWords[word, default: 0] += 1 }
            }
        }
        var properties: [String: [Range<Int>]] = [:]
        for path in regions.keys {
            if let file = filesByPath[path] { properties[path] = propertyRanges(in: file) }
        }
        return semantic.filter { diagnostic in
            let start = diagnostic.range.start.offset
            let isInBrokenRegion = regions[diagnostic.range.file]?.contains(where: { $0.contains(start) }) == true
            if isInBrokenRegion {
                guard memberRules.contains(diagnostic.rule), contains(properties[diagnostic.range.file] ?? [], start) else { return false }
            }
            if referenceRules.contains(diagnostic.rule), let file = filesByPath[diagnostic.range.file] {
                // A referenced name written in a broken region, other than by this reference itself.
                let referenced = words(in: file.source.bytes, start..<max(start, diagnostic.range.end.offset))
                for word in Set(referenced) {
                    let own = isInBrokenRegion ? referenced.count { $0 == word } : 0
                    if (brokenWords[word] ?? 0) > own { return false }
                }
            }
            return true
        }
    }

    /// The ranges of the properties the parser read whole, in file order (recovery skips a broken member entirely).
    private static func propertyRanges(in file: ModelFile) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for case .entity(let entity) in file.declarations {
            for case .property(let property) in entity.members {
                ranges.append(property.range.start.offset..<max(property.range.end.offset, property.range.start.offset + 1))
            }
        }
        return ranges.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether `offset` lies in one of `ranges` (sorted, not overlapping).
    private static func contains(_ ranges: [Range<Int>], _ offset: Int) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= offset { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(offset)
    }

    /// The declaration containing `offset`, or the gap from `offset` to the next parsed declaration.
    private static func brokenRegion(containing offset: Int, in file: ModelFile) -> Range<Int> {
        var next = file.source.bytes.count
        for declaration in file.declarations {
            let range = declaration.range.start.offset..<max(declaration.range.start.offset, declaration.range.end.offset)
            if range.contains(offset) { return range }
            if range.lowerBound > offset { next = min(next, range.lowerBound) }
        }
        return offset..<max(offset + 1, next)
    }

    /// The identifier-like words of `bytes[range]`, in order, with repeats (letters, digits, `_`, and any non-ASCII byte).
    private static func words(in bytes: [UInt8], _ range: Range<Int>) -> [Substring] {
        let clamped = range.clamped(to: 0..<bytes.count)
        var result: [Substring] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty, let word = String(validating: current, as: UTF8.self) { result.append(Substring(word)) }
            current.removeAll(keepingCapacity: true)
        }
        for byte in bytes[clamped] {
            let isWordByte = byte >= 0x80 || byte == UInt8(ascii: "_")
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if isWordByte { current.append(byte) } else { flush() }
        }
        flush()
        return result
    }
}
