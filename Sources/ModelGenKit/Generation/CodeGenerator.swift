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
    /// The model's history: each `.modelversion` file generates its version's `SchemaV…` enum.
    let history: MigrationHistory?
    /// The templates, parsed once for the whole run.
    private let renderer: MustacheRenderer

    init(schema: CheckedSchema, history: MigrationHistory? = nil, templates: TemplateSet = TemplateSet(), accessLevel: AccessLevel = .internal) {
        self.context = GenerationContext(schema: schema, accessLevel: accessLevel)
        self.history = history
        self.renderer = templates.renderer()
    }

    /// The view model of `source`: a `.model` file of the current model, or a frozen version (whose
    /// declarations are its own schema's; the newest version also holds the migration plans).
    func fileViewModel(_ source: ModelSource) -> FileViewModel {
        guard source.isVersionFile, let history, let index = history.versions.firstIndex(where: { $0.path == source.path }) else {
            return context.file(source)
        }
        let version = history.versions[index]
        let versionContext = GenerationContext(schema: version.schema, accessLevel: context.accessLevel)
        var plans: [PlanViewModel] = []
        if index == history.versions.count - 1 {
            let containers = context.schema.containers.map(\.name)
            plans = history.planNames.enumerated().map { offset, name in
                PlanViewModel(name: name, containerName: containers.isEmpty ? nil : containers[offset], history: history)
            }
        }
        return FileViewModel(
            source, context: versionContext, version: VersionViewModel(version, source: source, context: versionContext), plans: plans)
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
            rendered = try renderer.render(templateNamed: name, with: .object(fileViewModel(source)))
        } catch let error as MustacheError {
            throw TemplateError("template '\(name)': \(error.message)")
        } catch {
            throw TemplateError("template '\(name)': \(error)")
        }
        return SourceLayout.tidy(rendered)
    }
}
