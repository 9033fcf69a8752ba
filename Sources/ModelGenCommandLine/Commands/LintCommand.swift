import ModelGenKit

/// `modelgen lint [--warnings-as-errors] [--diagnostics-format text|json] [--config FILE] INPUT...`
enum LintCommand: Command {
    static let name = "lint"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec()
        DiagnosticOptions.add(to: &spec)
        ConfigOption.add(to: &spec)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let diagnostics = DiagnosticOptions(arguments, configuration: try ConfigOption.load(arguments))
        let options = GeneratorOptions(warningsAsErrors: diagnostics.warningsAsErrors, output: .lint)
        do {
            let result = try ModelGen.run(.paths(arguments.positionals), options: options)
            diagnostics.report(result.diagnostics, sources: result.sources, console: console)
            return result.failed ? ExitStatus.failure : ExitStatus.success
        } catch {
            return try diagnostics.fail(with: error, console: console)
        }
    }
}
