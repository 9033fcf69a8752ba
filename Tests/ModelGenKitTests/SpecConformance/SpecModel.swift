import Foundation
@testable import ModelGenKit

/// Lints and generates `.model` text given inline, for the SPEC conformance tests.
enum SpecModel {
    /// The diagnostics of `source` as `LINE:COLUMN rule` strings, in the order the tool reports them.
    static func findings(_ source: String, path: String = "Spec.model") -> [String] {
        lint(source, path: path).diagnostics.map { "\($0.range.start.line):\($0.range.start.column) \($0.rule)" }
    }

    /// The rule ids reported for `source`.
    static func rules(_ source: String) -> [String] {
        lint(source).diagnostics.map(\.rule.rawValue)
    }

    static func lint(_ source: String, path: String = "Spec.model") -> LintResult {
        LintRun.run([SourceFile(path: path, bytes: Array(source.utf8))])
    }

    /// The generated Swift for `source`, or `nil` when it has errors.
    static func generate(_ source: String, path: String = "Spec.model") throws -> String? {
        let result = lint(source, path: path)
        guard let schema = result.schema, result.errorCount == 0 else { return nil }
        return try CodeGenerator().generate(schema, for: GenerationInput(path: path))
    }
}
