import Foundation
import Testing
@testable import ModelGenKit

/// Every model under `Samples/invalid/`, linted alone and rendered as `modelgen lint` prints it,
/// compared with the `.expected` file beside it (rewrite with `MODELGEN_UPDATE_GOLDENS=1`, then review).
/// Each file is named after the rule it shows (`inverse-mismatch-both-sides.model`).
@Suite struct InvalidSampleGoldenTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = "Samples/invalid"

    static var sampleNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".model") }.sorted()
    }

    static func lint(_ name: String) throws -> (source: SourceFile, result: GeneratorResult) {
        let bytes = Array(try Data(contentsOf: packageRoot.appendingPathComponent(folder).appendingPathComponent(name)))
        let source = SourceFile(path: "\(folder)/\(name)", bytes: bytes)
        return (source, Run.lint([source]))
    }

    /// The rule a sample is named after: the longest rule id its name starts with.
    static func rule(namedBy sample: String) -> RuleID? {
        RuleID.all.map(\.0).filter { sample.hasPrefix($0.rawValue) }.max { $0.rawValue.count < $1.rawValue.count }
    }

    @Test(arguments: sampleNames)
    func renderedDiagnostics(name: String) throws {
        let (source, result) = try Self.lint(name)
        let rule = try #require(Self.rule(namedBy: name), "\(name) is not named after a rule id")
        #expect(result.diagnostics.contains { $0.rule == rule }, "\(name) must produce a [\(rule)] diagnostic")
        let rendered = DiagnosticRenderer(sources: [source]).render(result.diagnostics)
        let expected = Self.packageRoot.appendingPathComponent(Self.folder).appendingPathComponent(String(name.dropLast(".model".count)) + ".expected")
        try SyntaxGolden.check(rendered, against: expected)
    }

    @Test func everyRuleHasASample() throws {
        var covered: Set<RuleID> = []
        for name in Self.sampleNames {
            covered.formUnion(try Self.lint(name).result.diagnostics.map(\.rule))
        }
        let missing = RuleID.all.map(\.0).filter { !covered.contains($0) }
        #expect(missing.isEmpty, "rules without a sample in Samples/invalid: \(missing.map(\.rawValue))")
    }

    @Test func severitiesFollowTheRuleTable() throws {
        let severities = Dictionary(uniqueKeysWithValues: RuleID.all.map { ($0.0, $0.1) })
        for name in Self.sampleNames {
            for diagnostic in try Self.lint(name).result.diagnostics {
                #expect(diagnostic.severity == severities[diagnostic.rule], "\(name): \(diagnostic.message)")
            }
        }
    }
}
