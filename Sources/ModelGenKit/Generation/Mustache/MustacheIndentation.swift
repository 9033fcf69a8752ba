/// Line-wise indentation of template text, as standalone partials and blocks need it.
enum MustacheIndentation {
    /// Prefixes every line that holds more than spaces and tabs with `prefix`.
    static func indent(_ text: String, with prefix: String) -> String {
        guard !prefix.isEmpty else { return text }
        return lines(of: text).map { isBlank($0) ? $0 : prefix + $0 }.joined()
    }

    /// Removes the leading spaces and tabs common to all non-blank lines; blank lines become empty.
    /// Returns the text and the removed margin.
    static func dedent(_ text: String) -> (text: String, margin: String) {
        let lines = lines(of: text)
        var margin: Substring?
        for line in lines where !isBlank(line) {
            let leading = line.prefix { $0 == " " || $0 == "\t" }
            if let current = margin {
                margin = current.commonPrefix(with: leading)
            } else {
                margin = leading
            }
        }
        let removed = margin.map(String.init) ?? ""
        let result = lines.map { line -> String in
            if isBlank(line) { return line.hasSuffix("\n") ? "\n" : "" }
            return String(line.dropFirst(removed.count))
        }
        return (result.joined(), removed)
    }

    /// The lines of `text`, each with its `\n` (the last one may lack it).
    private static func lines(of text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index] == "\n" || text[index] == "\r\n" {
                result.append(text[start..<next])
                start = next
            }
            index = next
        }
        if start < text.endIndex { result.append(text[start...]) }
        return result
    }

    private static func isBlank(_ line: Substring) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }
}

extension Substring {
    fileprivate func commonPrefix(with other: Substring) -> Substring {
        var end = startIndex
        var otherIndex = other.startIndex
        while end < endIndex, otherIndex < other.endIndex, self[end] == other[otherIndex] {
            end = index(after: end)
            otherIndex = other.index(after: otherIndex)
        }
        return self[startIndex..<end]
    }
}
