import Foundation

/// One generated Swift file of a run.
public struct GeneratedOutput: Hashable, Sendable {
    /// The file name (`Trips.model.swift`, `Travel_Trips.model.swift`; docs/CommandLine.md).
    public var name: String
    /// The `.model` file it was generated from, as the user named it.
    public var sourcePath: String
    /// Where it is (or would be) on disk; `nil` for `OutputMode.inMemory`.
    public var url: URL?
    /// The generated text for `OutputMode.inMemory`; `nil` when it was written or compared (a run
    /// does not keep every file's text).
    public var contents: String?
    /// What happened to it.
    public var state: OutputState
}

/// What a run found and produced: the result of `ModelGen.run`.
public struct GeneratorResult: Sendable {
    /// The model files read, in input order (their text is what diagnostics point into).
    public var sources: [SourceFile]
    /// Every diagnostic, sorted by file (input order), then position.
    public var diagnostics: [Diagnostic]
    /// The checked schema of the current model (its `.model` files); `nil` when any error was found.
    public var schema: CheckedSchema?
    /// The model's history: its frozen versions (`.modelversion` inputs) and the steps between them;
    /// `nil` without a version, or when the model or a version has errors (docs/Migrations.md).
    public var history: MigrationHistory? = nil
    /// One generated file per model file, in input order; empty for `OutputMode.lint` and when the
    /// models failed the check.
    public var outputs: [GeneratedOutput]
    /// Whether warnings counted as errors in this run.
    public var warningsAsErrors: Bool

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }

    /// True when the models have errors (or warnings, under `warningsAsErrors`), or when
    /// `OutputMode.verify` found a missing or stale file: `modelgen` then exits with status 1.
    public var failed: Bool {
        errorCount > 0 || (warningsAsErrors && warningCount > 0)
            || outputs.contains { $0.state == .missing || $0.state == .stale }
    }
}

/// A run that cannot go on: bad usage or input, unreadable templates, an output that cannot be
/// written. `modelgen` prints the diagnostics found before it, then the message, and exits with
/// status 2; nothing is written.
public struct GeneratorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, by stage.
    public enum Kind: Hashable, Sendable {
        /// An input is missing, unreadable or not a `.model` file, none was found, or they are too large.
        case input
        /// Two inputs would generate files of the same name.
        case outputNames
        /// The templates folder or a template in it cannot be read or parsed.
        case templates
        /// A template failed while rendering (for example a partial that includes itself forever).
        case rendering
        /// A generated file cannot be written.
        case writing
        /// A `modelgen.json` file cannot be read, or holds an unknown key or a bad value.
        case configuration
    }

    public var kind: Kind
    public var message: String
    /// The diagnostics (warnings) the run found before it stopped, and the sources they point into:
    /// empty unless it stopped after checking the models.
    public var diagnostics: [Diagnostic] = []
    public var sources: [SourceFile] = []

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
