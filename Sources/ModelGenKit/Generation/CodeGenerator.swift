/// A generated Swift file: what the generate stage hands to the output stage.
struct GeneratedFile: Sendable {
    /// The output file name (`Trips.model.swift`).
    var name: String
    /// The `.model` file it was generated from, as the user named it.
    var sourcePath: String
    var contents: String
}

/// The generate stage: turns the checked schema into Swift source, one file per model file, holding
/// the entities, enums and containers that file declares: the file's view model (`ViewModel/`)
/// rendered through the templates (`TemplateSet`), then tidied (`SourceLayout`).
struct CodeGenerator {
    let context: GenerationContext
    /// The templates, parsed once for the whole run.
    private let renderer: MustacheRenderer

    init(schema: CheckedSchema, templates: TemplateSet = TemplateSet(), accessLevel: AccessLevel = .internal) {
        self.context = GenerationContext(schema: schema, accessLevel: accessLevel)
        self.renderer = templates.renderer()
    }

    /// The generated file of `source`, named `name`.
    func generate(_ source: ModelSource, named name: String) throws(TemplateError) -> GeneratedFile {
        GeneratedFile(name: name, sourcePath: source.path, contents: try generate(source))
    }

    /// The generated text of `source`.
    func generate(_ source: ModelSource) throws(TemplateError) -> String {
        let name = TemplateSet.rootTemplateName
        let rendered: String
        do {
            rendered = try renderer.render(templateNamed: name, with: .object(context.file(source)))
        } catch let error as MustacheError {
            throw TemplateError("template '\(name)': \(error.message)")
        } catch {
            throw TemplateError("template '\(name)': \(error)")
        }
        return SourceLayout.tidy(rendered)
    }
}
