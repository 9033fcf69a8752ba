import ModelGenKit

/// The `--diagnostics-format` and `--warnings-as-errors` options shared by `lint` and `generate`.
struct DiagnosticOptions {
    static let formatOption = "--diagnostics-format"
    static let warningsAsErrorsFlag = "--warnings-as-errors"

    /// Adds both to a command's spec.
    static func add(to spec: inout ArgumentSpec) {
        spec.flags.insert(warningsAsErrorsFlag)
        spec.options[formatOption] = ["text", "json"]
    }

    var json: Bool
    var warningsAsErrors: Bool

    init(_ arguments: ParsedArguments) {
        json = arguments.options[Self.formatOption] == "json"
        warningsAsErrors = arguments.has(Self.warningsAsErrorsFlag)
    }

    /// Text: diagnostics and a summary line on standard error (nothing when there are none).
    /// JSON: one array on standard output (`[]` when there are none).
    func report(_ diagnostics: [Diagnostic], sources: [SourceFile], console: Console) {
        if json {
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
}
