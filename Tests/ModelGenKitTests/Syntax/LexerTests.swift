import Testing
@testable import ModelGenKit

@Suite struct LexerTests {
    private func lex(_ text: String) -> Lexer.Result {
        Lexer.tokenize(SourceFile(path: "t.model", text: text))
    }

    private func kindsAndTexts(_ text: String) -> [String] {
        lex(text).tokens.map { token in
            switch token.kind {
            case .newline: "NL"
            case .endOfFile: "EOF"
            case .invalid: "INVALID"
            default: "\(token.kind):\(token.text)"
            }
        }
    }

    @Test func punctuationKeywordsAndNames() {
        #expect(kindsAndTexts("entity A: B { x: [Int]? = nil }") == [
            "keyword:entity", "identifier:A", "punctuation::", "identifier:B", "punctuation:{",
            "identifier:x", "punctuation::", "punctuation:[", "identifier:Int", "punctuation:]",
            "punctuation:?", "punctuation:=", "nilLiteral:nil", "punctuation:}", "EOF",
        ])
        #expect(kindsAndTexts("@ # \\ ; < > ( ) ,") == [
            "punctuation:@", "punctuation:#", "punctuation:\\", "punctuation:;", "punctuation:<",
            "punctuation:>", "punctuation:(", "punctuation:)", "punctuation:,", "EOF",
        ])
    }

    @Test func backtickedKeywordIsAnIdentifier() {
        let tokens = lex("`default` `case` case").tokens
        #expect(tokens[0].kind == .identifier && tokens[0].text == "default" && tokens[0].isEscaped)
        #expect(tokens[1].kind == .identifier && tokens[1].text == "case")
        #expect(tokens[2].kind == .keyword)
        #expect(tokens[0].range.start.column == 1 && tokens[0].range.end.column == 10)
    }

    @Test func unicodeIdentifiersCountColumnsInBytes() {
        let result = lex("été: Int")
        #expect(result.diagnostics.isEmpty)
        #expect(result.tokens[0].text == "été")
        // "été" is 5 UTF-8 bytes: the colon is at byte column 6.
        #expect(result.tokens[1].range.start.column == 6)
    }

    @Test func literals() {
        #expect(kindsAndTexts(#"1_000 -12 3.5 -0.25 1e3 2.5E-2 true false "a\"b\\c\n\t\u{E9}""#) == [
            "integerLiteral:1000", "integerLiteral:-12", "floatLiteral:3.5", "floatLiteral:-0.25",
            "floatLiteral:1e3", "floatLiteral:2.5E-2", "boolLiteral:true", "boolLiteral:false",
            "stringLiteral:a\"b\\c\n\té", "EOF",
        ])
    }

    @Test func commentsAreKeptAndSkipped() {
        let result = lex("a // line\n/* block /* nested */ still */ b\n/// doc\nc")
        #expect(result.diagnostics.isEmpty)
        #expect(result.tokens.filter { $0.kind == .identifier }.map(\.text) == ["a", "b", "c"])
        #expect(result.comments.map(\.kind) == [.line, .block, .doc])
        #expect(result.comments[1].text == "/* block /* nested */ still */")
        #expect(result.tokens.last { $0.kind == .identifier }?.doc?.lines == ["doc"])
    }

    @Test func docCommentRunAttachesOnlyWhenAdjacent() {
        let attached = lex("/// one\n///   two\nentity").tokens.first { $0.kind == .keyword }!
        #expect(attached.doc?.lines == ["one", "  two"])
        #expect(attached.doc?.range.start.line == 1 && attached.doc?.range.end.line == 2)
        let detached = lex("/// one\n\nentity").tokens.first { $0.kind == .keyword }
        #expect(detached?.doc == nil)
        let quadruple = lex("//// not doc\nentity").tokens.first { $0.kind == .keyword }
        #expect(quadruple?.doc == nil)
    }

    @Test func crlfLineEndings() {
        let result = lex("a\r\nb\r\n")
        #expect(result.diagnostics.isEmpty)
        let b = result.tokens.first { $0.text == "b" }
        #expect(b?.range.start.line == 2 && b?.range.start.column == 1)
        #expect(b?.isAtLineStart == true)
    }

    @Test func unterminatedStringStopsAtEndOfLine() {
        let result = lex("x = \"abc\ny")
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics[0].range.start == SourceLocation(line: 1, column: 5, offset: 4))
        #expect(result.tokens.contains { $0.kind == .identifier && $0.text == "y" })
    }

    @Test func unterminatedCommentPointsAtOpener() {
        let result = lex("a\n  /* open /* nested */\nb")
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics[0].range.start.line == 2)
        #expect(result.diagnostics[0].range.start.column == 3)
        #expect(result.diagnostics[0].message.contains("unterminated comment"))
    }

    @Test func invalidUTF8IsReportedAtItsByte() {
        let source = SourceFile(path: "t.model", bytes: Array("ab ".utf8) + [0xFF, 0xFE] + Array(" cd".utf8))
        let result = Lexer.tokenize(source)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics[0].range.start.column == 4)
        #expect(result.diagnostics[0].message == "invalid UTF-8 byte 0xFF")
        #expect(result.tokens.filter { $0.kind == .identifier }.map(\.text) == ["ab", "cd"])
    }

    @Test func strayCharactersMakeOneDiagnosticPerRun() {
        let result = lex("a $%& b")
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics[0].message == "unexpected character '$'")
        #expect(result.diagnostics[0].range.end.column == 6)
    }

    @Test func badEscapesAndNumbers() {
        let result = lex(#""\q" "\u{110000}" 12ab"#)
        #expect(result.diagnostics.map(\.range.start.column) == [2, 7, 19])
    }
}

extension LexerTests {
    @Test func invalidUTF8InCommentsIsReported() {
        let source = SourceFile(path: "t.model", bytes: Array("// a ".utf8) + [0xC3] + Array("\n/* b ".utf8) + [0x80] + Array(" */ x".utf8))
        let result = Lexer.tokenize(source)
        #expect(result.diagnostics.map { "\($0.range.start.line):\($0.range.start.column)" } == ["1:6", "2:6"])
        #expect(result.tokens.contains { $0.text == "x" })
        #expect(lex("// Int8…Int64 ☃\n/* … */ y").diagnostics.isEmpty)
    }
}

extension LexerTests {
    @Test func byteOrderMarkIsSkipped() {
        let result = Lexer.tokenize(SourceFile(path: "t.model", bytes: [0xEF, 0xBB, 0xBF] + Array("entity A {}".utf8)))
        #expect(result.diagnostics.isEmpty)
        #expect(result.tokens[0].isKeyword("entity"))
        #expect(result.tokens[0].range.start.column == 1)
    }
}
