import Foundation
@testable import ModelGenKit

/// Helpers shared by the syntax tests.
enum SyntaxTestSupport {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func tripsSource() throws -> SourceFile {
        let url = packageRoot.appendingPathComponent("Samples/Trips.model")
        return SourceFile(path: "Samples/Trips.model", bytes: Array(try Data(contentsOf: url)))
    }

    static func parse(_ text: String, path: String = "test.model") -> (file: ModelFile, diagnostics: [Diagnostic]) {
        Parser.parse(SourceFile(path: path, text: text))
    }

    /// The entity named `name` among the file's declarations.
    static func entity(_ name: String, in file: ModelFile) -> EntityDecl? {
        for case .entity(let entity) in file.declarations where entity.name.name == name { return entity }
        return nil
    }

    static func properties(of entity: EntityDecl) -> [PropertyDecl] {
        entity.members.compactMap { if case .property(let p) = $0 { p } else { nil } }
    }

    static func inits(of entity: EntityDecl) -> [InitDecl] {
        entity.members.compactMap { if case .initializer(let i) = $0 { i } else { nil } }
    }

    /// `file:line:column: message` of each diagnostic, for readable expectations.
    static func summary(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.range.start.line):\($0.range.start.column): \($0.message)" }
    }
}
