@testable import ModelGenKit

/// Tests run the generator the way `modelgen` does: through `ModelGen.run`.
enum Run {
    /// Parses and checks `sources` together (`modelgen lint`), in memory.
    static func lint(_ sources: [SourceFile]) -> GeneratorResult {
        do {
            return try ModelGen.run(.files(sources), options: GeneratorOptions(output: .lint))
        } catch {
            // In-memory sources under the size limit cannot stop a lint run.
            preconditionFailure("a lint run in memory stopped: \(error)")
        }
    }

    /// The generated text of each source, in order (the models must check without error).
    static func generate(_ sources: [ModelSource], options: GeneratorOptions = GeneratorOptions()) throws -> [String] {
        var options = options
        options.output = .inMemory
        let result = try ModelGen.run(.sources(sources), options: options)
        guard !result.failed else { throw ModelErrors(diagnostics: result.diagnostics) }
        return result.outputs.map { $0.contents ?? "" }
    }

    /// The generated text of one file given directly.
    static func generate(_ source: SourceFile, options: GeneratorOptions = GeneratorOptions()) throws -> String {
        try generate([ModelSource(source)], options: options)[0]
    }

    /// The models a generating test was given have errors.
    struct ModelErrors: Error, CustomStringConvertible {
        var diagnostics: [Diagnostic]
        var description: String { "the models have errors: \(diagnostics)" }
    }
}
