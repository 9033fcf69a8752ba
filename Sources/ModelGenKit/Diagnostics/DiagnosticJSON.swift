/// Renders diagnostics as one JSON array (docs/CommandLine.md, `--diagnostics-format json`).
///
/// Each element is an object with keys in this fixed order: `file`, `line`, `column`, `endLine`,
/// `endColumn` (the end is exclusive, like the range), `severity`, `rule`, `message`, `notes`.
/// Each note is an object `file`, `line`, `column`, `message`; a note without a range of its own
/// carries the diagnostic's start position. Output is deterministic: one object per line, `[]` when empty.
public enum DiagnosticJSON {
    /// The JSON text, ending with a newline.
    public static func encode(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "[]\n" }
        let objects = diagnostics.map { diagnostic -> String in
            let notes = diagnostic.notes.map { note -> String in
                let range = note.range ?? diagnostic.range
                return "{\"file\":\(quote(range.file)),\"line\":\(range.start.line),\"column\":\(range.start.column),\"message\":\(quote(note.message))}"
            }
            let range = diagnostic.range
            return "{\"file\":\(quote(range.file)),\"line\":\(range.start.line),\"column\":\(range.start.column),"
                + "\"endLine\":\(range.end.line),\"endColumn\":\(range.end.column),"
                + "\"severity\":\(quote(diagnostic.severity.rawValue)),\"rule\":\(quote(diagnostic.rule.rawValue)),"
                + "\"message\":\(quote(diagnostic.message)),\"notes\":[\(notes.joined(separator: ","))]}"
        }
        return "[\n  " + objects.joined(separator: ",\n  ") + "\n]\n"
    }

    /// A JSON string literal for `text`.
    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
