/// How interpolated values are escaped.
public enum MustacheEscaping: Sendable {
    /// `{{x}}` escapes `& < > "` for HTML (the Mustache spec's behavior).
    case html
    /// `{{x}}` prints the value as is (generated source code).
    case none
}

/// Renders templates against a value, with a set of named partials (also the parents of
/// `{{<parent}}` inheritance).
///
/// Partials come in layers, most specific first (user templates, then built-in ones). A name is
/// looked up from the first layer, except that a template naming itself (`{{<entity}}` inside a
/// user's `entity`) gets the same name from a later layer when there is one: that is how an
/// override extends the template it replaces.
public struct MustacheRenderer: Sendable {
    /// Templates by name, most specific layer first. A name found in no layer renders as nothing.
    public var layers: [[String: String]]
    public var escaping: MustacheEscaping
    /// How deep partials, parents and blocks may nest before rendering stops with an error.
    public var maximumDepth: Int

    /// A renderer with one layer of partials.
    public init(partials: [String: String] = [:], escaping: MustacheEscaping = .html, maximumDepth: Int = 64) {
        self.init(layers: [partials], escaping: escaping, maximumDepth: maximumDepth)
    }

    /// A renderer with layered partials, most specific first.
    public init(layers: [[String: String]], escaping: MustacheEscaping = .html, maximumDepth: Int = 64) {
        self.layers = layers
        self.escaping = escaping
        self.maximumDepth = maximumDepth
    }

    /// Renders `template` with `value` as the root of the context stack.
    public func render(_ template: MustacheTemplate, with value: MustacheValue) throws -> String {
        var render = Render(renderer: self)
        try render.render(
            template.nodes, context: MustacheContext(root: value), blocks: [:], depth: 0, current: nil)
        return render.output
    }

    /// Renders the partial named `name` (as `{{>name}}` would) with `value` as the root.
    public func render(templateNamed name: String, with value: MustacheValue) throws -> String {
        try render(MustacheTemplate(nodes: [.partial(name: name, indentation: "")]), with: value)
    }
}

/// A partial being rendered: its name and the layer it came from.
private struct TemplateID {
    var name: String
    var layer: Int
}

/// The state of one render: the output so far and the templates parsed so far.
private struct Render {
    let renderer: MustacheRenderer
    var output = ""
    private var parsed: [ParseKey: [MustacheNode]] = [:]

    /// Parsed partials by name, layer and indentation.
    private var partials: [PartialKey: [MustacheNode]] = [:]

    private struct ParseKey: Hashable {
        var source: String
        var delimiters: MustacheDelimiters
    }

    private struct PartialKey: Hashable {
        var name: String
        var layer: Int
        var indentation: String
    }

    init(renderer: MustacheRenderer) {
        self.renderer = renderer
    }

    /// Renders `nodes`; `current` is the partial being rendered (name and layer), `nil` at the top.
    mutating func render(
        _ nodes: [MustacheNode], context: MustacheContext, blocks: [String: MustacheBlock], depth: Int,
        current: TemplateID?
    ) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let name, let escaped):
                let text = context.lookUp(name).interpolated
                output += escaped && renderer.escaping == .html ? Self.escapeHTML(text) : text
            case .section(let name, let inverted, let children):
                let value = context.lookUp(name)
                if inverted {
                    if !value.isTruthy { try render(children, context: context, blocks: blocks, depth: depth, current: current) }
                } else if case .array(let items) = value {
                    for item in items {
                        try render(children, context: context.pushing(item), blocks: blocks, depth: depth, current: current)
                    }
                } else if value.isTruthy {
                    try render(children, context: context.pushing(value), blocks: blocks, depth: depth, current: current)
                }
            case .partial(let name, let indentation):
                try include(name, indentation: indentation, context: context, blocks: blocks, depth: depth, from: current)
            case .parent(let name, let indentation, let overrides):
                // Arguments given further out take precedence (multi-level inheritance).
                let merged = overrides.merging(blocks) { _, outer in outer }
                try include(name, indentation: indentation, context: context, blocks: merged, depth: depth, from: current)
            case .block(let name, let own):
                let content = blocks[name] ?? own
                let source = own.isStandalone
                    ? MustacheIndentation.indent(content.source, with: own.indentation) : content.source
                try checkDepth(depth, name: name)
                let nodes = try parse(source, delimiters: content.delimiters)
                try render(nodes, context: context, blocks: blocks, depth: depth + 1, current: current)
            }
        }
    }

    private mutating func include(
        _ name: String, indentation: String, context: MustacheContext, blocks: [String: MustacheBlock], depth: Int,
        from current: TemplateID?
    ) throws {
        // A template naming itself means the one it overrides, if any; else itself (recursion).
        let indices = renderer.layers.indices
        let candidates = current.map { $0.name == name ? Array(indices.dropFirst($0.layer + 1)) + [$0.layer] : Array(indices) }
            ?? Array(indices)
        guard let layer = candidates.first(where: { renderer.layers[$0][name] != nil }),
            let source = renderer.layers[layer][name]
        else { return }
        try checkDepth(depth, name: name)
        // Indenting and parsing a partial happen once per (partial, indentation), not per use.
        let key = PartialKey(name: name, layer: layer, indentation: indentation)
        let nodes: [MustacheNode]
        if let cached = partials[key] {
            nodes = cached
        } else {
            nodes = try parse(MustacheIndentation.indent(source, with: indentation), delimiters: .standard)
            partials[key] = nodes
        }
        try render(nodes, context: context, blocks: blocks, depth: depth + 1, current: TemplateID(name: name, layer: layer))
    }

    private func checkDepth(_ depth: Int, name: String) throws {
        if depth >= renderer.maximumDepth {
            throw MustacheError("templates nest deeper than \(renderer.maximumDepth) levels at '\(name)' (a recursive partial?)")
        }
    }

    private mutating func parse(_ source: String, delimiters: MustacheDelimiters) throws -> [MustacheNode] {
        let key = ParseKey(source: source, delimiters: delimiters)
        if let nodes = parsed[key] { return nodes }
        let nodes = try MustacheTemplate.parse(source, delimiters: delimiters)
        parsed[key] = nodes
        return nodes
    }

    private static func escapeHTML(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
