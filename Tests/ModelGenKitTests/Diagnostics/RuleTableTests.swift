import Foundation
import Testing
@testable import ModelGenKit

/// The rule table (`RuleID.all`) and docs/Rules.md describe the same rules with the same
/// severities: a `## rule-id` section for an error, `## rule-id (warning)` for a warning.
@Suite struct RuleTableTests {
    @Test func everyRuleIsDocumentedWithItsSeverity() throws {
        let docs = try String(contentsOf: GoldenTests.packageRoot.appendingPathComponent("docs/Rules.md"), encoding: .utf8)
        var documented: [String: Severity] = [:]
        for line in docs.split(separator: "\n") where line.hasPrefix("## ") {
            let heading = line.dropFirst(3)
            let words = heading.split(separator: " ")
            guard let id = words.first, id.allSatisfy({ $0.isLowercase || $0 == "-" }) else { continue }
            documented[String(id)] = heading.hasSuffix("(warning)") ? .warning : .error
        }
        let table = Dictionary(uniqueKeysWithValues: RuleID.all.map { ($0.0.rawValue, $0.1) })
        #expect(documented == table, "docs/Rules.md sections \(documented.sorted { $0.key < $1.key }) vs RuleID.all")
        #expect(Set(table.keys).count == RuleID.all.count, "a rule id is listed twice in RuleID.all")
    }
}
