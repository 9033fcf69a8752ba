import Foundation
import Testing
@testable import ModelGenKit

/// docs/Rules.md `unsupported-type`: "a type exists in Swift but cannot be stored (e.g. a dictionary, a tuple,
/// `[[T]]`, `E??`)", each at the line and column of its type.
@Suite struct SpecUnsupportedTypeTests {
    @Test func swiftTypesThatCannotBeStored() {
        let source = """
            entity A {
                d: [String: Int]
                t: (Int, String)
                n: [[Int]]
                o: Int??
                u: UInt64
                s: Set<String>
                g: Dictionary<String, Int>
                b: B??
            }
            entity B { x: Int = 0 }

            """
        #expect(SpecModel.findings(source) == [
            "2:8 unsupported-type", "3:8 unsupported-type", "4:8 unsupported-type", "5:8 unsupported-type",
            "6:8 unsupported-type", "7:8 unsupported-type", "8:8 unsupported-type", "9:8 unsupported-type",
        ])
    }

    /// Swift's generic spelling is read as a type (not a syntax error), so the rest of the file is still checked.
    @Test func genericSpellingNamesTheFix() throws {
        let diagnostics = SpecModel.lint("entity A {\n    tags: Set<String>\n    list: Array<Int>\n    later: Dat\n}\n").diagnostics
        #expect(diagnostics.map(\.rule) == [.unsupportedType, .unsupportedType, .unknownType])
        #expect(diagnostics.first?.message.contains("write '[String]'") == true)
    }
}
