/// Turns the raw bytes of a `.model` file into tokens and comments (docs/Language.md, "Lexical").
///
/// The lexer never fails: unreadable text (invalid UTF-8, stray characters, unterminated strings
/// or comments) becomes a `syntax` diagnostic and lexing goes on after it. Tokens are produced on
/// demand (`nextToken()`), so memory does not grow with the number of tokens, and every step is a
/// loop over the bytes: input of any size or nesting is handled in linear time.
final class Lexer {
    /// The tokens (ending with `.endOfFile`), every comment, and the diagnostics found.
    public struct Result: Sendable {
        public var tokens: [Token]
        public var comments: [Comment]
        public var diagnostics: [Diagnostic]
    }

    private let source: SourceFile
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineStart = 0
    /// The token lexed by the last `step()` and not yet handed out (each step makes at most one).
    private var pending: Token?
    private var lastKind: TokenKind?
    /// Every comment seen so far, in source order.
    public private(set) var comments: [Comment] = []
    private var collector: DiagnosticCollector
    /// True until the first token of the current line has been produced.
    private var atLineStart = true
    /// The `///` lines seen since the last token, waiting to be attached to the next one.
    private var pendingDoc: [(text: String, range: SourceRange)] = []
    /// The line of the last `///` line of `pendingDoc`.
    private var pendingDocLastLine = 0

    /// A lexer over `source` that reports at most `diagnosticLimit` errors (then stops at a final one).
    public init(source: SourceFile, diagnosticLimit: Int = 100) {
        self.source = source
        self.bytes = source.bytes
        self.collector = DiagnosticCollector(limit: diagnosticLimit)
        // A UTF-8 byte order mark is skipped; columns of the first line count from after it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            offset = 3
            lineStart = 3
        }
    }

    /// The diagnostics found so far.
    public var diagnostics: [Diagnostic] { collector.diagnostics }

    /// Lexes the whole file at once (for tests and tools; the parser pulls tokens one by one).
    public static func tokenize(_ source: SourceFile, diagnosticLimit: Int = 100) -> Result {
        let lexer = Lexer(source: source, diagnosticLimit: diagnosticLimit)
        var tokens: [Token] = []
        while true {
            let token = lexer.nextToken()
            tokens.append(token)
            if token.kind == .endOfFile { break }
        }
        return Result(tokens: tokens, comments: lexer.comments, diagnostics: lexer.diagnostics)
    }

    /// The next token; `.endOfFile` at the end (and on every call after it).
    public func nextToken() -> Token {
        while pending == nil { step() }
        if pending?.kind == .endOfFile { return pending! }
        defer { pending = nil }
        return pending.unsafelyUnwrapped
    }

    // MARK: - Positions

    private var location: SourceLocation {
        SourceLocation(line: line, column: offset - lineStart + 1, offset: offset)
    }

    private func range(from start: SourceLocation) -> SourceRange {
        SourceRange(file: source.path, start: start, end: location)
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        let index = offset + ahead
        return index < bytes.count ? bytes[index] : nil
    }

    // MARK: - Main loop

    /// Lexes one element (a token, comment or run of whitespace); at the end, queues `.endOfFile`.
    private func step() {
        if offset < bytes.count, !collector.isFull {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                offset += 1
            case UInt8(ascii: "\r"):
                offset += 1
            case UInt8(ascii: "\n"):
                lexNewline()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                lexLineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                lexBlockComment()
            case UInt8(ascii: "\""):
                lexString()
            case UInt8(ascii: "`"):
                lexEscapedIdentifier()
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                lexNumber()
            case UInt8(ascii: "-") where peek(1).map(Lexer.isDigit) ?? false:
                lexNumber()
            case UInt8(ascii: "-") where peek(1) == UInt8(ascii: ">"):
                // `->`, between the two versions of a `migration` declaration.
                let start = location
                offset += 2
                append(.punctuation, "->", range(from: start))
            case _ where Lexer.punctuation.contains(byte):
                let start = location
                offset += 1
                append(.punctuation, String(UnicodeScalar(byte)), range(from: start))
            case _ where Lexer.isIdentifierStartASCII(byte) || byte >= 0x80:
                lexIdentifierOrInvalid()
            default:
                lexInvalidRun()
            }
            return
        }
        flushDocIfDetached(beforeLine: line + 2)
        let end = location
        pending = Token(kind: .endOfFile, text: "", range: SourceRange(file: source.path, start: end, end: end), isAtLineStart: atLineStart)
    }

    private func append(_ kind: TokenKind, _ text: String, _ range: SourceRange, isEscaped: Bool = false) {
        var doc: DocComment?
        if !pendingDoc.isEmpty, pendingDocLastLine + 1 >= range.start.line {
            let first = pendingDoc[0].range
            let last = pendingDoc[pendingDoc.count - 1].range
            doc = DocComment(lines: pendingDoc.map(\.text), range: first.union(last))
        }
        pendingDoc.removeAll()
        pending = Token(kind: kind, text: text, range: range, isEscaped: isEscaped, isAtLineStart: atLineStart, doc: doc)
        lastKind = kind
        atLineStart = false
    }

    /// Drops waiting doc lines that cannot attach to a token starting at `beforeLine` (a blank line between).
    private func flushDocIfDetached(beforeLine: Int) {
        if !pendingDoc.isEmpty, pendingDocLastLine + 1 < beforeLine { pendingDoc.removeAll() }
    }

    private func lexNewline() {
        let start = location
        offset += 1
        line += 1
        lineStart = offset
        atLineStart = true
        // Consecutive line breaks make one token (its range is the first one).
        if lastKind != .newline {
            pending = Token(kind: .newline, text: "\n", range: range(from: start))
            lastKind = .newline
        }
    }

    // MARK: - Comments

    private func lexLineComment() {
        let start = location
        let textStart = offset
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") {
            skipCommentCharacter()
        }
        var textEnd = offset
        if textEnd > textStart, bytes[textEnd - 1] == UInt8(ascii: "\r") { textEnd -= 1 }
        let text = String(decoding: bytes[textStart..<textEnd], as: UTF8.self)
        let isDoc = text.hasPrefix("///") && !text.hasPrefix("////")
        let commentRange = SourceRange(file: source.path, start: start, end: SourceLocation(line: line, column: textEnd - lineStart + 1, offset: textEnd))
        comments.append(Comment(kind: isDoc ? .doc : .line, text: text, range: commentRange))
        guard isDoc, atLineStart else { return }
        flushDocIfDetached(beforeLine: line)
        var body = Substring(text.dropFirst(3))
        if body.first == " " { body = body.dropFirst() }
        pendingDoc.append((String(body), commentRange))
        pendingDocLastLine = line
    }

    private func lexBlockComment() {
        let start = location
        let startOffset = offset
        var depth = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                offset += 2
            } else if byte == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                offset += 2
                if depth == 0 { break }
            } else if byte == UInt8(ascii: "\n") {
                offset += 1
                line += 1
                lineStart = offset
            } else {
                skipCommentCharacter()
            }
        }
        let text = String(decoding: bytes[startOffset..<offset], as: UTF8.self)
        comments.append(Comment(kind: .block, text: text, range: range(from: start)))
        if depth > 0 {
            collector.error("unterminated comment: expected '*/' to close this '/*'",
                            at: SourceRange(file: source.path, start: start, end: SourceLocation(line: start.line, column: start.column + 2, offset: start.offset + 2)))
        }
    }

    /// Skips one character of a comment, reporting invalid UTF-8.
    private func skipCommentCharacter() {
        if bytes[offset] < 0x80 {
            offset += 1
        } else if let (_, length) = decodeScalar(at: offset) {
            offset += length
        } else {
            reportInvalidUTF8()
        }
    }

    // MARK: - Strings

    private func lexString() {
        let start = location
        offset += 1
        var value = String.UnicodeScalarView()
        var terminated = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                terminated = true
                break
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if byte == UInt8(ascii: "\\") {
                lexEscape(into: &value)
                continue
            }
            if byte < 0x80 {
                value.append(UnicodeScalar(byte))
                offset += 1
            } else if let (scalar, length) = decodeScalar(at: offset) {
                value.append(scalar)
                offset += length
            } else {
                reportInvalidUTF8()
            }
        }
        if !terminated {
            collector.error("unterminated string literal: expected '\"' before the end of the line",
                            at: SourceRange(file: source.path, start: start, end: SourceLocation(line: start.line, column: start.column + 1, offset: start.offset + 1)))
        }
        append(.stringLiteral, String(value), range(from: start))
    }

    private func lexEscape(into value: inout String.UnicodeScalarView) {
        let start = location
        offset += 1
        guard let next = peek() else { return }
        switch next {
        case UInt8(ascii: "\""): value.append("\""); offset += 1
        case UInt8(ascii: "\\"): value.append("\\"); offset += 1
        case UInt8(ascii: "n"): value.append("\n"); offset += 1
        case UInt8(ascii: "t"): value.append("\t"); offset += 1
        case UInt8(ascii: "r"): value.append("\r"); offset += 1
        case UInt8(ascii: "0"): value.append("\0"); offset += 1
        case UInt8(ascii: "u"):
            offset += 1
            guard peek() == UInt8(ascii: "{") else {
                collector.error("expected '{' after '\\u' in a string literal", at: range(from: start))
                return
            }
            offset += 1
            var scalarValue: UInt32 = 0
            var digits = 0
            while let byte = peek(), let digit = Lexer.hexValue(byte) {
                if digits < 8 { scalarValue = scalarValue &* 16 &+ UInt32(digit) }
                digits += 1
                offset += 1
            }
            guard peek() == UInt8(ascii: "}") else {
                collector.error("expected hexadecimal digits and '}' in '\\u{…}' escape", at: range(from: start))
                return
            }
            offset += 1
            if digits >= 1, digits <= 8, let scalar = UnicodeScalar(scalarValue) {
                value.append(scalar)
            } else {
                collector.error("invalid Unicode scalar in '\\u{…}' escape", at: range(from: start))
            }
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            collector.error("invalid escape sequence '\\' at the end of the line", at: range(from: start))
        default:
            let length = next < 0x80 ? 1 : (decodeScalar(at: offset)?.1 ?? 1)
            offset += length
            let escaped = String(decoding: bytes[(offset - length)..<offset], as: UTF8.self)
            collector.error("invalid escape sequence '\\\(escaped)' in a string literal (expected \\\", \\\\, \\n, \\t or \\u{…})", at: range(from: start))
        }
    }

    // MARK: - Names

    private func lexIdentifierOrInvalid() {
        let start = location
        guard let (first, firstLength) = identifierStart(at: offset) else {
            if bytes[offset] >= 0x80, decodeScalar(at: offset) == nil {
                reportInvalidUTF8()
                append(.invalid, "", range(from: start))
            } else {
                lexInvalidRun()
            }
            return
        }
        var name = String.UnicodeScalarView()
        name.append(first)
        offset += firstLength
        while offset < bytes.count, let (scalar, length) = identifierContinue(at: offset) {
            name.append(scalar)
            offset += length
        }
        let text = String(name)
        let kind: TokenKind
        switch text {
        case "true", "false": kind = .boolLiteral
        case "nil": kind = .nilLiteral
        case _ where Token.keywords.contains(text): kind = .keyword
        default: kind = .identifier
        }
        append(kind, text, range(from: start))
    }

    private func lexEscapedIdentifier() {
        let start = location
        offset += 1
        var name = String.UnicodeScalarView()
        if offset < bytes.count, let (first, length) = identifierStart(at: offset) {
            name.append(first)
            offset += length
            while offset < bytes.count, let (scalar, length) = identifierContinue(at: offset) {
                name.append(scalar)
                offset += length
            }
        }
        guard !name.isEmpty, peek() == UInt8(ascii: "`") else {
            collector.error("expected a name and a closing '`' after '`'", at: range(from: start))
            append(.invalid, "", range(from: start))
            return
        }
        offset += 1
        append(.identifier, String(name), range(from: start), isEscaped: true)
    }

    private func identifierStart(at index: Int) -> (UnicodeScalar, Int)? {
        let byte = bytes[index]
        if byte < 0x80 {
            return Lexer.isIdentifierStartASCII(byte) ? (UnicodeScalar(byte), 1) : nil
        }
        guard let (scalar, length) = decodeScalar(at: index), scalar.properties.isAlphabetic else { return nil }
        return (scalar, length)
    }

    private func identifierContinue(at index: Int) -> (UnicodeScalar, Int)? {
        let byte = bytes[index]
        if byte < 0x80 {
            return Lexer.isIdentifierStartASCII(byte) || Lexer.isDigit(byte) ? (UnicodeScalar(byte), 1) : nil
        }
        guard let (scalar, length) = decodeScalar(at: index),
              scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .spacingMark
        else { return nil }
        return (scalar, length)
    }

    // MARK: - Numbers

    private func lexNumber() {
        let start = location
        var text = ""
        if bytes[offset] == UInt8(ascii: "-") {
            text.append("-")
            offset += 1
        }
        var isFloat = false
        consumeDigits(into: &text)
        if peek() == UInt8(ascii: "."), let after = peek(1), Lexer.isDigit(after) {
            isFloat = true
            text.append(".")
            offset += 1
            consumeDigits(into: &text)
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            var ahead = 1
            if let sign = peek(1), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { ahead = 2 }
            if let digit = peek(ahead), Lexer.isDigit(digit) {
                isFloat = true
                for _ in 0..<ahead {
                    text.append(Character(UnicodeScalar(bytes[offset])))
                    offset += 1
                }
                consumeDigits(into: &text)
            }
        }
        // A number glued to letters (`12abc`) is one bad token, not two good ones.
        if offset < bytes.count, identifierContinue(at: offset) != nil {
            while offset < bytes.count, identifierContinue(at: offset) != nil { offset += 1 }
            collector.error("invalid number literal '\(String(decoding: bytes[start.offset..<offset], as: UTF8.self))'", at: range(from: start))
            append(.invalid, "", range(from: start))
            return
        }
        append(isFloat ? .floatLiteral : .integerLiteral, text, range(from: start))
    }

    private func consumeDigits(into text: inout String) {
        while let byte = peek(), Lexer.isDigit(byte) || byte == UInt8(ascii: "_") {
            if byte != UInt8(ascii: "_") { text.append(Character(UnicodeScalar(byte))) }
            offset += 1
        }
    }

    // MARK: - Invalid input

    /// Skips a run of characters the language has no use for and reports them once.
    private func lexInvalidRun() {
        let start = location
        let first: String
        if bytes[offset] < 0x80 {
            first = String(UnicodeScalar(bytes[offset]))
            offset += 1
        } else if let (scalar, length) = decodeScalar(at: offset) {
            first = String(scalar)
            offset += length
        } else {
            reportInvalidUTF8()
            append(.invalid, "", range(from: start))
            return
        }
        // The run goes on across spaces and tabs while more stray characters follow on the line.
        var runEnd = offset
        var probe = offset
        while probe < bytes.count {
            if isStrayCharacter(at: probe) {
                probe += bytes[probe] < 0x80 ? 1 : (decodeScalar(at: probe)?.1 ?? 1)
                runEnd = probe
            } else if bytes[probe] == UInt8(ascii: " ") || bytes[probe] == UInt8(ascii: "\t") {
                probe += 1
            } else {
                break
            }
        }
        offset = runEnd
        let shown = first.unicodeScalars.first.map { $0.value < 0x20 || $0.value == 0x7F ? "U+" + String($0.value, radix: 16, uppercase: true) : first } ?? first
        collector.error("unexpected character '\(shown)'", at: range(from: start))
        append(.invalid, "", range(from: start))
    }

    /// True for a valid character that starts no token (so it extends an invalid run).
    private func isStrayCharacter(at index: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x80 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x0B, 0x0C,
                 UInt8(ascii: "/"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "-"):
                return false
            default:
                return !(Lexer.isIdentifierStartASCII(byte) || Lexer.isDigit(byte) || Lexer.punctuation.contains(byte))
            }
        }
        guard decodeScalar(at: index) != nil else { return false }
        return identifierStart(at: index) == nil
    }

    /// Reports the invalid UTF-8 byte at `offset` and skips it (and any invalid bytes right after).
    private func reportInvalidUTF8() {
        let start = location
        let byte = bytes[offset]
        offset += 1
        while offset < bytes.count, bytes[offset] >= 0x80, decodeScalar(at: offset) == nil { offset += 1 }
        collector.error("invalid UTF-8 byte 0x\(String(byte, radix: 16, uppercase: true))", at: range(from: start))
    }

    /// Decodes the UTF-8 scalar starting at `index`, or nil when the bytes there are not valid UTF-8.
    private func decodeScalar(at index: Int) -> (UnicodeScalar, Int)? {
        UTF8Scalar.decode(bytes, at: index)
    }

    // MARK: - Character classes

    private static let punctuation: Set<UInt8> = Set("{}()[]:,.=?@#\\;<>".utf8)

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isIdentifierStartASCII(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
