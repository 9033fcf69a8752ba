/// A position as the Language Server Protocol counts it: a line from 0, and a character offset in
/// UTF-16 code units from the line's start (the front end counts UTF-8 bytes: `SourceLocation`).
package struct LSPPosition: Hashable, Sendable, Comparable {
    package var line: Int
    package var character: Int

    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    package init?(_ json: JSON?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int else { return nil }
        self.init(line: line, character: character)
    }

    package var json: JSON { ["line": .int(line), "character": .int(character)] }

    package static func < (lhs: LSPPosition, rhs: LSPPosition) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }
}

/// The text of one file as the server holds it: its bytes (as read, or as the editor sent them)
/// and where each line starts, to turn byte offsets into LSP positions and back.
struct TextDocument: Sendable {
    private(set) var bytes: [UInt8]
    /// The byte offset of each line's start; a line ends at `\n`, `\r\n` or a lone `\r` (as LSP says).
    private(set) var lineStarts: [Int]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.lineStarts = Self.lineStarts(of: bytes)
    }

    init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    private static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 10 {
                starts.append(index + 1)
            } else if byte == 13 {
                if index + 1 < bytes.count, bytes[index + 1] == 10 { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        return starts
    }

    /// The end of line `line`'s text (before its terminator).
    private func lineContentEnd(_ line: Int) -> Int {
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        if end > lineStarts[line], end <= bytes.count, bytes[end - 1] == 10 { end -= 1 }
        if end > lineStarts[line], end <= bytes.count, bytes[end - 1] == 13 { end -= 1 }
        return end
    }

    /// The length in bytes of the UTF-8 sequence starting with `byte`, and its UTF-16 units
    /// (a byte that starts no valid sequence counts as one unit: the replacement character).
    private static func sequence(_ byte: UInt8) -> (bytes: Int, units: Int) {
        switch byte {
        case 0..<0x80: (1, 1)
        case 0xC0..<0xE0: (2, 1)
        case 0xE0..<0xF0: (3, 1)
        case 0xF0..<0xF8: (4, 2)
        default: (1, 1)
        }
    }

    /// The LSP position of a byte offset (clamped to the text).
    func position(ofOffset offset: Int) -> LSPPosition {
        let offset = min(max(0, offset), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        // An offset inside a line break (between `\r` and `\n`) is the end of the line's text.
        let end = min(offset, lineContentEnd(low))
        var index = lineStarts[low]
        var units = 0
        while index < end {
            let (length, count) = Self.sequence(bytes[index])
            index += length
            units += count
        }
        return LSPPosition(line: low, character: units)
    }

    /// The byte offset of an LSP position: past the last line means the end of the text; a
    /// character past the end of its line means the line's end (as the protocol says).
    func offset(of position: LSPPosition) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let end = lineContentEnd(position.line)
        var index = lineStarts[position.line]
        var units = 0
        while index < end, units < position.character {
            let (length, count) = Self.sequence(bytes[index])
            if index + length > end { break }
            index += length
            units += count
        }
        return min(index, end)
    }

    /// The position just past the last byte.
    var endPosition: LSPPosition { position(ofOffset: bytes.count) }

    /// Replaces the bytes between two positions with `text` (an incremental change); nil
    /// positions replace everything (a full change).
    mutating func replace(from start: LSPPosition?, to end: LSPPosition?, with text: String) {
        guard let start, let end else {
            self = TextDocument(text: text)
            return
        }
        var lower = offset(of: start)
        var upper = offset(of: end)
        if upper < lower { swap(&lower, &upper) }
        bytes.replaceSubrange(lower..<upper, with: Array(text.utf8))
        lineStarts = Self.lineStarts(of: bytes)
    }

    /// An LSP range (JSON) of a byte span.
    func range(_ start: Int, _ end: Int) -> JSON {
        ["start": position(ofOffset: start).json, "end": position(ofOffset: max(start, end)).json]
    }

    func range(of range: SourceRange) -> JSON {
        self.range(range.start.offset, range.end.offset)
    }
}
