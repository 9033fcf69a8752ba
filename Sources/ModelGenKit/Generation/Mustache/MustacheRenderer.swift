/// How interpolated values are escaped.
enum MustacheEscaping: Sendable {
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
///
/// Names resolve against the context stack as the spec says, asking each value for the member
/// (`TemplateObject`): the view models answer from their key lists, so nothing is built per
/// render. A renderer keeps the partials and blocks it parsed, for every later render.
final class MustacheRenderer {
    /// Templates by name, most specific layer first. A name found in no layer renders as nothing.
    let layers: [[String: String]]
    let escaping: MustacheEscaping
    /// How deep partials, parents and blocks may nest before rendering stops with an error.
    let maximumDepth: Int

    /// Parsed partials by name, layer and indentation; parsed block contents by text.
    private var partials: [PartialKey: [MustacheNode]] = [:]
    private var blocks: [BlockKey: [MustacheNode]] = [:]

    private struct PartialKey: Hashable {
        var name: String
        var layer: Int
        var indentation: String
    }

    private struct BlockKey: Hashable {
        var source: String
        var delimiters: MustacheDelimiters
    }

    /// A renderer with one layer of partials.
    convenience init(partials: [String: String] = [:], escaping: MustacheEscaping = .html, maximumDepth: Int = 64) {
        self.init(layers: [partials], escaping: escaping, maximumDepth: maximumDepth)
    }

    /// A renderer with layered partials, most specific first.
    init(layers: [[String: String]], escaping: MustacheEscaping = .html, maximumDepth: Int = 64) {
        self.layers = layers
        self.escaping = escaping
        self.maximumDepth = maximumDepth
    }

    /// Renders `template` with `value` as the root of the context stack.
    func render(_ template: MustacheTemplate, with value: TemplateValue) throws -> String {
        var render = Render(renderer: self, root: value)
        try render.render(template.nodes, blocks: [:], depth: 0, current: nil)
        return render.output
    }

    /// Renders the partial named `name` (as `{{>name}}` would) with `value` as the root.
    func render(templateNamed name: String, with value: TemplateValue) throws -> String {
        try render(MustacheTemplate(nodes: [.partial(name: name, indentation: "")]), with: value)
    }

    /// The nodes of partial `name` from `layer`, indented, parsed once.
    fileprivate func partial(_ name: String, layer: Int, indentation: String) throws -> [MustacheNode] {
        let key = PartialKey(name: name, layer: layer, indentation: indentation)
        if let nodes = partials[key] { return nodes }
        let source = layers[layer][name] ?? ""
        let nodes = try MustacheTemplate.parse(MustacheIndentation.indent(source, with: indentation), delimiters: .standard)
        partials[key] = nodes
        return nodes
    }

    /// The nodes of a block's content, parsed once.
    fileprivate func block(_ source: String, delimiters: MustacheDelimiters) throws -> [MustacheNode] {
        let key = BlockKey(source: source, delimiters: delimiters)
        if let nodes = blocks[key] { return nodes }
        let nodes = try MustacheTemplate.parse(source, delimiters: delimiters)
        blocks[key] = nodes
        return nodes
    }
}

/// A partial being rendered: its name and the layer it came from.
private struct TemplateID {
    var name: String
    var layer: Int
}

/// One entry of the context stack: a section's value, and its place when it came from a list.
private struct Frame {
    var value: TemplateValue
    var position: ListPosition?
}

/// The state of one render: the output so far and the context stack.
private struct Render {
    let renderer: MustacheRenderer
    var output = ""
    private var frames: [Frame]

    init(renderer: MustacheRenderer, root: TemplateValue) {
        self.renderer = renderer
        self.frames = [Frame(value: root, position: nil)]
    }

    /// Renders `nodes`; `current` is the partial being rendered (name and layer), `nil` at the top.
    mutating func render(_ nodes: [MustacheNode], blocks: [String: MustacheBlock], depth: Int, current: TemplateID?) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let name, let escaped):
                let value = lookUp(name)
                if escaped && renderer.escaping == .html {
                    var text = ""
                    value.interpolate(into: &text)
                    output += Self.escapeHTML(text)
                } else {
                    value.interpolate(into: &output)
                }
            case .section(let name, let inverted, let children):
                let value = lookUp(name)
                if inverted {
                    if !value.isTruthy { try render(children, blocks: blocks, depth: depth, current: current) }
                } else if case .list(let list) = value {
                    let count = list.count
                    for index in 0..<count {
                        frames.append(Frame(value: list.element(at: index), position: ListPosition(index: index, count: count)))
                        try render(children, blocks: blocks, depth: depth, current: current)
                        frames.removeLast()
                    }
                } else if value.isTruthy {
                    frames.append(Frame(value: value, position: nil))
                    try render(children, blocks: blocks, depth: depth, current: current)
                    frames.removeLast()
                }
            case .partial(let name, let indentation):
                try include(name, indentation: indentation, blocks: blocks, depth: depth, from: current)
            case .parent(let name, let indentation, let overrides):
                // Arguments given further out take precedence (multi-level inheritance).
                let merged = overrides.merging(blocks) { _, outer in outer }
                try include(name, indentation: indentation, blocks: merged, depth: depth, from: current)
            case .block(let name, let own):
                let content = blocks[name] ?? own
                let source = own.isStandalone
                    ? MustacheIndentation.indent(content.source, with: own.indentation) : content.source
                try checkDepth(depth, name: name)
                let nodes = try renderer.block(source, delimiters: content.delimiters)
                try render(nodes, blocks: blocks, depth: depth + 1, current: current)
            }
        }
    }

    /// Resolves `.` (the top value) or a name: its first part is searched from the top of the
    /// stack down; the remaining parts are looked up in what it found only.
    private func lookUp(_ name: MustacheName) -> TemplateValue {
        guard let first = name.parts.first else { return frames[frames.count - 1].value }
        var found: TemplateValue?
        var index = frames.count - 1
        while index >= 0 {
            if case .object(let object) = frames[index].value, let member = object.member(first, at: frames[index].position) {
                found = member
                break
            }
            index -= 1
        }
        guard var value = found else { return .null }
        for part in name.parts.dropFirst() {
            guard case .object(let object) = value, let member = object.member(part, at: nil) else { return .null }
            value = member
        }
        return value
    }

    private mutating func include(
        _ name: String, indentation: String, blocks: [String: MustacheBlock], depth: Int, from current: TemplateID?
    ) throws {
        // A template naming itself means the one it overrides, if any; else itself (recursion).
        let layers = renderer.layers
        let layer: Int?
        if let current, current.name == name {
            layer = (current.layer + 1..<layers.count).first { layers[$0][name] != nil }
                ?? (layers[current.layer][name] != nil ? current.layer : nil)
        } else {
            layer = layers.indices.first { layers[$0][name] != nil }
        }
        guard let layer else { return }
        try checkDepth(depth, name: name)
        let nodes = try renderer.partial(name, layer: layer, indentation: indentation)
        try render(nodes, blocks: blocks, depth: depth + 1, current: TemplateID(name: name, layer: layer))
    }

    private func checkDepth(_ depth: Int, name: String) throws {
        if depth >= renderer.maximumDepth {
            throw MustacheError("templates nest deeper than \(renderer.maximumDepth) levels at '\(name)' (a recursive partial?)")
        }
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
