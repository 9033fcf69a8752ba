import Foundation
import Testing
@testable import ModelGenKit

/// A small deterministic random number generator (SplitMix64), so every run tests the same inputs.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Broken input of every kind goes through lexer, parser and renderers without crashing, and each
/// diagnostic points inside the input.
@Suite struct RobustnessTests {
    typealias S = SyntaxTestSupport

    static let fragments: [String] = [
        "entity", "enum", "case", "init", "container", "super", "var", "{", "}", "(", ")", "[", "]", ":", ",",
        ".", "=", "?", "@", "#", "\\", ";", "<", ">", "\n", " ", "\"", "\"x\"", "/*", "*/", "//", "///", "`",
        "-", "1", "-2", "3.5", "nil", "true", "Int", "String?", "[Int]", "@Attribute(", "#Unique(", "super.init(",
        "é", "\u{1F600}", "\t", "\r\n", "\\.a", "`x`", "= []", "UUID()",
    ]

    /// Checks the invariants for one input; returns the diagnostics.
    @discardableResult
    private func check(_ bytes: [UInt8], _ label: String) -> [Diagnostic] {
        let source = SourceFile(path: "fuzz.model", bytes: bytes)
        let (_, diagnostics) = Parser.parse(source)
        let lineCount = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        for diagnostic in diagnostics {
            let range = diagnostic.range
            let inside = range.start.line >= 1 && range.start.line <= lineCount + 1 && range.start.column >= 1
                && range.start.offset <= bytes.count && range.end.offset <= bytes.count && range.start <= range.end
            // Plain checks in this hot loop: `#expect` per diagnostic would dominate the run time.
            if !inside || diagnostic.rule != .syntax {
                Issue.record("\(label): diagnostic outside the input or not 'syntax': \(range) \(diagnostic.message)")
            }
        }
        if diagnostics.count > DiagnosticCollector.defaultLimit + 1 {
            Issue.record("\(label): \(diagnostics.count) diagnostics, more than the limit")
        }
        // Rendering must cope too.
        _ = DiagnosticRenderer(sources: [source]).render(diagnostics)
        _ = DiagnosticJSON.encode(diagnostics)
        return diagnostics
    }

    @Test func mutationsOfTheSample() throws {
        let original = try S.tripsSource().bytes
        var random = SeededGenerator(seed: 0x5EED)
        for round in 0..<2_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !bytes.isEmpty:
                    let start = Int.random(in: 0..<bytes.count, using: &random)
                    let length = Int.random(in: 1...20, using: &random)
                    bytes.removeSubrange(start..<min(bytes.count, start + length))
                case 1:
                    let fragment = Self.fragments.randomElement(using: &random)!
                    bytes.insert(contentsOf: Array(fragment.utf8), at: Int.random(in: 0...bytes.count, using: &random))
                case 2 where !bytes.isEmpty:
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
                default:
                    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                    if lines.count > 2 {
                        var shuffled = Array(lines)
                        shuffled.swapAt(Int.random(in: 0..<lines.count, using: &random), Int.random(in: 0..<lines.count, using: &random))
                        bytes = Array(shuffled.joined(separator: [UInt8(ascii: "\n")]))
                    }
                }
            }
            check(bytes, "mutation \(round)")
        }
    }

    @Test func randomTokenSoup() {
        var random = SeededGenerator(seed: 42)
        for round in 0..<1_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                text += Self.fragments.randomElement(using: &random)! + (Bool.random(using: &random) ? " " : "")
            }
            check(Array(text.utf8), "soup \(round)")
        }
    }

    @Test func randomBytes() {
        var random = SeededGenerator(seed: 7)
        for round in 0..<500 {
            let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            check(bytes, "bytes \(round)")
        }
    }

    @Test func binaryGarbage() {
        var random = SeededGenerator(seed: 99)
        let bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(!check(bytes, "garbage").isEmpty)
    }

    @Test func twoMegabyteLine() {
        let line = "entity A { a: Int = " + String(repeating: "1 ", count: 1_000_000) + "}\n"
        let diagnostics = check(Array(line.utf8), "long line")
        #expect(diagnostics.count == 1)
        let rendered = DiagnosticRenderer(sources: [SourceFile(path: "fuzz.model", text: line)]).render(diagnostics)
        #expect(rendered.utf8.count < 1_000)

        let identifier = "entity " + String(repeating: "x", count: 2_000_000) + " {"
        #expect(!check(Array(identifier.utf8), "long name").isEmpty)
        let stray = String(repeating: "$ ", count: 1_000_000)
        #expect(check(Array(stray.utf8), "long stray run").count == 1)
    }

    @Test(arguments: ["{", "[", "(", "/*"])
    func twentyThousandNestedOpeners(opener: String) {
        let nested = String(repeating: opener, count: 20_000)
        #expect(!check(Array(nested.utf8), "top level \(opener)").isEmpty)
        #expect(!check(Array("entity A {\n    a: \(nested)\n}\n".utf8), "type \(opener)").isEmpty)
        #expect(!check(Array("entity A {\n    @Attribute(\(nested)\n    b: Int = \(nested)\n}\n".utf8), "values \(opener)").isEmpty)
    }

    @Test func deepBracesInsideAnEntityBody() {
        let text = "entity A {\n" + String(repeating: "{", count: 20_000) + String(repeating: "}", count: 20_000) + "\n}\nentity B { b: Int }\n"
        let diagnostics = check(Array(text.utf8), "braces")
        #expect(diagnostics.count == 1)
    }

    @Test func invalidUTF8AndUnterminatedText() {
        #expect(!check([0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF5, 0xFF], "invalid utf8").isEmpty)
        #expect(check(Array("entity A {\n    a: String = \"open\n}\n".utf8), "string").count == 1)
        #expect(check(Array("entity A {\n    a: Int\n}\n/* /* */".utf8), "comment").count == 1)
        #expect(check(Array("entity A { a: Int }\n`".utf8), "backtick").count == 1)
    }
}
