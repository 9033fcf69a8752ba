import Foundation
@testable import ModelGenKit

/// Models with a history, in memory: the current model's `.model` files and frozen versions
/// (`ModelVersions/V.modelversion`), linted or generated through `ModelGen.run`.
enum History {
    /// The sources of a model (`Model.model`) and its versions, given as `version → text`.
    static func sources(model: String, versions: [(String, String)]) -> [SourceFile] {
        [SourceFile(path: "Model.model", text: model)]
            + versions.map { SourceFile(path: "ModelVersions/\($0.0).modelversion", text: $0.1) }
    }

    static func lint(model: String, versions: [(String, String)]) -> GeneratorResult {
        Run.lint(sources(model: model, versions: versions))
    }

    /// `file:line:col [rule] message` of each diagnostic.
    static func summary(_ result: GeneratorResult) -> [String] {
        result.diagnostics.map { "\($0.range.file):\($0.range.start.line):\($0.range.start.column) [\($0.rule)] \($0.message)" }
    }

    /// The checked schema of one model text (which must have no error).
    static func schema(_ text: String) -> CheckedSchema? {
        Run.lint([SourceFile(path: "Schema.model", text: text)]).schema
    }

    /// The changes from `old` to `new`, each `description (classification)`.
    static func changes(_ old: String, _ new: String) -> [String] {
        guard let old = schema(old), let new = schema(new) else { return ["(a model does not check)"] }
        return SchemaDiff.changes(from: old, to: new).map { "\($0.description) (\($0.classification.rawValue))" }
    }
}
