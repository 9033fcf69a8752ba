import Foundation
import Testing
@testable import ModelGenKit

/// The language reference (docs/Language.md) shows only text the parser accepts.
@Suite struct LanguageReferenceExamplesTests {
    /// The unlabelled code blocks of docs/Language.md before its "Syntax errors" section.
    static func examples() throws -> [String] {
        let reference = try String(contentsOf: SyntaxTestSupport.packageRoot.appendingPathComponent("docs/Language.md"), encoding: .utf8)
        guard let start = reference.range(of: "# The `.model` language"), let end = reference.range(of: "## Syntax errors") else { return [] }
        var blocks: [String] = []
        var current: [Substring]?
        for line in reference[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```" {
                if let body = current {
                    blocks.append(body.joined(separator: "\n"))
                    current = nil
                } else {
                    current = []
                }
            } else if line.hasPrefix("```") {
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everyExampleParses() throws {
        let blocks = try Self.examples()
        #expect(blocks.count >= 13)
        for (index, block) in blocks.enumerated() {
            // Member-only snippets (attributes) are read inside an entity.
            let startsWithDeclaration = block.split(separator: "\n").contains { line in
                line.hasPrefix("@Entity(") || line.hasPrefix("@ModelActor ") || ["entity", "enum", "struct", "container", "migration"].contains { line.hasPrefix($0 + " ") }
            }
            let text = startsWithDeclaration ? block : "entity Wrapper {\n\(block)\n}"
            let (_, diagnostics) = Parser.parse(SourceFile(path: "Language-\(index).model", text: text))
            #expect(diagnostics.isEmpty, "docs/Language.md example \(index) does not parse: \(SyntaxTestSupport.summary(diagnostics))\n\(text)")
        }
    }
}
