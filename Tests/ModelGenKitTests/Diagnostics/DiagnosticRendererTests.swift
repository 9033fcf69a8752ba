import Foundation
import Testing
@testable import ModelGenKit

@Suite struct DiagnosticRendererTests {
    private func range(_ file: String, _ line: Int, _ column: Int, _ offset: Int, length: Int) -> SourceRange {
        SourceRange(file: file, start: SourceLocation(line: line, column: column, offset: offset),
                    end: SourceLocation(line: line, column: column + length, offset: offset + length))
    }

    @Test func firstLineExcerptMarkerAndNotes() {
        let source = SourceFile(path: "m.model", text: "entity A {\n\tname: Strin\n}\n")
        let diagnostic = Diagnostic.error(.unknownType, "unknown type 'Strin'", at: range("m.model", 2, 8, 18, length: 5), notes: [
            DiagnosticNote("did you mean 'String'?"),
            DiagnosticNote("entity declared here", at: range("m.model", 1, 8, 7, length: 1)),
        ])
        let text = DiagnosticRenderer(sources: [source]).render(diagnostic)
        #expect(text == """
        m.model:2:8: error: unknown type 'Strin' [unknown-type]
        \tname: Strin
        \t      ^~~~~
        m.model:2:8: note: did you mean 'String'?
        m.model:1:8: note: entity declared here

        """)
    }

    @Test func multibyteCharactersTakeOneMarkerColumn() {
        let source = SourceFile(path: "u.model", text: "été: Int x")
        let diagnostic = Diagnostic.error(.syntax, "m", at: range("u.model", 1, 12, 11, length: 1))
        let lines = DiagnosticRenderer(sources: [source]).render(diagnostic).split(separator: "\n")
        #expect(lines[2] == "         ^")
    }

    @Test func longLinesShowAWindow() {
        let line = String(repeating: "a", count: 5_000) + "BAD" + String(repeating: "b", count: 5_000)
        let source = SourceFile(path: "l.model", text: line)
        let diagnostic = Diagnostic.error(.syntax, "m", at: range("l.model", 1, 5_001, 5_000, length: 3))
        let lines = DiagnosticRenderer(sources: [source]).render(diagnostic).split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"))
        #expect(lines[1].count <= DiagnosticRenderer.maximumExcerptBytes + 2)
        let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        let bad = lines[1].range(of: "BAD").map { lines[1].distance(from: lines[1].startIndex, to: $0.lowerBound) }
        #expect(caret == bad)
        #expect(lines[2].hasSuffix("^~~"))
    }

    @Test func positionAtEndOfFileAndUnknownFile() {
        let source = SourceFile(path: "e.model", text: "entity A {\n")
        let end = SourceLocation(line: 2, column: 1, offset: 11)
        let atEnd = Diagnostic.error(.syntax, "expected '}'", at: SourceRange(file: "e.model", start: end, end: end))
        #expect(DiagnosticRenderer(sources: [source]).render(atEnd) == "e.model:2:1: error: expected '}' [syntax]\n\n^\n")
        let elsewhere = Diagnostic.error(.syntax, "x", at: SourceRange(file: "other.model", start: end, end: end))
        #expect(DiagnosticRenderer(sources: [source]).render(elsewhere) == "other.model:2:1: error: x [syntax]\n")
    }

    @Test func summaryLine() {
        #expect(DiagnosticRenderer.summary(errors: 0, warnings: 0) == "")
        #expect(DiagnosticRenderer.summary(errors: 1, warnings: 0) == "1 error")
        #expect(DiagnosticRenderer.summary(errors: 2, warnings: 1) == "2 errors, 1 warning")
        #expect(DiagnosticRenderer.summary(errors: 0, warnings: 3) == "3 warnings")
    }

    @Test func jsonIsValidAndOrdered() throws {
        let diagnostic = Diagnostic.warning(.redundantRegistration, "say \"hi\"\n\u{1}", at: range("q\"uote.model", 3, 4, 20, length: 2),
                                            notes: [DiagnosticNote("free note"), DiagnosticNote("here", at: range("q\"uote.model", 1, 1, 0, length: 1))])
        let text = DiagnosticJSON.encode([diagnostic])
        #expect(DiagnosticJSON.encode([]) == "[]\n")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed[0]["message"] as? String == "say \"hi\"\n\u{1}")
        #expect(parsed[0]["file"] as? String == "q\"uote.model")
        #expect(parsed[0]["endColumn"] as? Int == 6)
        let notes = try #require(parsed[0]["notes"] as? [[String: Any]])
        #expect(notes.map { $0["line"] as? Int } == [3, 1])
        let keys = ["\"file\"", "\"line\"", "\"column\"", "\"endLine\"", "\"endColumn\"", "\"severity\"", "\"rule\"", "\"message\"", "\"notes\""]
        let positions = keys.map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }
}

extension DiagnosticRendererTests {
    /// Found by fuzzing: a long run of stray UTF-8 continuation bytes before the caret.
    @Test func longRunsOfContinuationBytes() {
        let bytes = Array("x ".utf8) + [UInt8](repeating: 0x81, count: 400) + Array(" y".utf8)
        let source = SourceFile(path: "c.model", bytes: bytes)
        let diagnostic = Diagnostic.error(.syntax, "m", at: SourceRange(file: "c.model", start: SourceLocation(line: 1, column: 403, offset: 402), end: SourceLocation(line: 1, column: 405, offset: 404)))
        let lines = DiagnosticRenderer(sources: [source]).render(diagnostic).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[2].hasSuffix("^~"))
    }
}

extension DiagnosticRendererTests {
    @Test func byteOrderMarkIsNotShown() {
        let source = SourceFile(path: "b.model", bytes: [0xEF, 0xBB, 0xBF] + Array("entity A { a Int }".utf8))
        let (_, diagnostics) = Parser.parse(source)
        #expect(DiagnosticRenderer(sources: [source]).render(diagnostics) == """
        b.model:1:14: error: expected ':' and a type after property name 'a' but found identifier 'Int' [syntax]
        entity A { a Int }
                     ^~~

        """)
    }
}
