import Foundation
@testable import ModelGenKit

/// Lints and generates `.model` text given inline, for the contract conformance tests.
enum SpecModel {
    /// The diagnostics of `source` as `LINE:COLUMN rule` strings, in the order the tool reports them.
    static func findings(_ source: String, path: String = "Spec.model") -> [String] {
        lint(source, path: path).diagnostics.map { "\($0.range.start.line):\($0.range.start.column) \($0.rule)" }
    }

    /// The rule ids reported for `source`.
    static func rules(_ source: String) -> [String] {
        lint(source).diagnostics.map(\.rule.rawValue)
    }

    static func lint(_ source: String, path: String = "Spec.model") -> GeneratorResult {
        Run.lint([SourceFile(path: path, text: source)])
    }

    /// The generated Swift for `source`, or `nil` when it has errors.
    static func generate(_ source: String, path: String = "Spec.model") throws -> String? {
        let result = try ModelGen.run(.files([SourceFile(path: path, text: source)]))
        return result.failed ? nil : result.outputs.first?.contents
    }
}
