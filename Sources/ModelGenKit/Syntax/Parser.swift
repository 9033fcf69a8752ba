/// Parses one `.model` file into its syntax tree (docs/Language.md), reporting `syntax` errors.
///
/// Recursive descent for declarations, but no recursion follows the input's nesting: types nest at
/// most `maximumTypeDepth` levels, default arrays hold literals only, and skipping during error
/// recovery is a loop with counters. After an error the parser resynchronises at the next member
/// line of the enclosing body (or the next declaration), so one run reports every independent error.
final class Parser {
    /// How deeply type expressions may nest (`[[[String]?]]` is 4).
    public static let maximumTypeDepth = 16

    /// Thrown after a diagnostic has been recorded; the caller recovers.
    struct Failure: Error {}

    let source: SourceFile
    var lexer: Lexer
    /// The token being looked at, and the one after it.
    var current: Token
    private var next: Token
    /// The end of the last consumed token (the start of the file before any).
    var previousEnd = SourceLocation(line: 1, column: 1, offset: 0)
    var collector: DiagnosticCollector
    /// Open `{` seen by `advance()` and not yet closed.
    var braceDepth = 0
    /// Open `(` and `[` seen by `advance()` and not yet closed.
    var groupDepth = 0
    /// True while reading the parenthesised arguments of an attribute or macro, which may span
    /// lines: recovery from an error there skips to the closing parenthesis, across line breaks.
    var inMultilineArguments = false
    /// Every distinct type name read so far, as the one list the syntax tree shares for it.
    var typeNames: [[TypeNamePart]: [TypeNamePart]] = [:]

    init(source: SourceFile) {
        self.source = source
        let lexer = Lexer(source: source, diagnosticLimit: DiagnosticCollector.defaultLimit)
        self.current = lexer.nextToken()
        self.next = lexer.nextToken()
        self.lexer = lexer
        self.collector = DiagnosticCollector(limit: DiagnosticCollector.defaultLimit)
    }

    /// Lexes and parses `source`. The file always comes back, holding every declaration that could be read.
    /// Diagnostics are sorted by position; past `DiagnosticCollector.defaultLimit` one "too many errors" ends them.
    public static func parse(_ source: SourceFile) -> (file: ModelFile, diagnostics: [Diagnostic]) {
        let parser = Parser(source: source)
        let declarations = parser.parseFile()
        let found = (parser.lexer.diagnostics + parser.collector.diagnostics).enumerated().sorted {
            ($0.element.range.start.offset, $0.offset) < ($1.element.range.start.offset, $1.offset)
        }.map(\.element)
        var merged = DiagnosticCollector(limit: DiagnosticCollector.defaultLimit)
        for diagnostic in found where !diagnostic.message.hasPrefix(DiagnosticCollector.tooManyMessage) {
            merged.error(diagnostic.message, at: diagnostic.range, notes: diagnostic.notes)
        }
        if found.contains(where: { $0.message.hasPrefix(DiagnosticCollector.tooManyMessage) }), !merged.isFull,
           let last = found.last {
            merged.error(DiagnosticCollector.tooManyMessage, at: last.range, force: true)
        }
        return (ModelFile(source: source, declarations: declarations, comments: parser.lexer.comments), merged.diagnostics)
    }

    // MARK: - Tokens

    /// The token after the current one.
    func peek() -> Token { next }

    /// Consumes the current token (never moves past the end of file) and tracks bracket depth.
    @discardableResult
    func advance() -> Token {
        let token = current
        if token.kind == .punctuation {
            switch token.text {
            case "{": braceDepth += 1
            case "}": braceDepth = max(0, braceDepth - 1)
            case "(", "[": groupDepth += 1
            case ")", "]": groupDepth = max(0, groupDepth - 1)
            default: break
            }
        }
        if token.kind != .endOfFile {
            previousEnd = token.range.end
            current = next
            next = lexer.nextToken()
        }
        return token
    }

    var isAtEnd: Bool { current.kind == .endOfFile }

    /// True at a newline, `;`, `}` or the end of file: where a member may end.
    var isAtMemberEnd: Bool {
        switch current.kind {
        case .newline, .endOfFile: true
        case .punctuation: current.text == ";" || current.text == "}"
        default: false
        }
    }

    func skipNewlines() {
        while current.kind == .newline { advance() }
    }

    /// After a list element a line break is allowed only right before the closing `closer`
    /// (a list goes on to the next line after `,`): `(a,\n b\n)`. Anything else ends the line,
    /// and the error is reported there rather than on the next member.
    func skipLineBreak(before closer: String) {
        if current.kind == .newline, peek().isPunctuation(closer) { advance() }
    }

    func skipSeparators() {
        while current.kind == .newline || current.isPunctuation(";") { advance() }
    }

    /// Consumes `character` or reports "expected `what`" and throws.
    @discardableResult
    func expect(_ character: String, _ what: String) throws -> Token {
        guard current.isPunctuation(character) else { throw fail(expected: what) }
        return advance()
    }

    /// Reports "expected `what` but found …" at the current token and returns the error to throw.
    /// Nothing new is reported at an invalid token: the lexer has already described it.
    func fail(expected what: String) -> Failure {
        // An error at a line break ends the member there, even inside a multi-line argument list.
        if current.kind == .newline { inMultilineArguments = false }
        if current.kind != .invalid {
            collector.error("expected \(what) but found \(current.displayName)", at: current.range)
        }
        return Failure()
    }

    /// Reads a name (an identifier, or any word in backticks) or reports "expected `what`".
    func expectName(_ what: String) throws -> Identifier {
        guard current.kind == .identifier else { throw fail(expected: what) }
        let token = advance()
        return Identifier(token.text, range: token.range, isEscaped: token.isEscaped)
    }

    func range(from start: SourceLocation) -> SourceRange {
        SourceRange(file: source.path, start: start, end: max(start, previousEnd))
    }

    /// True at `entity Name`, `container Name` or `@Entity` at the start of a line: a new top-level
    /// declaration, whatever the nesting.
    var isAtTopLevelKeyword: Bool {
        guard current.isAtLineStart else { return false }
        if current.isPunctuation("@") {
            return peek().kind == .identifier && (peek().text == "Entity" || peek().text == "ModelActor") && !peek().isEscaped
        }
        if isAtMigrationKeyword { return true }
        return (current.isKeyword("entity") || current.isKeyword("container")) && peek().kind == .identifier
    }

    /// True at `migration "…"`: `migration` is a keyword only there (a property may still be named `migration`).
    var isAtMigrationKeyword: Bool {
        current.kind == .identifier && !current.isEscaped && current.text == "migration" && peek().kind == .stringLiteral
    }

    /// True at `struct Name`: `struct` is a keyword only there (a property may still be named `struct`).
    var isAtStructKeyword: Bool {
        current.kind == .identifier && !current.isEscaped && current.text == "struct" && peek().kind == .identifier
    }

    // MARK: - Recovery

    /// Skips to the end of the current member: a newline or `;` outside any brackets opened since
    /// `braceBase`/`groupBase`, a `}` that closes the enclosing body, a new top-level declaration, or the end.
    func recoverToMemberEnd(braceBase: Int, groupBase: Int) {
        while !isAtEnd, !collector.isFull {
            if isAtTopLevelKeyword { break }
            if current.isPunctuation("}"), braceDepth <= braceBase { break }
            if current.kind == .newline || current.isPunctuation(";"), braceDepth <= braceBase,
               groupDepth <= groupBase || !inMultilineArguments {
                // A list left open whose closer starts the next line: that line belongs to this member.
                let closerFollows = peek().isPunctuation(")") || peek().isPunctuation("]")
                if !(current.kind == .newline && groupDepth > groupBase && closerFollows) { break }
            }
            advance()
        }
        braceDepth = braceBase
        groupDepth = groupBase
        inMultilineArguments = false
    }

    /// Skips to the next top-level declaration keyword.
    func recoverToDeclaration() {
        while !isAtEnd, !collector.isFull {
            if isAtTopLevelKeyword { break }
            if current.isKeyword("enum") || isAtStructKeyword, current.isAtLineStart, braceDepth == 0 { break }
            advance()
        }
        braceDepth = 0
        groupDepth = 0
        inMultilineArguments = false
    }

    // MARK: - File

    func parseFile() -> [Declaration] {
        var declarations: [Declaration] = []
        while !collector.isFull {
            skipSeparators()
            if isAtEnd { break }
            braceDepth = 0
            groupDepth = 0
            do {
                declarations.append(try parseDeclaration())
            } catch {
                recoverToDeclaration()
            }
        }
        return declarations
    }

    func parseDeclaration() throws -> Declaration {
        let doc = current.doc
        if current.isKeyword("entity") { return .entity(try parseEntity(doc: doc)) }
        if current.isKeyword("enum") { return .enumeration(try parseEnum(doc: doc)) }
        if current.isKeyword("container") { return .container(try parseContainer(doc: doc)) }
        if isAtStructKeyword { return .structure(try parseStruct(doc: doc)) }
        if isAtMigrationKeyword { return .migration(try parseMigration(doc: doc)) }
        if current.isPunctuation("@"), peek().text == "Entity", !peek().isEscaped {
            return .entity(try parseAttributedEntity(doc: doc))
        }
        if current.isPunctuation("@"), peek().text == "ModelActor", !peek().isEscaped {
            return .modelActor(try parseModelActor(doc: doc))
        }
        if current.isPunctuation("@") || current.isKeyword("var") || current.isKeyword("init")
            || (current.kind == .identifier && peek().isPunctuation(":")) {
            collector.error("expected a declaration ('entity', 'enum', 'struct' or 'container') but found \(current.displayName); members belong inside an entity's braces", at: current.range)
            throw Failure()
        }
        throw fail(expected: "a declaration ('entity', 'enum', 'struct' or 'container')")
    }

    /// `@ModelActor actor Name`, optionally with an empty body `{ }` (the actor's methods are Swift,
    /// written in an extension of the generated actor).
    func parseModelActor(doc: DocComment?) throws -> ModelActorDecl {
        let start = current.range.start
        let attributes = try parseLeadingAttributes()
        guard current.kind == .identifier, current.text == "actor", !current.isEscaped else {
            throw fail(expected: "'actor' and a name after @ModelActor")
        }
        let keyword = advance()
        let name = try expectName("a name after 'actor'")
        if current.isPunctuation("{") {
            advance()
            skipSeparators()
            guard current.isPunctuation("}") else {
                throw fail(expected: "'}': a model actor's body is empty in the model (write its methods in a Swift extension of '\(name)')")
            }
            advance()
        }
        guard isAtMemberEnd else { throw fail(expected: "a new line after 'actor \(name)'") }
        return ModelActorDecl(doc: doc, attributes: attributes, name: name, keywordRange: keyword.range, range: range(from: start))
    }

    /// `@Entity(…)` (and any further attributes) before `entity`, on the lines before or on the same line.
    func parseAttributedEntity(doc: DocComment?) throws -> EntityDecl {
        let start = current.range.start
        let attributes = try parseLeadingAttributes()
        guard current.isKeyword("entity") else {
            let names = attributes.map { "@\($0.name)" }.joined(separator: " ")
            throw fail(expected: "'entity' after \(names) (at the top level, attributes apply to entities)")
        }
        return try parseEntity(doc: doc, attributes: attributes, start: start)
    }
}
