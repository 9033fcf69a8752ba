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

    /// Lints a sample with its history: the `.modelversion` files of the folder named like it
    /// (`migration-not-inferable/` beside `migration-not-inferable.model`), if there is one.
    static func lint(_ name: String) throws -> (sources: [SourceFile], result: GeneratorResult) {
        let bytes = Array(try Data(contentsOf: packageRoot.appendingPathComponent(folder).appendingPathComponent(name)))
        var sources = [SourceFile(path: "\(folder)/\(name)", bytes: bytes)]
        let history = "\(folder)/\(name.dropLast(".model".count))"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(history).path)) ?? []
        for version in versions.filter({ $0.hasSuffix(".modelversion") }).sorted() {
            let path = "\(history)/\(version)"
            sources.append(SourceFile(path: path, bytes: Array(try Data(contentsOf: packageRoot.appendingPathComponent(path)))))
        }
        return (sources, Run.lint(sources))
    }

    /// The rule a sample is named after: the longest rule id its name starts with.
    static func rule(namedBy sample: String) -> RuleID? {
        RuleID.all.map(\.0).filter { sample.hasPrefix($0.rawValue) }.max { $0.rawValue.count < $1.rawValue.count }
    }

    @Test(arguments: sampleNames)
    func renderedDiagnostics(name: String) throws {
        let (sources, result) = try Self.lint(name)
        let rule = try #require(Self.rule(namedBy: name), "\(name) is not named after a rule id")
        #expect(result.diagnostics.contains { $0.rule == rule }, "\(name) must produce a [\(rule)] diagnostic")
        let rendered = DiagnosticRenderer(sources: sources).render(result.diagnostics)
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
