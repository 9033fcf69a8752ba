import Foundation

// The generator's stages and what each hands to the next:
//
//   GeneratorInput ─load─▶ [ModelSource] ─parse─▶ ParsedModels ─check─▶ CheckedModels
//                  ─generate─▶ GeneratedFile (one at a time) ─output─▶ GeneratedOutput
//
// `ModelGen.run` is the one entry; docs/Architecture.md draws the same picture with each stage's folder.

/// What the parse stage hands to the check stage: one syntax tree per model file, and the syntax errors.
struct ParsedModels {
    var sources: [ModelSource]
    /// The syntax tree of each source, in input order (holding what could be read when a file has errors).
    var trees: [ModelFile]
    /// The `syntax` errors of every file.
    var diagnostics: [Diagnostic]
}

/// What the check stage hands to the generate stage: the checked schema, the model's history and
/// every diagnostic.
struct CheckedModels {
    var sources: [ModelSource]
    /// The current model's schema (its `.model` files); `nil` when any error was found.
    var schema: CheckedSchema?
    /// The frozen versions and the steps between them; `nil` without a `.modelversion` input, or
    /// when the current model or a version has errors.
    var history: MigrationHistory?
    /// Syntax and rule diagnostics, sorted by file (input order), then position.
    var diagnostics: [Diagnostic]
}

/// The stages of one run, each a method taking the previous stage's output.
struct GeneratorPipeline {
    let options: GeneratorOptions

    /// Runs the stages in order; see `ModelGen.run`.
    func run(_ input: GeneratorInput) throws(GeneratorError) -> GeneratorResult {
        let generates = options.output != .lint
        let templates = generates ? try loadTemplates() : nil
        let sources = try load(input)
        let names = generates ? try outputNames(sources) : []
        let checked = check(parse(sources))
        var result = GeneratorResult(
            sources: sources.map(\.file), diagnostics: checked.diagnostics, schema: checked.schema, outputs: [],
            warningsAsErrors: options.warningsAsErrors)
        result.history = checked.history
        guard !result.failed, let schema = checked.schema, let templates else { return result }
        if sources.reduce(0, { $0 + $1.file.bytes.count }) >= FreedMemory.minimumInputBytes { FreedMemory.release() }
        do {
            result.outputs = try generate(schema, history: checked.history, sources: sources, names: names, templates: templates)
        } catch {
            var error = error
            (error.diagnostics, error.sources) = (result.diagnostics, result.sources)
            throw error
        }
        return result
    }

    // MARK: Stage 1: load (`Input/`)

    /// The model files of `input`, read, in input order (frozen versions among them).
    func load(_ input: GeneratorInput) throws(GeneratorError) -> [ModelSource] {
        options.stageObserver?(.load)
        do {
            let sources: [ModelSource]
            switch input {
            case .paths(let paths): sources = try SourceLoader.load(paths, maximumBytes: options.maximumInputBytes)
            case .sources(let given): sources = try SourceLoader.check(given, maximumBytes: options.maximumInputBytes)
            }
            try VersionFiles.check(sources)
            return sources
        } catch {
            throw GeneratorError(.input, error.message)
        }
    }

    /// The output file name of each source; two sources with one name are a usage error.
    func outputNames(_ sources: [ModelSource]) throws(GeneratorError) -> [String] {
        do {
            return try OutputNaming.outputNames(for: sources)
        } catch {
            throw GeneratorError(.outputNames, error.description)
        }
    }

    // MARK: Stage 2: parse (`Syntax/`)

    /// Each source's syntax tree, with the syntax errors. The comments are kept only when asked
    /// (formatting needs them; checking does not, and a run holds every tree at once).
    func parse(_ sources: [ModelSource], keepingComments: Bool = false) -> ParsedModels {
        options.stageObserver?(.parse)
        var trees: [ModelFile] = []
        trees.reserveCapacity(sources.count)
        var diagnostics: [Diagnostic] = []
        for source in sources {
            var parsed = Parser.parse(source.file)
            if !keepingComments { parsed.file.comments = [] }
            trees.append(parsed.file)
            diagnostics += parsed.diagnostics
        }
        return ParsedModels(sources: sources, trees: trees, diagnostics: diagnostics)
    }

    // MARK: Stage 3: check (`Semantics/`)

    /// Checks every `.model` file together (the current model), and each `.modelversion` file alone
    /// (a frozen version: its names never clash with the current model's), then the history: the
    /// steps between versions and their `migration` declarations (`HistoryChecker`). Semantic rules
    /// run on whatever parsed, also when some files have `syntax` errors, so one run reports every
    /// error; diagnostics that a syntax error may have caused are dropped (`SyntaxCascadeFilter`).
    /// A run with any error has no schema.
    ///
    /// The syntax trees are handed on, not kept: only the `migration` declarations are taken out
    /// first; without syntax errors nothing else here needs the trees again, and the checker frees
    /// them while it builds the schema (the run's peak of memory).
    func check(_ parsed: consuming ParsedModels) -> CheckedModels {
        options.stageObserver?(.check)
        let sources = parsed.sources
        let syntaxErrors = parsed.diagnostics
        let trees = parsed.trees
        parsed.trees = []
        var modelTrees: [ModelFile] = []
        var versionTrees: [(source: ModelSource, tree: ModelFile)] = []
        for (source, tree) in zip(sources, consume trees) {
            if source.isVersionFile { versionTrees.append((source, tree)) } else { modelTrees.append(tree) }
        }
        let migrations = modelTrees.flatMap(Self.migrations(in:))
        let firstPath = modelTrees.first?.source.path
        let current = checkSchema(of: consume modelTrees, syntaxErrors: syntaxErrors)
        var diagnostics = current.diagnostics
        var history: MigrationHistory?
        if !versionTrees.isEmpty {
            var versions: [VersionInput] = []
            for (source, tree) in versionTrees {
                let declared = Self.migrations(in: tree)
                let checked = checkSchema(of: [tree], syntaxErrors: syntaxErrors)
                diagnostics += checked.diagnostics
                // `VersionFiles.check` let only version files named by a version through.
                guard let number = source.version else { continue }
                versions.append(VersionInput(version: number, source: source, migrations: declared, schema: checked.schema))
            }
            let (checkedHistory, found) = HistoryChecker.check(
                versions: versions, migrations: migrations, firstPath: firstPath, current: current.schema)
            diagnostics += found
            history = checkedHistory
        }
        let schema = diagnostics.contains { $0.severity == .error } ? nil : current.schema
        return CheckedModels(
            sources: sources, schema: schema, history: history,
            diagnostics: diagnostics.sorted(byFileOrder: sources.map(\.path)))
    }

    /// The `migration` declarations of a file.
    private static func migrations(in tree: ModelFile) -> [MigrationDecl] {
        tree.declarations.compactMap { declaration in
            if case .migration(let migration) = declaration { migration } else { nil }
        }
    }

    /// Checks `trees` together as one schema (the current model's `.model` files, or one frozen
    /// version): the schema, `nil` when the files have an error, and their diagnostics, the syntax
    /// errors of those files among them. The trees are kept for the cascade filter only when those
    /// files have syntax errors.
    func checkSchema(of trees: consuming [ModelFile], syntaxErrors: [Diagnostic]) -> (schema: CheckedSchema?, diagnostics: [Diagnostic]) {
        let paths = Set(trees.map(\.source.path))
        let own = syntaxErrors.filter { paths.contains($0.range.file) }
        let keptForFilter = own.isEmpty ? [] : trees
        let checked = SchemaChecker.check(consume trees)
        let diagnostics = own + SyntaxCascadeFilter.filter(checked.diagnostics, files: keptForFilter, syntaxErrors: own)
        return (diagnostics.contains { $0.severity == .error } ? nil : checked.schema, diagnostics)
    }

    // MARK: Stage 4: generate (`Generation/`), then output (`Output/`)

    /// The templates of the run: the built-in ones, with the options' replacements.
    func loadTemplates() throws(GeneratorError) -> TemplateSet {
        do {
            guard let directory = options.templatesDirectory else {
                let templates = TemplateSet(overrides: options.templateOverrides)
                try templates.validate()
                return templates
            }
            return try TemplateSet(overridesIn: directory)
        } catch {
            throw GeneratorError(.templates, error.message)
        }
    }

    /// Generates one Swift file per source, and hands each to the output as soon as it is made, so
    /// a run holds one generated text at a time unless it keeps them in memory. A frozen version's
    /// file holds its `SchemaV…` enum; the newest one's also holds the migration plans.
    func generate(
        _ schema: CheckedSchema, history: MigrationHistory?, sources: [ModelSource], names: [String], templates: TemplateSet
    ) throws(GeneratorError) -> [GeneratedOutput] {
        options.stageObserver?(.generate)
        if options.modelsInVersion {
            try Self.checkModelsInVersion(history)
        }
        let generator = CodeGenerator(
            schema: schema, history: history, templates: templates, accessLevel: options.accessLevel,
            modelsInVersion: options.modelsInVersion, sources: sources)
        var output = OutputStage(options.output)
        do throws(GeneratorError) {
            for (source, name) in zip(sources, names) {
                let file: GeneratedFile
                do {
                    file = try generator.generate(source, named: name)
                } catch {
                    throw GeneratorError(.rendering, error.message)
                }
                try output.accept(file)
            }
            return try output.finish()
        } catch {
            output.abandon()
            throw error
        }
    }
}

extension GeneratorPipeline {
    /// Under `modelsInVersion` the model's classes exist only in its newest version's enum, so the
    /// model must be that version (docs/Migrations.md "The app's own SchemaLatest").
    static func checkModelsInVersion(_ history: MigrationHistory?) throws(GeneratorError) {
        guard let history, let newest = history.versions.last else {
            throw GeneratorError(
                .configuration,
                "modelsInVersion: the model has no frozen version to hold its classes; freeze it ('modelgen freeze --version 1.0.0'), "
                    + "or generate without modelsInVersion")
        }
        if let step = history.unfrozenStep {
            let shown = step.changes.prefix(3).map(\.description).joined(separator: "; ")
                + (step.changes.count > 3 ? "; … (\(step.changes.count) changes)" : "")
            let changes = shown.isEmpty ? "" : " (\(shown))"
            throw GeneratorError(
                .configuration,
                "modelsInVersion: the model changed since version \(newest.version)\(changes), so no frozen version holds its classes; "
                    + "freeze it as a new version ('modelgen freeze --version V'), or generate without modelsInVersion")
        }
    }
}

/// The output stage: keeps, writes or compares each generated file as it comes.
struct OutputStage {
    private let mode: OutputMode
    private let transaction: OutputWriter.Transaction?
    private var outputs: [GeneratedOutput] = []

    init(_ mode: OutputMode) {
        self.mode = mode
        if case .write = mode { transaction = OutputWriter.Transaction() } else { transaction = nil }
    }

    mutating func accept(_ file: GeneratedFile) throws(GeneratorError) {
        var output = GeneratedOutput(name: file.name, sourcePath: file.sourcePath, url: nil, contents: nil, state: .inMemory)
        switch mode {
        case .lint:
            return
        case .inMemory:
            output.contents = file.contents
        case .write(let directory):
            let url = directory.appendingPathComponent(file.name)
            output.url = url
            do {
                output.state = try transaction?.stage(PlannedOutput(url: url, contents: file.contents)) ?? .unchanged
            } catch {
                throw GeneratorError(.writing, error.description)
            }
        case .verify(let directory):
            let url = directory.appendingPathComponent(file.name)
            output.url = url
            output.state = OutputWriter.state(of: url, comparedWith: file.contents)
        }
        outputs.append(output)
    }

    /// Commits the written files; returns every output.
    func finish() throws(GeneratorError) -> [GeneratedOutput] {
        do {
            try transaction?.commit()
        } catch {
            throw GeneratorError(.writing, error.description)
        }
        return outputs
    }

    /// Removes whatever was staged (a later file failed).
    func abandon() {
        transaction?.rollback()
    }
}
