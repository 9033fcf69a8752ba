import Foundation
import GoldenFiles
import Testing

/// ModelStore's public API is a decision: `Goldens/ModelStore.api` lists every public declaration
/// (`PublicAPIList`: members included, members added to Foundation's and the standard library's
/// types included, SPI `ModelStoreGenerated` hooks of generated code left out), and this test fails
/// when the module declares any other, or lacks one. After a deliberate change:
/// `MODELGEN_UPDATE_GOLDENS=1 swift test --filter ModelStoreTests.PublicAPITests`, then read the diff.
@Suite struct PublicAPITests {
    static let listFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Goldens").appendingPathComponent("ModelStore.api")

    @Test func publicDeclarationsAreTheListedOnes() throws {
        let sources = GoldenFile.packageRoot(from: #filePath).appendingPathComponent("Sources")
        let cModules = ["CSQLite", "CLibPQ"].map { sources.appendingPathComponent($0) }
        let actual = try PublicAPIList.declarations(ofModule: "ModelStore", includePaths: cModules).joined(separator: "\n") + "\n"
        try GoldenFile.expect(actual, matches: Self.listFile, what: "ModelStore's public API list (Goldens/ModelStore.api)")
    }

    /// The list names SwiftData's entry points and none of the hooks of generated code, so the
    /// extraction can neither find nothing nor let SPI through.
    @Test func listHoldsTheAPIAndNoHooks() throws {
        let listed = try String(contentsOf: Self.listFile, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(listed.contains("class ModelContext"))
        #expect(listed.contains("method ModelContext.save()"))
        #expect(listed.contains("struct FetchDescriptor"))
        #expect(!listed.contains { $0.contains("_$") }, "a hook of generated code is public API")
        #expect(!listed.contains { $0.hasSuffix(" RowDecoder") || $0.hasSuffix(" RowEncoder") })
    }
}
