/// Renders diagnostics as text (docs/CommandLine.md, `modelgen lint`):
///
/// ```
/// PATH:LINE:COLUMN: SEVERITY: MESSAGE [RULE-ID]
/// <the source line>
/// <spaces>^~~~
/// PATH:LINE:COLUMN: note: MESSAGE
/// ```
///
/// The marker puts `^` under the first byte of the range and `~` under the rest of it on that line
/// (counted in Unicode scalars, tabs kept, so it lines up in a terminal). A note without a range of its
/// own is printed at the diagnostic's position, so every header line has the same shape. Very long
/// source lines are shown as a window around the column, cut at each side with `…`.
public struct DiagnosticRenderer: Sendable {
    /// The widest source excerpt shown, in bytes.
    static let maximumExcerptBytes = 200

    private let files: [String: SourceFile]
    private let lineStarts: [String: [Int]]

    /// `sources` provide the text of the lines shown under each diagnostic.
    public init(sources: [SourceFile]) {
        var files: [String: SourceFile] = [:]
        var lineStarts: [String: [Int]] = [:]
        for source in sources where files[source.path] == nil {
            files[source.path] = source
            // Line 1 starts after a byte order mark, as the lexer counts it.
            var starts = [source.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
            source.bytes.withUnsafeBufferPointer { buffer in
                for offset in buffer.indices where buffer[offset] == UInt8(ascii: "\n") {
                    starts.append(offset + 1)
                }
            }
            lineStarts[source.path] = starts
        }
        self.files = files
        self.lineStarts = lineStarts
    }

    /// All diagnostics, each followed by its excerpt and notes, one per line, ending with a newline.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(render).joined()
    }

    /// One diagnostic with its excerpt and notes, ending with a newline.
    public func render(_ diagnostic: Diagnostic) -> String {
        var text = "\(Self.position(diagnostic.range)): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule.rawValue)]\n"
        if let excerpt = excerpt(for: diagnostic.range) {
            text += excerpt.line + "\n" + excerpt.marker + "\n"
        }
        for note in diagnostic.notes {
            text += "\(Self.position(note.range ?? diagnostic.range)): note: \(note.message)\n"
        }
        return text
    }

    /// `1 error, 2 warnings` (nothing for zero of a kind; empty when both are zero).
    public static func summary(errors: Int, warnings: Int) -> String {
        var parts: [String] = []
        if errors > 0 { parts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { parts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        return parts.joined(separator: ", ")
    }

    static func position(_ range: SourceRange) -> String {
        "\(range.file):\(range.start.line):\(range.start.column)"
    }

    // MARK: - Excerpt

    private func excerpt(for range: SourceRange) -> (line: String, marker: String)? {
        guard let source = files[range.file], let starts = lineStarts[range.file],
              range.start.line >= 1, range.start.line <= starts.count else { return nil }
        let bytes = source.bytes
        let lineStart = starts[range.start.line - 1]
        var lineEnd = range.start.line < starts.count ? starts[range.start.line] - 1 : bytes.count
        if lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let caret = min(max(lineStart, lineStart + range.start.column - 1), lineEnd)
        var spanEnd = range.end.line == range.start.line ? lineStart + range.end.column - 1 : lineEnd
        spanEnd = min(max(spanEnd, caret), lineEnd)

        // A window around the caret for very long lines.
        var windowStart = lineStart
        var windowEnd = lineEnd
        if lineEnd - lineStart > Self.maximumExcerptBytes {
            // Cut at character boundaries (a UTF-8 character has at most 3 continuation bytes).
            windowStart = max(lineStart, caret - Self.maximumExcerptBytes / 2)
            for _ in 0..<3 where windowStart > lineStart && bytes[windowStart] & 0xC0 == 0x80 { windowStart -= 1 }
            windowEnd = min(lineEnd, max(caret, windowStart + Self.maximumExcerptBytes))
            for _ in 0..<3 where windowEnd < lineEnd && bytes[windowEnd] & 0xC0 == 0x80 { windowEnd += 1 }
        }
        let prefixCut = windowStart > lineStart ? "…" : ""
        let suffixCut = windowEnd < lineEnd ? "…" : ""
        let shownLine = prefixCut + Self.printable(bytes[windowStart..<windowEnd]) + suffixCut

        // One marker column per character (UTF-8 lead byte); tabs are copied so the marker lines up.
        var marker = prefixCut.isEmpty ? "" : " "
        for byte in bytes[windowStart..<caret] where byte & 0xC0 != 0x80 {
            marker.append(byte == UInt8(ascii: "\t") ? "\t" : " ")
        }
        marker.append("^")
        let spanCharacters = bytes[caret..<min(spanEnd, windowEnd)].count { $0 & 0xC0 != 0x80 }
        if spanCharacters > 1 { marker += String(repeating: "~", count: spanCharacters - 1) }
        return (shownLine, marker)
    }

    /// The bytes as text: invalid UTF-8 and control characters (other than tab) become `�`.
    private static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        UTF8Scalar.printableString(bytes)
    }
}
