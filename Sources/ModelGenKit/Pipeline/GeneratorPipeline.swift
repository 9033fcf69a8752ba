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
        var checked = check(parse(sources))
        if generates { reportPendingGeneration(&checked) }
        var result = GeneratorResult(
            sources: sources.map(\.file), diagnostics: checked.diagnostics, schema: checked.schema, outputs: [],
            warningsAsErrors: options.warningsAsErrors)
        result.history = checked.history
        guard !result.failed, let schema = checked.schema, let templates else { return result }
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
    func check(_ parsed: ParsedModels) -> CheckedModels {
        options.stageObserver?(.check)
        var modelTrees: [ModelFile] = []
        var versionIndexes: [Int] = []
        for (index, source) in parsed.sources.enumerated() {
            if source.isVersionFile { versionIndexes.append(index) } else { modelTrees.append(parsed.trees[index]) }
        }
        let current = checkSchema(of: modelTrees, syntaxErrors: parsed.diagnostics)
        var diagnostics = current.diagnostics
        var history: MigrationHistory?
        if !versionIndexes.isEmpty {
            var versions: [VersionInput] = []
            for index in versionIndexes {
                let checked = checkSchema(of: [parsed.trees[index]], syntaxErrors: parsed.diagnostics)
                diagnostics += checked.diagnostics
                // `VersionFiles.check` let only version files named by a version through.
                guard let number = parsed.sources[index].version else { continue }
                versions.append(VersionInput(version: number, source: parsed.sources[index], tree: parsed.trees[index], schema: checked.schema))
            }
            let (checkedHistory, found) = HistoryChecker.check(versions: versions, currentTrees: modelTrees, current: current.schema)
            diagnostics += found
            history = checkedHistory
        }
        let schema = diagnostics.contains { $0.severity == .error } ? nil : current.schema
        return CheckedModels(
            sources: parsed.sources, schema: schema, history: history,
            diagnostics: diagnostics.sorted(byFileOrder: parsed.sources.map(\.path)))
    }

    /// Checks `trees` together as one schema (the current model's `.model` files, or one frozen
    /// version): the schema, `nil` when the files have an error, and their diagnostics, the syntax
    /// errors of those files among them.
    func checkSchema(of trees: [ModelFile], syntaxErrors: [Diagnostic]) -> (schema: CheckedSchema?, diagnostics: [Diagnostic]) {
        let paths = Set(trees.map(\.source.path))
        let own = syntaxErrors.filter { paths.contains($0.range.file) }
        let checked = SchemaChecker.check(trees)
        let diagnostics = own + SyntaxCascadeFilter.filter(checked.diagnostics, files: trees, syntaxErrors: own)
        return (diagnostics.contains { $0.severity == .error } ? nil : checked.schema, diagnostics)
    }

    /// LANG-GENERATION: what the schema uses that generation cannot write yet is an error of a run
    /// that generates (`PendingGeneration`); such a run then generates nothing.
    func reportPendingGeneration(_ checked: inout CheckedModels) {
        guard let schema = checked.schema else { return }
        var pending = PendingGeneration.diagnostics(for: schema)
        for version in checked.history?.versions ?? [] { pending += PendingGeneration.diagnostics(for: version.schema) }
        guard !pending.isEmpty else { return }
        checked.diagnostics = (checked.diagnostics + pending).sorted(byFileOrder: checked.sources.map(\.path))
        checked.schema = nil
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
        let generator = CodeGenerator(schema: schema, history: history, templates: templates, accessLevel: options.accessLevel)
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
