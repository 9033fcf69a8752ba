/// A parsed Mustache template (the official spec, with partials, set delimiters and
/// `~inheritance` parents and blocks; no lambdas).
struct MustacheTemplate: Sendable {
    let nodes: [MustacheNode]

    /// Parses template text with the standard `{{ }}` delimiters.
    init(_ source: String) throws {
        self.nodes = try MustacheTemplate.parse(source, delimiters: .standard)
    }

    init(nodes: [MustacheNode]) {
        self.nodes = nodes
    }

    /// Parses `source` starting with `delimiters`.
    static func parse(_ source: String, delimiters: MustacheDelimiters) throws -> [MustacheNode] {
        let bytes = Array(source.utf8)
        let scanner = MustacheScanner(bytes: bytes)
        let tags = try scanner.scan(delimiters: delimiters)
        var builder = TreeBuilder(bytes: bytes, scanner: scanner, tags: tags)
        return try builder.build()
    }
}

/// Turns the scanned tags and the text between them into nested nodes.
private struct TreeBuilder {
    private struct Frame {
        var tagIndex: Int
        var children: [MustacheNode] = []
    }

    let bytes: [UInt8]
    let scanner: MustacheScanner
    let tags: [MustacheTag]

    mutating func build() throws -> [MustacheNode] {
        var stack = [Frame(tagIndex: -1)]
        var textStart = 0
        for (index, tag) in tags.enumerated() {
            appendText(from: textStart, to: tag.start, into: &stack[stack.count - 1].children)
            textStart = max(textStart, tag.end)
            switch tag.kind {
            case .variable(let escaped):
                stack[stack.count - 1].children.append(.variable(name: MustacheName(tag.name), escaped: escaped))
            case .section, .inverted, .parent, .block:
                stack.append(Frame(tagIndex: index))
            case .partial:
                stack[stack.count - 1].children.append(.partial(name: tag.name, indentation: indentation(of: tag)))
            case .comment, .setDelimiters:
                break
            case .close:
                guard stack.count > 1, let frame = stack.popLast() else {
                    throw MustacheError("line \(scanner.line(of: tag.tagStart)): unexpected closing tag {{/\(tag.name)}}")
                }
                let opening = tags[frame.tagIndex]
                guard opening.name == tag.name else {
                    throw MustacheError("line \(scanner.line(of: tag.tagStart)): {{/\(tag.name)}} closes {{\(opening.name)}}")
                }
                stack[stack.count - 1].children.append(node(opening: opening, closing: tag, children: frame.children))
            }
        }
        if let open = stack.last, stack.count > 1 {
            let tag = tags[open.tagIndex]
            throw MustacheError("line \(scanner.line(of: tag.tagStart)): {{\(tag.name)}} is never closed")
        }
        appendText(from: textStart, to: bytes.count, into: &stack[0].children)
        return stack[0].children
    }

    private func node(opening: MustacheTag, closing: MustacheTag, children: [MustacheNode]) -> MustacheNode {
        switch opening.kind {
        case .section, .inverted:
            return .section(name: MustacheName(opening.name), inverted: opening.kind == .inverted, children: children)
        case .parent:
            var blocks: [String: MustacheBlock] = [:]
            for case .block(let name, let block) in children where blocks[name] == nil {
                blocks[name] = block
            }
            return .parent(name: opening.name, indentation: indentation(of: opening), blocks: blocks)
        default:
            let inner = String(decoding: bytes[opening.end..<max(opening.end, closing.start)], as: UTF8.self)
            var block = MustacheBlock(source: inner, delimiters: opening.delimiters, isStandalone: false, indentation: "")
            if opening.isStandalone {
                let (dedented, margin) = MustacheIndentation.dedent(inner)
                block.source = dedented
                block.isStandalone = true
                block.indentation = margin.isEmpty ? leadingText(of: opening) : margin
            }
            return .block(name: opening.name, block)
        }
    }

    private func appendText(from start: Int, to end: Int, into children: inout [MustacheNode]) {
        guard start < end else { return }
        children.append(.text(String(decoding: bytes[start..<end], as: UTF8.self)))
    }

    /// The spaces and tabs before the tag on its line ("" when anything else precedes it).
    private func leadingText(of tag: MustacheTag) -> String {
        let leading = bytes[tag.lineStart..<tag.tagStart]
        guard leading.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return "" }
        return String(decoding: leading, as: UTF8.self)
    }

    private func indentation(of tag: MustacheTag) -> String {
        tag.isStandalone ? leadingText(of: tag) : ""
    }
}
