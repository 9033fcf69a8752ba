/// The kinds of token of the `.model` language (docs/Language.md, "Lexical").
enum TokenKind: Hashable, Sendable {
    /// A name; `Token.text` is the name without backticks.
    case identifier
    /// One of `entity enum case init container super var` (`Token.text` is the keyword).
    case keyword
    /// `true` or `false` (`Token.text` is the word).
    case boolLiteral
    /// `nil`.
    case nilLiteral
    /// A string literal; `Token.text` is its decoded value.
    case stringLiteral
    /// An integer literal; `Token.text` is the literal with `_` removed, sign included.
    case integerLiteral
    /// A floating-point literal; `Token.text` is the literal with `_` removed, sign included.
    case floatLiteral
    /// One punctuation character of `{ } ( ) [ ] : , . = ? @ # \ ; < >`, or the arrow `->` (`Token.text` is it).
    case punctuation
    /// One or more line breaks (with only whitespace and comments between them).
    case newline
    /// Bytes the lexer could not read (already diagnosed).
    case invalid
    /// The end of the file.
    case endOfFile
}

/// One token with its range and the doc comment written right before it.
///
/// Tokens are copied often while parsing, so the rare doc comment is kept behind a reference.
struct Token: Sendable {
    public var kind: TokenKind
    public var text: String
    public var range: SourceRange
    /// True for a name written in backticks.
    public var isEscaped: Bool
    /// True when only whitespace or comments precede the token on its line.
    public var isAtLineStart: Bool
    /// The run of `///` lines immediately before this token, if any.
    public var doc: DocComment? {
        get { docBox?.value }
        set { docBox = newValue.map(DocBox.init) }
    }

    private var docBox: DocBox?

    private final class DocBox: Sendable {
        let value: DocComment
        init(_ value: DocComment) { self.value = value }
    }

    public init(kind: TokenKind, text: String, range: SourceRange, isEscaped: Bool = false, isAtLineStart: Bool = false, doc: DocComment? = nil) {
        self.kind = kind
        self.text = text
        self.range = range
        self.isEscaped = isEscaped
        self.isAtLineStart = isAtLineStart
        self.docBox = doc.map(DocBox.init)
    }

    /// The keywords of the language (a backticked name is never a keyword).
    public static let keywords: Set<String> = ["entity", "enum", "case", "init", "container", "super", "var"]

    /// True for the punctuation token `character`.
    public func isPunctuation(_ character: String) -> Bool {
        kind == .punctuation && text == character
    }

    /// True for the keyword `word`.
    public func isKeyword(_ word: String) -> Bool {
        kind == .keyword && text == word
    }

    /// How the token is named in a diagnostic ("'{'", "end of line", "identifier 'name'").
    public var displayName: String {
        switch kind {
        case .identifier: "identifier '\(text)'"
        case .keyword: "keyword '\(text)'"
        case .boolLiteral, .nilLiteral: "'\(text)'"
        case .stringLiteral: "string literal"
        case .integerLiteral: "integer literal '\(text)'"
        case .floatLiteral: "floating-point literal '\(text)'"
        case .punctuation: "'\(text)'"
        case .newline: "end of line"
        case .invalid: "invalid text"
        case .endOfFile: "end of file"
        }
    }
}
