import Foundation
import GoldenFiles
import Testing

/// ModelGenKit's public API is a decision: `ModelGenKit.api` lists every public declaration (as
/// `swift-symbolgraph-extract` reports them from the built module, members included, without the
/// ones protocols synthesize: `PublicAPIList`), and this test fails when the module declares any other, or lacks
/// one. After a deliberate change: `MODELGEN_UPDATE_GOLDENS=1 swift test --filter PublicAPITests`,
/// then read the diff.
@Suite struct PublicAPITests {
    static let listFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ModelGenKit.api")

    @Test func publicDeclarationsAreTheListedOnes() throws {
        let actual = try PublicAPIList.declarations(ofModule: "ModelGenKit").joined(separator: "\n") + "\n"
        try GoldenFile.expect(actual, matches: Self.listFile, what: "ModelGenKit's public API list (ModelGenKit.api)")
    }

    /// The list is not empty and names the entry, so the extraction cannot silently find nothing.
    @Test func listHoldsTheEntry() throws {
        let listed = try String(contentsOf: Self.listFile, encoding: .utf8).split(separator: "\n")
        #expect(listed.contains("enum ModelGen"))
        #expect(listed.contains("type.method ModelGen.run(_:options:)"))
    }
}
