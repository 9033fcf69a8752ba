import Foundation
import ModelGenKit

/// `--config FILE` (docs/Plugins.md), which every command that reads models takes: the settings of a
/// `modelgen.json`, under the command-line flags.
enum ConfigOption {
    static let name = "--config"

    static func add(to spec: inout ArgumentSpec) {
        spec.options[name] = .some(nil)
    }

    /// The configuration named by `--config`, or an empty one. A file that cannot be read, an
    /// unknown key or a bad value is a usage error naming the file and the key.
    static func load(_ arguments: ParsedArguments) throws(UsageError) -> GeneratorConfiguration {
        guard let path = arguments.options[name] else { return GeneratorConfiguration() }
        do {
            return try GeneratorConfiguration.load(from: URL(fileURLWithPath: path))
        } catch {
            throw UsageError(error.message)
        }
    }
}

/// The `--diagnostics-format` and `--warnings-as-errors` options shared by `lint` and `generate`,
/// and how diagnostics are printed.
package struct DiagnosticOptions {
    static let formatOption = "--diagnostics-format"
    static let warningsAsErrorsFlag = "--warnings-as-errors"

    /// Adds both to a command's spec.
    static func add(to spec: inout ArgumentSpec) {
        spec.flags.insert(warningsAsErrorsFlag)
        spec.options[formatOption] = DiagnosticsFormat.allCases.map(\.rawValue)
    }

    var format: DiagnosticsFormat
    var warningsAsErrors: Bool

    /// The options given: flags first, then the configuration file, then the defaults.
    init(_ arguments: ParsedArguments, configuration: GeneratorConfiguration = GeneratorConfiguration()) {
        format = arguments.options[Self.formatOption].flatMap(DiagnosticsFormat.init(rawValue:))
            ?? configuration.diagnosticsFormat ?? .text
        warningsAsErrors = arguments.has(Self.warningsAsErrorsFlag) || (configuration.warningsAsErrors ?? false)
    }

    /// Text (the default for `format` and `diagram`).
    package static let text = DiagnosticOptions(format: .text, warningsAsErrors: false)

    private init(format: DiagnosticsFormat, warningsAsErrors: Bool) {
        self.format = format
        self.warningsAsErrors = warningsAsErrors
    }

    /// Text: diagnostics and a summary line on standard error (nothing when there are none).
    /// JSON: one array on standard output (`[]` when there are none).
    package func report(_ diagnostics: [Diagnostic], sources: [SourceFile], console: Console) {
        if format == .json {
            console.out(DiagnosticJSON.encode(diagnostics))
            return
        }
        guard !diagnostics.isEmpty else { return }
        console.error(DiagnosticRenderer(sources: sources).render(diagnostics))
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count { $0.severity == .warning }
        let summary = DiagnosticRenderer.summary(errors: errors, warnings: warnings)
        if !summary.isEmpty { console.error(summary + "\n") }
    }

    /// Reports what a run found before it stopped, then turns the error into the command's failure:
    /// a usage error (printed with a pointer to the command's help) for bad input, configuration,
    /// templates or output names; otherwise the message alone, exit status 2.
    package func fail(with error: GeneratorError, console: Console) throws(UsageError) -> Int32 {
        if !error.diagnostics.isEmpty { report(error.diagnostics, sources: error.sources, console: console) }
        switch error.kind {
        case .input, .outputNames, .templates, .configuration:
            throw UsageError(error.message)
        case .rendering, .writing:
            console.error("modelgen: \(error.message)\n")
            return ExitStatus.usage
        }
    }
}
