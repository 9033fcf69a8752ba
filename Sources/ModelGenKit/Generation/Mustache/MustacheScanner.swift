/// One tag of a template as scanned, with the span it takes once standalone lines are trimmed.
struct MustacheTag {
    enum Kind: Equatable {
        case variable(escaped: Bool)
        case section, inverted, close, comment, partial, setDelimiters, parent, block
    }

    var kind: Kind
    var name: String
    /// The tag itself, delimiters included.
    var tagStart: Int
    var tagEnd: Int
    /// What the tag removes from the output: the tag, or its whole line when standalone.
    var start: Int
    var end: Int
    /// The text between the start of the tag's line and the tag.
    var lineStart: Int
    /// Whether the tag stands alone on its line (or pairs with a neighbour to do so).
    var isStandalone = false
    /// The delimiters in force after the tag.
    var delimiters: MustacheDelimiters
}

/// Splits template text into tags and applies the spec's standalone-line rules.
struct MustacheScanner {
    let bytes: [UInt8]

    /// All tags in order; the text between them is the template's literal text.
    func scan(delimiters initial: MustacheDelimiters) throws -> [MustacheTag] {
        var tags: [MustacheTag] = []
        var delimiters = initial
        var position = 0
        while let tagStart = find(delimiters.open, from: position) {
            var cursor = tagStart + delimiters.open.count
            let kind: MustacheTag.Kind
            let content: ArraySlice<UInt8>
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{") {
                let closing = [UInt8(ascii: "}")] + delimiters.close
                guard let found = find(closing, from: cursor + 1) else { throw unclosed(at: tagStart) }
                kind = .variable(escaped: false)
                content = bytes[(cursor + 1)..<found]
                cursor = found + closing.count
            } else if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
                let closing = [UInt8(ascii: "=")] + delimiters.close
                guard let found = find(closing, from: cursor + 1) else { throw unclosed(at: tagStart) }
                let parts = String(decoding: bytes[(cursor + 1)..<found], as: UTF8.self)
                    .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                guard parts.count == 2 else {
                    throw MustacheError("line \(line(of: tagStart)): a delimiter tag needs two delimiters")
                }
                delimiters = MustacheDelimiters(open: Array(parts[0].utf8), close: Array(parts[1].utf8))
                kind = .setDelimiters
                content = []
                cursor = found + closing.count
            } else {
                guard let found = find(delimiters.close, from: cursor) else { throw unclosed(at: tagStart) }
                var inner = bytes[cursor..<found]
                switch inner.first {
                case UInt8(ascii: "#"): kind = .section
                case UInt8(ascii: "^"): kind = .inverted
                case UInt8(ascii: "/"): kind = .close
                case UInt8(ascii: "!"): kind = .comment
                case UInt8(ascii: ">"): kind = .partial
                case UInt8(ascii: "<"): kind = .parent
                case UInt8(ascii: "$"): kind = .block
                case UInt8(ascii: "&"): kind = .variable(escaped: false)
                default: kind = .variable(escaped: true)
                }
                if case .variable(escaped: true) = kind {} else { inner = inner.dropFirst() }
                content = inner
                cursor = found + delimiters.close.count
            }
            let name = kind == .comment ? "" : trimmed(content)
            if kind != .comment && kind != .setDelimiters && name.isEmpty {
                throw MustacheError("line \(line(of: tagStart)): empty tag")
            }
            let lineStart = startOfLine(containing: tagStart)
            tags.append(MustacheTag(
                kind: kind, name: name, tagStart: tagStart, tagEnd: cursor, start: tagStart, end: cursor,
                lineStart: lineStart, delimiters: delimiters))
            position = cursor
        }
        markStandaloneLines(&tags)
        return tags
    }

    /// The 1-based line of a byte offset.
    func line(of offset: Int) -> Int {
        1 + bytes[0..<min(offset, bytes.count)].lazy.filter { $0 == UInt8(ascii: "\n") }.count
    }

    // MARK: Standalone lines

    private func markStandaloneLines(_ tags: inout [MustacheTag]) {
        for index in tags.indices where tags[index].kind.canStandAlone {
            if isBlank(tags[index].lineStart, tags[index].tagStart), isBlankToEndOfLine(from: tags[index].tagEnd) {
                tags[index].isStandalone = true
                tags[index].start = tags[index].lineStart
                tags[index].end = endOfLine(from: tags[index].tagEnd)
            }
        }
        // Pairs of adjacent tags that together stand alone (the `~inheritance` spec's rules).
        let matches = openingTags(of: tags)
        for index in tags.indices.dropLast() {
            let first = tags[index]
            let second = tags[index + 1]
            guard first.tagEnd == second.tagStart, isBlank(first.lineStart, first.tagStart),
                isBlankToEndOfLine(from: second.tagEnd)
            else { continue }
            let closedKind = matches[index + 1].map { tags[$0].kind }
            switch (first.kind, second.kind) {
            case (.block, .close) where matches[index + 1] == index:
                // `{{$b}}{{/b}}` alone on a line: indentation removed, the newline kept.
                tags[index].isStandalone = true
                tags[index].start = first.lineStart
                tags[index + 1].end = endOfHorizontalSpace(from: second.tagEnd)
            case (.parent, .close) where matches[index + 1] == index,
                (.parent, .block):
                tags[index].isStandalone = true
                tags[index + 1].isStandalone = second.kind == .block
                tags[index].start = first.lineStart
                tags[index + 1].end = endOfLine(from: second.tagEnd)
            case (.close, .close) where closedKind == .parent && matches[index].map({ tags[$0].kind }) == .block:
                tags[index].start = first.lineStart
                tags[index + 1].end = endOfLine(from: second.tagEnd)
            default:
                break
            }
        }
    }

    /// For each closing tag, the index of the tag it closes (when they nest properly).
    private func openingTags(of tags: [MustacheTag]) -> [Int?] {
        var result = [Int?](repeating: nil, count: tags.count)
        var stack: [Int] = []
        for (index, tag) in tags.enumerated() {
            switch tag.kind {
            case .section, .inverted, .parent, .block: stack.append(index)
            case .close: result[index] = stack.popLast()
            default: break
            }
        }
        return result
    }

    // MARK: Byte helpers

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private func trimmed(_ slice: ArraySlice<UInt8>) -> String {
        String(decoding: slice, as: UTF8.self).trimmingWhitespace()
    }

    private func unclosed(at offset: Int) -> MustacheError {
        MustacheError("line \(line(of: offset)): unclosed tag")
    }

    private func startOfLine(containing offset: Int) -> Int {
        var index = offset
        while index > 0, bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
    }

    /// The offset just past the line's newline (or the end of the text).
    private func endOfLine(from offset: Int) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        return min(index + 1, bytes.count)
    }

    private func endOfHorizontalSpace(from offset: Int) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        return index
    }

    private func isBlank(_ start: Int, _ end: Int) -> Bool {
        bytes[start..<end].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    private func isBlankToEndOfLine(from offset: Int) -> Bool {
        var index = offset
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            let byte = bytes[index]
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") else { return false }
            index += 1
        }
        return true
    }
}

extension MustacheTag.Kind {
    /// Tags that vanish with their line when they stand alone on it (not interpolations).
    var canStandAlone: Bool {
        if case .variable = self { return false }
        return true
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
