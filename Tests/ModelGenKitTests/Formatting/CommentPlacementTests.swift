import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

/// Comments dropped at every gap between tokens of the reference sample and of the messy fixture:
/// wherever they are, the formatter keeps them all, keeps the declarations, and a second pass
/// changes nothing.
@Suite struct CommentPlacementTests {
    static let inputs = ["Samples/Trips.model", "Tests/ModelGenKitTests/Formatting/Fixtures/Messy.model"]

    private static func variants(of input: String, inserting comment: (Int) -> String) throws -> [(offset: Int, text: String)] {
        let bytes = Array(try Data(contentsOf: FormatDiagramSupport.url(input)))
        var result: [(Int, String)] = []
        for offset in 0...bytes.count {
            let before = offset > 0 ? bytes[offset - 1] : UInt8(ascii: "\n")
            let after = offset < bytes.count ? bytes[offset] : UInt8(ascii: "\n")
            let whitespace: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\n")]
            // The edges of each run of whitespace: where a token or comment starts or ends.
            guard whitespace.contains(before) != whitespace.contains(after) else { continue }
            var copy = bytes
            copy.insert(contentsOf: Array(comment(offset).utf8), at: offset)
            result.append((offset, String(decoding: copy, as: UTF8.self)))
        }
        return result
    }

    private func check(_ variants: [(offset: Int, text: String)]) {
        var checked = 0
        for (offset, text) in variants {
            let original = Parser.parse(SourceFile(path: "T.model", text: text))
            guard original.diagnostics.isEmpty else { continue }
            checked += 1
            let formatted = ModelFormatter.format(original.file)
            let reparsed = Parser.parse(SourceFile(path: "T.model", text: formatted))
            #expect(reparsed.diagnostics.isEmpty, "comment at \(offset): formatted text has syntax errors\n\(formatted)")
            #expect(SyntaxShape.of(reparsed.file) == SyntaxShape.of(original.file), "comment at \(offset): declarations changed\n\(formatted)")
            #expect(SyntaxShape.commentTexts(reparsed.file) == SyntaxShape.commentTexts(original.file), "comment at \(offset): comments changed\n\(formatted)")
            let again = ModelFormatter.format(reparsed.file)
            #expect(again == formatted, "comment at \(offset): not idempotent\n\(TextDiff.lines(expected: formatted, actual: again))")
        }
        #expect(checked > 100)
    }

    @Test(arguments: inputs) func blockCommentsAnywhere(input: String) throws {
        check(try Self.variants(of: input) { " /* c\($0) */ " })
    }

    @Test(arguments: inputs) func lineCommentsAnywhere(input: String) throws {
        check(try Self.variants(of: input) { " // c\($0)\n" })
    }

    @Test(arguments: inputs) func docCommentsAnywhere(input: String) throws {
        check(try Self.variants(of: input) { "\n/// d\($0)\n" })
    }

    @Test(arguments: inputs) func multiLineBlockCommentsAnywhere(input: String) throws {
        check(try Self.variants(of: input) { "/* c\($0)\n   second line */" })
    }
}
