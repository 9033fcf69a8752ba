import Foundation
import Testing
@testable import ModelGenKit

/// Malformed inputs under `Fixtures/*.model`, each rendered as `modelgen lint` prints it, compared
/// with `Fixtures/*.expected` (rewrite them with `MODELGEN_UPDATE_GOLDENS=1`, then review).
@Suite struct SyntaxDiagnosticGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var fixtureNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".model") }.sorted()
    }

    @Test func everyFixtureHasAnExpectation() {
        #expect(Self.fixtureNames.count >= 10)
    }

    @Test(arguments: fixtureNames)
    func renderedDiagnostics(name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
        let source = SourceFile(path: name, bytes: bytes)
        let result = Run.lint([source])
        #expect(!result.diagnostics.isEmpty, "a malformed fixture must produce diagnostics")
        #expect(result.diagnostics.allSatisfy { $0.rule == .syntax })
        let rendered = DiagnosticRenderer(sources: [source]).render(result.diagnostics)
        let expectedURL = Self.fixtures.appendingPathComponent(String(name.dropLast(".model".count)) + ".expected")
        try SyntaxGolden.check(rendered, against: expectedURL)
    }
}
