import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

/// Each top-level model of `Samples/` generates `Tests/ModelStoreTests/Generated/<Stem>.model.swift`,
/// byte for byte. Those files are compiled and exercised by the ModelStoreTests target.
/// `MODELGEN_UPDATE_GOLDENS=1 swift test` rewrites them from the generator's output.
@Suite struct GoldenTests {
    static let packageRoot = GoldenFile.packageRoot(from: #filePath)

    static var updating: Bool { GoldenFile.isUpdating }

    /// The `.model` files directly inside `Samples/`, sorted.
    static func samples() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Samples").path)
            .filter { $0.hasSuffix(".model") }.sorted()
    }

    @Test func samplesIncludeTheReferenceModels() throws {
        let samples = try Self.samples()
        #expect(samples.contains("Trips.model"))
        #expect(samples.contains("Shop.model"))
    }

    @Test(arguments: try GoldenTests.samples())
    func sampleMatchesGolden(_ fileName: String) throws {
        let path = "Samples/" + fileName
        let data = try Data(contentsOf: Self.packageRoot.appendingPathComponent(path))
        let result = try ModelGen.run(.files([SourceFile(path: path, bytes: Array(data))]))
        // Shop's category tree cascades to its own entity: the one warning a sample shows (docs/Rules.md cascade-cycle).
        #expect(result.diagnostics.allSatisfy { $0.rule == .cascadeCycle && $0.severity == .warning }, "\(result.diagnostics)")
        #expect(result.diagnostics.count == (fileName == "Shop.model" ? 1 : 0), "\(result.diagnostics)")
        let output = try #require(result.outputs.first)
        let generated = try #require(output.contents)
        let golden = Self.packageRoot.appendingPathComponent("Tests/ModelStoreTests/Generated")
            .appendingPathComponent(output.name)
        try GoldenFile.expect(generated, matches: golden, what: "\(output.name) (generated from \(path))")
    }

    /// The `.model` fixtures of the runtime tests (`Tests/ModelStoreTests/Fixtures/`), sorted.
    static func fixtures() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Tests/ModelStoreTests/Fixtures").path)
            .filter { $0.hasSuffix(".model") }.sorted()
    }

    /// A fixture generates `<Stem>.model.swift` beside it, which ModelStoreTests compiles: no
    /// generated code in the tests is written by hand.
    @Test(arguments: try GoldenTests.fixtures())
    func fixtureMatchesGolden(_ fileName: String) throws {
        let folder = "Tests/ModelStoreTests/Fixtures/"
        let data = try Data(contentsOf: Self.packageRoot.appendingPathComponent(folder + fileName))
        let result = try ModelGen.run(.files([SourceFile(path: fileName, bytes: Array(data))]))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let output = try #require(result.outputs.first)
        let golden = Self.packageRoot.appendingPathComponent(folder + output.name)
        try GoldenFile.expect(try #require(output.contents), matches: golden, what: "\(output.name) (generated from \(folder + fileName))")
    }

    @Test func diffShowsChangedLinesWithContext() {
        let diff = TextDiff.lines(expected: "a\nb\nc\nd\n", actual: "a\nB\nc\nd\n", context: 1)
        #expect(diff == "@@ line 1 @@\n a\n-b\n+B\n c")
    }
}
