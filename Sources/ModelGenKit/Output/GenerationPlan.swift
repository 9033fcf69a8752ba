import Foundation

/// What `generate` will write: one planned output per input, computed in full before anything
/// touches the disk.
public enum GenerationPlan {
    /// The output for each input (named by `OutputNaming`, placed in `directory`, with the generated text).
    public static func outputs(
        for inputs: [GenerationInput], schema: CheckedSchema, generator: CodeGenerator, directory: URL
    ) throws(TemplateError) -> [PlannedOutput] {
        let names: [String]
        do {
            names = try OutputNaming.outputNames(for: inputs)
        } catch {
            throw TemplateError(error.description)
        }
        let texts = try generator.generate(schema, for: inputs)
        return zip(names, texts).map { name, text in
            PlannedOutput(url: directory.appendingPathComponent(name), contents: text)
        }
    }
}

extension GenerationInput {
    /// The generation input of a discovered model file.
    public init(_ input: ModelInput) {
        self.init(path: input.path, pathInFolder: input.relativePath)
    }
}
