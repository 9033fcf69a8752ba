import Foundation

/// The generator as a library: one call runs it all, as `modelgen` does.
///
///     let result = try ModelGen.run(.paths(["Models"]), options: GeneratorOptions(output: .write(directory: out)))
///     print(DiagnosticRenderer(sources: result.sources).render(result.diagnostics))
///
/// A run goes through the stages of `GeneratorStage`: load the `.model` files, parse each, check
/// them together into a `CheckedSchema`, then generate one Swift file per model file and keep,
/// write or compare it (`OutputMode`). Model problems are diagnostics in the result; a run that
/// cannot go on (bad input, templates or output) throws. docs/Architecture.md shows the pipeline.
public enum ModelGen {
    /// Runs the generator on `input`.
    ///
    /// - Returns: The diagnostics, the checked schema and the generated outputs. When the models
    ///   have errors (or warnings under `warningsAsErrors`) nothing is generated or written, and
    ///   `failed` is true.
    /// - Throws: `GeneratorError` when an input is missing, unreadable or past the size limit
    ///   (`.input`), two inputs would generate the same file name (`.outputNames`), the templates
    ///   cannot be read or parsed (`.templates`) or fail while rendering (`.rendering`), or an output
    ///   cannot be written (`.writing`). Nothing is written then.
    public static func run(_ input: GeneratorInput, options: GeneratorOptions = GeneratorOptions()) throws(GeneratorError) -> GeneratorResult {
        try GeneratorPipeline(options: options).run(input)
    }

    /// Formats model files in the canonical layout (`modelgen format`): the load and parse stages of
    /// `run`, then the formatter on each syntax tree. A file with syntax errors is not formatted.
    /// With `rewrite`, the files whose text changes are rewritten all or nothing (each through a
    /// temporary file renamed into place, keeping its permissions); the others are not touched.
    ///
    /// - Returns: Each file's formatted text, or only the syntax errors when any file has one.
    /// - Throws: `GeneratorError` of kind `.input` when an input is missing, unreadable or past the
    ///   size limit, or `.writing` when a rewritten file cannot be written (then none is changed).
    public static func format(
        _ input: GeneratorInput, rewrite: Bool = false, options: GeneratorOptions = GeneratorOptions()
    ) throws(GeneratorError) -> FormatResult {
        let pipeline = GeneratorPipeline(options: options)
        let parsed = pipeline.parse(try pipeline.load(input), keepingComments: true)
        let sources = parsed.sources.map(\.file)
        guard parsed.diagnostics.isEmpty else {
            return FormatResult(
                sources: sources, diagnostics: parsed.diagnostics.sorted(byFileOrder: sources.map(\.path)), formatted: [])
        }
        let result = FormatResult(sources: sources, diagnostics: [], formatted: parsed.trees.map(ModelFormatter.format))
        if rewrite { try FormatRewriter.rewrite(result.changed) }
        return result
    }

    /// Draws the checked schema of `input` (`modelgen diagram`): the load, parse and check stages of
    /// `run`, then the diagram, when the models have no error.
    ///
    /// - Returns: The diagnostics, and the diagram text when there is no error (warnings allowed).
    /// - Throws: `GeneratorError` of kind `.input` when an input is missing, unreadable or past the
    ///   size limit.
    public static func diagram(_ input: GeneratorInput, format: DiagramFormat, options: GeneratorOptions = GeneratorOptions()) throws(GeneratorError) -> DiagramResult {
        var options = options
        options.output = .lint
        options.warningsAsErrors = false
        let result = try run(input, options: options)
        let text = result.schema.map { diagram(of: $0, format: format) }
        return DiagramResult(sources: result.sources, diagnostics: result.diagnostics, text: text)
    }

    /// Freezes the current model as `version` (`modelgen freeze`, docs/Migrations.md): writes its checked
    /// schema, in canonical `.model` text, to `directory/<spelling>.modelversion` (`spelling` is the
    /// version as the user wrote it, `1.0` or `1.0.0`). The `.model` files of `input` are the model;
    /// its `.modelversion` files, and those already in `directory`, are the versions frozen before.
    ///
    /// - Returns: The current model's diagnostics and what became of the file: written, unchanged
    ///   (frozen already with this text), or nothing written because the model has errors, the
    ///   version is frozen with another text, or a newer version is frozen.
    /// - Throws: `GeneratorError` of kind `.input` when an input is missing, unreadable, past the size
    ///   limit or a badly named version file, or `.writing` when the file cannot be written.
    public static func freeze(
        _ input: GeneratorInput, as version: SchemaVersion, spelling: String? = nil, into directory: URL,
        options: GeneratorOptions = GeneratorOptions()
    ) throws(GeneratorError) -> FreezeResult {
        try Freezer.freeze(
            input, version: version, spelling: spelling ?? version.description, directory: directory,
            pipeline: GeneratorPipeline(options: options))
    }

    /// The model's history and migration plan (`modelgen migrations`): the load, parse and check
    /// stages of `run` (as `lint`), then the plan as text, when the model and its versions check (a
    /// step that cannot be inferred is printed, and reported as an error).
    ///
    /// - Returns: The diagnostics, the history, and its text (nil when the model or a version has errors).
    /// - Throws: `GeneratorError` of kind `.input` when an input is missing, unreadable, past the
    ///   size limit or a badly named version file.
    public static func migrations(_ input: GeneratorInput, options: GeneratorOptions = GeneratorOptions()) throws(GeneratorError) -> MigrationsResult {
        var options = options
        options.output = .lint
        let result = try run(input, options: options)
        let hasVersions = result.sources.contains { SchemaVersion.isVersionFile($0.path) }
        let modelChecks = !result.diagnostics.contains { $0.severity == .error && $0.rule != .migrationNotInferable }
        var text: String?
        if let history = result.history {
            text = MigrationPlanText.render(history)
        } else if !hasVersions, modelChecks {
            text = MigrationPlanText.noHistory
        }
        return MigrationsResult(
            sources: result.sources, diagnostics: result.diagnostics, history: result.history, text: text, failed: result.failed)
    }

    /// Imports SwiftData models (`modelgen import`, docs/CommandLine.md): reads the `@Model` classes,
    /// the Codable structs and enums they use, and `VersionedSchema` and `SchemaMigrationPlan` enums
    /// of `sources` (Swift files), and makes the `.model` file of each source that declares models
    /// (`directory/Stem.model`, formatted as `format` writes it) and one frozen version per
    /// `VersionedSchema` (`directory/ModelVersions/V.modelversion`, as `freeze` writes it). What the
    /// language does not hold (computed properties, methods, extensions, init bodies beyond
    /// assignments) is listed in `messages` as notes saying where it must go. The files are then
    /// linted (`diagnostics`). With `write`, they are written all or nothing; a file that exists with
    /// other content is replaced only with `force`.
    ///
    /// - Returns: The messages about the Swift read, the files, their diagnostics and what was written.
    ///   A Swift source that cannot be read gives an error message and no file.
    /// - Throws: `GeneratorError` of kind `.writing` when a file cannot be written (then none is changed).
    public static func `import`(
        _ sources: [SourceFile], into directory: String, write: Bool = false, force: Bool = false
    ) throws(GeneratorError) -> ImportResult {
        try Importer.run(sources, directory: directory, write: write, force: force)
    }

    /// The diagram of a checked schema: entities with their attributes, inheritance arrows, and
    /// relationships with cardinality, inverse and delete rules (docs/Format-and-Diagram.md).
    public static func diagram(of schema: CheckedSchema, format: DiagramFormat) -> String {
        switch format {
        case .mermaid: MermaidDiagram.render(schema)
        case .dot: DotDiagram.render(schema)
        }
    }
}

/// What `ModelGen.format` produced.
public struct FormatResult: Sendable {
    /// The model files read, in input order.
    public var sources: [SourceFile]
    /// The syntax errors, sorted; when there is any, nothing is formatted.
    public var diagnostics: [Diagnostic]
    /// The formatted text of each source, in order (empty when there are diagnostics).
    public var formatted: [String]

    /// The sources whose formatted text differs from their bytes, with that text.
    public var changed: [(source: SourceFile, text: String)] {
        zip(sources, formatted).filter { $0.bytes != Array($1.utf8) }.map { ($0, $1) }
    }
}

/// The diagram languages of `modelgen diagram --format`.
public enum DiagramFormat: String, CaseIterable, Sendable {
    case mermaid, dot
}

/// What `ModelGen.diagram` produced.
public struct DiagramResult: Sendable {
    /// The model files read, in input order.
    public var sources: [SourceFile]
    /// Every diagnostic, sorted.
    public var diagnostics: [Diagnostic]
    /// The diagram; `nil` when the models have errors.
    public var text: String?
}

/// What `ModelGen.migrations` produced.
public struct MigrationsResult: Sendable {
    /// The files read, in input order.
    public var sources: [SourceFile]
    /// Every diagnostic, sorted.
    public var diagnostics: [Diagnostic]
    /// The history; nil without a version, or when the model or a version has errors.
    public var history: MigrationHistory?
    /// The plan as `modelgen migrations` prints it; nil when the model or a version has errors.
    public var text: String?
    /// Whether `modelgen migrations` exits with status 1, as `lint` would: an error, or a warning
    /// under `warningsAsErrors`.
    public var failed: Bool
}
