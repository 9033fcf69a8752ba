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

    /// Whether the current model's declarations are named only inside its version's enum (`GeneratorOptions.modelsInVersion`).
    let modelsInVersion: Bool

    init(
        schema: CheckedSchema, history: MigrationHistory? = nil, templates: TemplateSet = TemplateSet(), accessLevel: AccessLevel = .internal,
        modelsInVersion: Bool = false, sources: [ModelSource] = []
    ) {
        self.context = GenerationContext(schema: schema, accessLevel: accessLevel, sources: sources)
        self.history = history
        self.renderer = templates.renderer()
        self.modelsInVersion = modelsInVersion
    }

    /// The view model of `source`: a `.model` file of the current model, or a frozen version (whose
    /// declarations are its own schema's; the newest version also holds the migration plans).
    ///
    /// When the current model is the newest version (`MigrationHistory.currentVersion`), that
    /// version's enum holds the current model's classes themselves (generated from the current
    /// schema), and the `.model` files name them at top level with typealiases (none under
    /// `modelsInVersion`): one class per entity, so `SchemaV3_0_0.Trip` and `Trip` are the same type.
    /// (The other way round, a nested `typealias Trip = Trip` would name itself: Swift has no way to
    /// name the module's top-level `Trip` from inside the enum without the module's name.)
    func fileViewModel(_ source: ModelSource) -> FileViewModel {
        let host = history?.currentVersion
        guard source.isVersionFile, let history, let index = history.versions.firstIndex(where: { $0.path == source.path }) else {
            return FileViewModel(source, context: context, modelHost: host?.version.schemaName, namesModelsAtTopLevel: !modelsInVersion)
        }
        let version = history.versions[index]
        let isHost = host?.path == version.path
        let versionContext = isHost ? context : GenerationContext(schema: version.schema, accessLevel: context.accessLevel, recordsModelSource: false)
        var plans: [PlanViewModel] = []
        if index == history.versions.count - 1 {
            let containers = context.schema.containers.map(\.name)
            plans = history.planNames.enumerated().map { offset, name in
                PlanViewModel(name: name, containerName: containers.isEmpty ? nil : containers[offset], history: history)
            }
        }
        return FileViewModel(
            source, context: versionContext, version: VersionViewModel(version, source: source, context: versionContext, isCurrentModel: isHost), plans: plans)
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
