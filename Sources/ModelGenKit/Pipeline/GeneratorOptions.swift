import Foundation

/// What a run reads: model files on disk, or model text already in memory.
public enum GeneratorInput: Sendable {
    /// `.model` files and folders (searched recursively), as the command line's INPUT names them.
    case paths([String])
    /// Model files in memory (tests, fuzzing, benchmarks, tools that build models themselves).
    case sources([ModelSource])

    /// Model files in memory, each named directly (its output is named from its file name).
    public static func files(_ files: [SourceFile]) -> GeneratorInput {
        .sources(files.map { ModelSource($0) })
    }
}

/// What a run does with the code it generates.
public enum OutputMode: Hashable, Sendable {
    /// Stop after checking: diagnostics only (`modelgen lint`).
    case lint
    /// Keep the generated files in the result (`GeneratedOutput.contents`).
    case inMemory
    /// Write the generated files into `directory`, all or nothing; files whose content would not
    /// change are not touched (`modelgen generate --output DIR`).
    case write(directory: URL)
    /// Write nothing; compare with the files in `directory` and report each missing or stale one
    /// (`modelgen generate --check`).
    case verify(directory: URL)
}

/// The stages of a run, in order (see docs/Architecture.md).
public enum GeneratorStage: String, Hashable, Sendable, CaseIterable {
    /// Find and read the `.model` files (`Input/`).
    case load
    /// Lex and parse each file into a syntax tree (`Syntax/`).
    case parse
    /// Resolve and check all files together into one schema (`Semantics/`).
    case check
    /// Render one Swift file per model file through the templates, and write or compare it (`Generation/`, `Output/`).
    case generate
}

/// How a run behaves: the options of `modelgen generate` (also read from `modelgen.json`, docs/Plugins.md).
public struct GeneratorOptions: Sendable {
    /// The largest total size of model text a run accepts by default: 16 MB (about 45,000
    /// entities of typical models). Past it a run stops with an `.input` error before reading the
    /// files, rather than needing more memory than the machine has.
    public static let defaultMaximumInputBytes = 16 * 1_048_576

    /// The access level of generated declarations (`--access-level`).
    public var accessLevel: AccessLevel
    /// A folder whose `*.mustache` files replace the built-in templates of the same name (`--templates`).
    public var templatesDirectory: URL?
    /// Whether a warning fails the run like an error (`--warnings-as-errors`).
    public var warningsAsErrors: Bool
    /// What to do with the generated code.
    public var output: OutputMode
    /// Whether the current model's classes, enums and structs are generated only inside its frozen
    /// version's `SchemaV…` enum, with no top-level names (`--models-in-version`, docs/Migrations.md
    /// "The app's own SchemaLatest"): the app names them itself, as SwiftData apps do
    /// (`typealias SchemaLatest = SchemaV3_0_0`, `typealias Trip = SchemaLatest.Trip`). The model must
    /// then be frozen: a run whose model changed since its newest version fails.
    public var modelsInVersion: Bool = false
    /// The largest total size, in bytes, of the model files of one run.
    public var maximumInputBytes: Int
    /// Called as each stage starts (benchmarks time the stages with it).
    public var stageObserver: (@Sendable (GeneratorStage) -> Void)?
    /// Templates given in memory, by name, replacing built-in ones (tests); a `templatesDirectory` wins.
    var templateOverrides: [String: String] = [:]

    public init(
        accessLevel: AccessLevel = .internal, templatesDirectory: URL? = nil, warningsAsErrors: Bool = false,
        output: OutputMode = .inMemory, maximumInputBytes: Int = GeneratorOptions.defaultMaximumInputBytes,
        stageObserver: (@Sendable (GeneratorStage) -> Void)? = nil
    ) {
        self.accessLevel = accessLevel
        self.templatesDirectory = templatesDirectory
        self.warningsAsErrors = warningsAsErrors
        self.output = output
        self.maximumInputBytes = maximumInputBytes
        self.stageObserver = stageObserver
    }
}
