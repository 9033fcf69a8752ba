// `modelgen format`: the canonical layout of a `.model` file.

/// Formats `.model` files: 4-space indent, one member per line, attributes on their own line
/// before their property, one `case` per line, one blank line between top-level declarations,
/// nothing aligned. Every comment is kept, next to the code it was next to; the source's blank
/// lines between members are kept (at most one). Formatting never changes what the file means,
/// and formatting formatted text changes nothing.
enum ModelFormatter {
    /// Parses and formats one file. The text is `nil` when the file has syntax errors (then
    /// `diagnostics` holds them): a file that does not parse is never formatted.
    public static func format(_ source: SourceFile) -> (text: String?, diagnostics: [Diagnostic]) {
        let parsed = Parser.parse(source)
        guard parsed.diagnostics.isEmpty else { return (nil, parsed.diagnostics) }
        return (format(parsed.file), [])
    }

    /// The formatted text of a parsed file. The file must have no syntax errors (the parser
    /// recovers from them by skipping text, which formatting would then lose).
    public static func format(_ file: ModelFile) -> String {
        let lines = FormatLayout(source: file.source).lines(of: file.declarations)
        var weaver = CommentWeaver(source: file.source, attachedDocs: AttachedDocs(file))
        return weaver.render(lines, comments: file.comments)
    }
}
