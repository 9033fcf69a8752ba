/// The opening and closing tag markers in force (`{{` and `}}` unless a `{{=<% %>=}}` tag changed them).
struct MustacheDelimiters: Hashable, Sendable {
    var open: [UInt8]
    var close: [UInt8]

    static let standard = MustacheDelimiters(open: Array("{{".utf8), close: Array("}}".utf8))
}

/// The content of a `{{$block}}`: kept as template text because where it is used decides its
/// indentation (the spec's block reindentation), so it is parsed where it is rendered.
struct MustacheBlock: Hashable, Sendable {
    /// The template text between the tags; for a standalone block, with its common indentation removed.
    var source: String
    /// The delimiters in force at the opening tag.
    var delimiters: MustacheDelimiters
    /// A block whose opening tag stands on a line of its own: content put in its place is indented.
    var isStandalone: Bool
    /// The indentation given to each line of the content put in its place, when standalone.
    var indentation: String
}

/// One element of a parsed template.
indirect enum MustacheNode: Sendable {
    case text(String)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (not escaped).
    case variable(name: MustacheName, escaped: Bool)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(name: MustacheName, inverted: Bool, children: [MustacheNode])
    /// `{{>name}}`; `indentation` is prefixed to each line of the partial (standalone tags only).
    case partial(name: String, indentation: String)
    /// `{{<name}}…{{/name}}`: the partial `name` rendered with these blocks overridden.
    case parent(name: String, indentation: String, blocks: [String: MustacheBlock])
    /// `{{$name}}default{{/name}}`: a place an inheriting template may fill.
    case block(name: String, MustacheBlock)
}
