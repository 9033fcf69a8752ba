import Foundation
import GoldenFiles
import Testing

/// `Sources/ModelGenKit/Generation/BuiltinTemplates.swift` must be what TemplateEmbedder makes of
/// `Templates/*.mustache` now. It is checked in rather than produced by a build plugin (see the
/// comment on ModelGenKit in Package.swift). After editing a template, refresh it with
/// `MODELGEN_UPDATE_GOLDENS=1 swift test --filter BuiltinTemplates`.
@Suite("Built-in templates embedded in ModelGenKit")
struct BuiltinTemplatesTests {
    @Test("BuiltinTemplates.swift matches Templates/*.mustache")
    func embeddedTemplatesAreCurrent() async throws {
        let committed = Workspace.root.appending(path: "Sources/ModelGenKit/Generation/BuiltinTemplates.swift")
        let templates = try FileManager.default
            .contentsOfDirectory(at: Workspace.root.appending(path: "Templates"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .map { $0.path(percentEncoded: false) }
            .sorted()
        try #require(!templates.isEmpty, "no Templates/*.mustache")

        let fresh = FileManager.default.temporaryDirectory.appending(path: "BuiltinTemplates-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let embedder = try Workspace.builtExecutable("TemplateEmbedder").path(percentEncoded: false)
        let run = try await Shell.run(embedder, [fresh.path(percentEncoded: false)] + templates, in: Workspace.root)
        try #require(run.status == 0, "TemplateEmbedder failed:\n\(run.output)")
        let expected = try String(contentsOf: fresh, encoding: .utf8)
        try GoldenFile.expect(expected, matches: committed, what: "Sources/ModelGenKit/Generation/BuiltinTemplates.swift (stale when Templates/ changed; rebuild after rewriting it)")
    }
}
