import ModelGenKit

/// `modelgen lint [--warnings-as-errors] [--diagnostics-format text|json] INPUT...`
enum LintCommand: Command {
    static let name = "lint"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec()
        DiagnosticOptions.add(to: &spec)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let options = DiagnosticOptions(arguments)
        let loaded: [(input: ModelInput, source: SourceFile)]
        do {
            loaded = try ModelLoader.load(arguments.positionals)
        } catch {
            throw UsageError(error.message)
        }
        let result = LintRun.run(loaded.map(\.source))
        options.report(result.diagnostics, sources: result.sources, console: console)
        return result.fails(warningsAsErrors: options.warningsAsErrors) ? ExitStatus.failure : ExitStatus.success
    }
}
