/// Keeps the semantic diagnostics of a run with syntax errors that those errors cannot have caused.
///
/// Declarations that parsed are checked even when others did not; but a declaration that the parser
/// had to recover inside is incomplete, so rules would report follow-on errors about it (a property
/// lost by recovery is "missing" from an init, an entity lost by recovery is an "unknown type" where it
/// is used). Such diagnostics are dropped:
/// - every semantic diagnostic that starts inside a *broken region*: the top-level declaration that
///   contains a syntax error, or, when the error lies outside every parsed declaration, the text from the
///   error to the next parsed declaration;
/// - a diagnostic about a reference (`unknown-type`, `inverse-mismatch`, `ambiguous-inverse`) whose
///   referenced names occur in a broken region: the declaration they name may be the broken one.
enum SyntaxCascadeFilter {
    /// The rules whose diagnostics are about a name that may be declared in a broken region.
    private static let referenceRules: Set<RuleID> = [.unknownType, .inverseMismatch, .ambiguousInverse]

    static func filter(_ semantic: [Diagnostic], files: [ModelFile], syntaxErrors: [Diagnostic]) -> [Diagnostic] {
        if syntaxErrors.isEmpty { return semantic }
        var regions: [String: [Range<Int>]] = [:]
        var brokenWords: Set<Substring> = []
        var filesByPath: [String: ModelFile] = [:]
        for file in files { filesByPath[file.source.path] = file }
        for error in syntaxErrors {
            guard let file = filesByPath[error.range.file] else { continue }
            let region = brokenRegion(containing: error.range.start.offset, in: file)
            regions[file.source.path, default: []].append(region)
            brokenWords.formUnion(words(in: file.source.bytes, region))
        }
        return semantic.filter { diagnostic in
            let start = diagnostic.range.start.offset
            if regions[diagnostic.range.file]?.contains(where: { $0.contains(start) }) == true { return false }
            if referenceRules.contains(diagnostic.rule), let file = filesByPath[diagnostic.range.file] {
                let referenced = words(in: file.source.bytes, start..<max(start, diagnostic.range.end.offset))
                if !referenced.isDisjoint(with: brokenWords) { return false }
            }
            return true
        }
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

    /// The identifier-like words of `bytes[range]` (letters, digits, `_`, and any non-ASCII byte).
    private static func words(in bytes: [UInt8], _ range: Range<Int>) -> Set<Substring> {
        let clamped = range.clamped(to: 0..<bytes.count)
        var result: Set<Substring> = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty, let word = String(validating: current, as: UTF8.self) { result.insert(Substring(word)) }
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
