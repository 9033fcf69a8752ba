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

/// What the check stage hands to the generate stage: the checked schema and every diagnostic.
struct CheckedModels {
    var sources: [ModelSource]
    /// `nil` when any error was found.
    var schema: CheckedSchema?
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
        guard !result.failed, let schema = checked.schema, let templates else { return result }
        if sources.reduce(0, { $0 + $1.file.bytes.count }) >= FreedMemory.minimumInputBytes { FreedMemory.release() }
        do {
            result.outputs = try generate(schema, sources: sources, names: names, templates: templates)
        } catch {
            var error = error
            (error.diagnostics, error.sources) = (result.diagnostics, result.sources)
            throw error
        }
        return result
    }

    // MARK: Stage 1: load (`Input/`)

    /// The model files of `input`, read, in input order.
    func load(_ input: GeneratorInput) throws(GeneratorError) -> [ModelSource] {
        options.stageObserver?(.load)
        do {
            switch input {
            case .paths(let paths): return try SourceLoader.load(paths, maximumBytes: options.maximumInputBytes)
            case .sources(let sources): return try SourceLoader.check(sources, maximumBytes: options.maximumInputBytes)
            }
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

    /// Checks every file together. Semantic rules run on whatever parsed, also when some files have
    /// `syntax` errors, so one run reports every error; diagnostics that a syntax error may have
    /// caused are dropped (`SyntaxCascadeFilter`). A run with any error has no schema.
    ///
    /// The syntax trees are handed on, not kept: without syntax errors nothing here needs them
    /// again, and the checker frees them while it builds the schema (the run's peak of memory).
    func check(_ parsed: consuming ParsedModels) -> CheckedModels {
        options.stageObserver?(.check)
        let sources = parsed.sources
        let syntaxErrors = parsed.diagnostics
        let trees = parsed.trees
        parsed.trees = []
        let keptForFilter = syntaxErrors.isEmpty ? [] : trees
        let checked = SchemaChecker.check(consume trees)
        var diagnostics = syntaxErrors
        diagnostics += SyntaxCascadeFilter.filter(checked.diagnostics, files: keptForFilter, syntaxErrors: syntaxErrors)
        let schema = diagnostics.contains { $0.severity == .error } ? nil : checked.schema
        return CheckedModels(
            sources: sources, schema: schema, diagnostics: diagnostics.sorted(byFileOrder: sources.map(\.path)))
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
    /// a run holds one generated text at a time unless it keeps them in memory.
    func generate(
        _ schema: CheckedSchema, sources: [ModelSource], names: [String], templates: TemplateSet
    ) throws(GeneratorError) -> [GeneratedOutput] {
        options.stageObserver?(.generate)
        let generator = CodeGenerator(schema: schema, templates: templates, accessLevel: options.accessLevel)
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
