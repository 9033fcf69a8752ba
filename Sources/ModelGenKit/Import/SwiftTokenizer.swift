// The tokens of Swift source that `modelgen import` reads (docs/CommandLine.md "modelgen import"):
// enough of Swift's lexical grammar to find declarations and skip the bodies it does not need.

/// One token of Swift source.
struct SwiftToken {
    enum Kind: Equatable {
        /// A name or keyword (`class`, `Trip`), or a name in backticks (text without them).
        case identifier
        case number
        /// A string literal; `text` is its source spelling, quotes included.
        case string
        /// One punctuation character, or `->`.
        case punctuation
        case end
    }

    var kind: Kind
    var text: String
    var line: Int
    /// The column in UTF-8 bytes, from 1.
    var column: Int
    /// Whether a line break (or the start of the file) comes between this token and the one before.
    var startsLine: Bool
    /// Whether whitespace or a comment comes right before it.
    var spaceBefore: Bool
    /// The `///` (or `/** */`) lines right before it, without the markers.
    var doc: [String]
    var isBackticked = false
    /// Whether an empty line (no token, no comment) comes between this token and the one before.
    var blankLineBefore = false

    func `is`(_ punctuation: String) -> Bool { kind == .punctuation && text == punctuation }
    func isWord(_ word: String) -> Bool { kind == .identifier && !isBackticked && text == word }
}

/// A problem with the Swift source, at a place in it.
struct SwiftReadError: Error {
    var line: Int
    var column: Int
    var message: String
}

/// Splits Swift source into tokens, dropping whitespace and comments (doc comments are attached to
/// the token after them).
enum SwiftTokenizer {
    static func tokenize(_ bytes: [UInt8]) throws(SwiftReadError) -> [SwiftToken] {
        var tokens: [SwiftToken] = []
        var index = 0
        var line = 1
        var lineStart = 0
        var startsLine = true
        var spaceBefore = true
        var doc: [String] = []
        var blankLinesSinceDoc = 0
        var lineHasContent = false
        var blankLineSinceToken = false

        func column(_ offset: Int) -> Int { offset - lineStart + 1 }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func isIdentifierStart(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80 || byte == 0x24
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                index += 1
                spaceBefore = true
                continue
            case UInt8(ascii: "\n"):
                if !lineHasContent {
                    blankLinesSinceDoc += 1
                    if !tokens.isEmpty { blankLineSinceToken = true }
                }
                lineHasContent = false
                index += 1
                line += 1
                lineStart = index
                startsLine = true
                spaceBefore = true
                continue
            default:
                break
            }
            lineHasContent = true
            // Comments.
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let comment = text(index..<end)
                if comment.hasPrefix("///"), !comment.hasPrefix("////") {
                    if blankLinesSinceDoc > 0 || !startsLine { doc = [] }
                    var body = Substring(comment.dropFirst(3))
                    if body.hasPrefix(" ") { body = body.dropFirst() }
                    while body.hasSuffix("\r") { body = body.dropLast() }
                    doc.append(String(body))
                    blankLinesSinceDoc = 0
                }
                index = end
                spaceBefore = true
                continue
            }
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let (startLine, startColumn) = (line, column(index))
                let isDoc = index + 2 < bytes.count && bytes[index + 2] == UInt8(ascii: "*")
                    && !(index + 3 < bytes.count && bytes[index + 3] == UInt8(ascii: "/"))
                var depth = 0
                var end = index
                repeat {
                    guard end + 1 < bytes.count else {
                        throw SwiftReadError(line: startLine, column: startColumn, message: "unterminated comment '/*'")
                    }
                    if bytes[end] == UInt8(ascii: "/"), bytes[end + 1] == UInt8(ascii: "*") {
                        depth += 1
                        end += 2
                    } else if bytes[end] == UInt8(ascii: "*"), bytes[end + 1] == UInt8(ascii: "/") {
                        depth -= 1
                        end += 2
                    } else {
                        if bytes[end] == UInt8(ascii: "\n") {
                            line += 1
                            lineStart = end + 1
                        }
                        end += 1
                    }
                } while depth > 0
                if isDoc {
                    doc = text(index + 3..<end - 2).split(separator: "\n", omittingEmptySubsequences: false).map { raw in
                        var body = raw.drop { $0 == " " || $0 == "\t" }
                        if body.hasPrefix("*") { body = body.dropFirst() }
                        if body.hasPrefix(" ") { body = body.dropFirst() }
                        return String(body.reversed().drop { $0 == " " || $0 == "\r" }.reversed())
                    }
                    while doc.first?.isEmpty == true { doc.removeFirst() }
                    while doc.last?.isEmpty == true { doc.removeLast() }
                    blankLinesSinceDoc = 0
                }
                index = end
                spaceBefore = true
                continue
            }

            let start = index
            var token = SwiftToken(
                kind: .punctuation, text: "", line: line, column: column(start), startsLine: startsLine, spaceBefore: spaceBefore,
                doc: blankLinesSinceDoc == 0 ? doc : [])
            token.blankLineBefore = blankLineSinceToken
            if byte == UInt8(ascii: "`") {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                guard end < bytes.count, bytes[end] == UInt8(ascii: "`"), end > index + 1 else {
                    throw SwiftReadError(line: line, column: column(start), message: "unterminated name in backticks")
                }
                token.kind = .identifier
                token.text = text(index + 1..<end)
                token.isBackticked = true
                index = end + 1
            } else if isIdentifierStart(byte) {
                var end = index + 1
                while end < bytes.count, isIdentifierStart(bytes[end]) || isDigit(bytes[end]) { end += 1 }
                token.kind = .identifier
                token.text = text(index..<end)
                index = end
            } else if isDigit(byte) {
                var end = index + 1
                while end < bytes.count {
                    let next = bytes[end]
                    if isDigit(next) || isIdentifierStart(next) && next != 0x24 {
                        // Exponents with a sign: 1e-3.
                        if (next == UInt8(ascii: "e") || next == UInt8(ascii: "E") || next == UInt8(ascii: "p") || next == UInt8(ascii: "P")),
                            end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "-") || bytes[end + 1] == UInt8(ascii: "+")
                        {
                            end += 2
                            continue
                        }
                        end += 1
                    } else if next == UInt8(ascii: "."), end + 1 < bytes.count, isDigit(bytes[end + 1]) {
                        end += 2
                    } else {
                        break
                    }
                }
                token.kind = .number
                token.text = text(index..<end)
                index = end
            } else if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && rawStringStarts(bytes, at: index)) {
                guard let stringEnd = endOfString(bytes, at: index, depth: 0, line: &line, lineStart: &lineStart) else {
                    throw SwiftReadError(line: token.line, column: token.column, message: "unterminated string literal")
                }
                token.kind = .string
                token.text = text(index..<stringEnd)
                index = stringEnd
            } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") {
                token.text = "->"
                index += 2
            } else if byte < 0x80, "{}()[]<>,:;.@#\\?!=-+*/%&|^~'".utf8.contains(byte) {
                token.text = String(UnicodeScalar(byte))
                index += 1
            } else {
                throw SwiftReadError(line: line, column: column(start), message: "unexpected character '\(String(UnicodeScalar(byte)))'")
            }
            tokens.append(token)
            doc = []
            blankLinesSinceDoc = 0
            blankLineSinceToken = false
            startsLine = false
            spaceBefore = false
        }
        tokens.append(SwiftToken(kind: .end, text: "", line: line, column: column(index), startsLine: true, spaceBefore: true, doc: []))
        return tokens
    }

    /// The offset just after the string literal that starts at `start` (`"…"`, `"""…"""`, `#"…"#`),
    /// interpolations (`\(…)`, with strings of their own) included; nil when it does not end.
    private static func endOfString(_ bytes: [UInt8], at start: Int, depth: Int, line: inout Int, lineStart: inout Int) -> Int? {
        guard depth < 16 else { return nil }
        var hashes = 0
        var cursor = start
        while bytes[cursor] == UInt8(ascii: "#") {
            hashes += 1
            cursor += 1
        }
        let multiline = cursor + 2 < bytes.count && bytes[cursor + 1] == UInt8(ascii: "\"") && bytes[cursor + 2] == UInt8(ascii: "\"")
        let quotes = multiline ? 3 : 1
        cursor += quotes
        let closing = Array(repeating: UInt8(ascii: "\""), count: quotes) + Array(repeating: UInt8(ascii: "#"), count: hashes)
        let escape = [UInt8(ascii: "\\")] + Array(repeating: UInt8(ascii: "#"), count: hashes)
        while cursor < bytes.count {
            if bytes[cursor...].starts(with: escape) {
                cursor += escape.count
                guard cursor < bytes.count else { return nil }
                guard bytes[cursor] == UInt8(ascii: "(") else {
                    if bytes[cursor] == UInt8(ascii: "\n") {
                        line += 1
                        lineStart = cursor + 1
                    }
                    cursor += 1
                    continue
                }
                // An interpolation: up to its ')', skipping the strings inside.
                var parentheses = 0
                while cursor < bytes.count {
                    let byte = bytes[cursor]
                    if byte == UInt8(ascii: "(") {
                        parentheses += 1
                    } else if byte == UInt8(ascii: ")") {
                        parentheses -= 1
                        if parentheses == 0 { break }
                    } else if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && rawStringStarts(bytes, at: cursor)) {
                        guard let end = endOfString(bytes, at: cursor, depth: depth + 1, line: &line, lineStart: &lineStart) else { return nil }
                        cursor = end
                        continue
                    } else if byte == UInt8(ascii: "\n") {
                        guard multiline else { return nil }
                        line += 1
                        lineStart = cursor + 1
                    }
                    cursor += 1
                }
                cursor += 1
                continue
            }
            if bytes[cursor] == UInt8(ascii: "\n") {
                guard multiline else { return nil }
                line += 1
                lineStart = cursor + 1
            }
            if bytes[cursor...].starts(with: closing) { return cursor + closing.count }
            cursor += 1
        }
        return nil
    }

    /// `#"…"#`: one or more `#` then a quote.
    private static func rawStringStarts(_ bytes: [UInt8], at index: Int) -> Bool {
        var cursor = index
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "#") { cursor += 1 }
        return cursor < bytes.count && bytes[cursor] == UInt8(ascii: "\"")
    }
}
