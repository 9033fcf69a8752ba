import ModelGenKit

/// `modelgen migrations [--warnings-as-errors] [--diagnostics-format text|json] [--config FILE] INPUT...` (docs/Migrations.md)
///
/// Checks the inputs as `lint` does (the `.model` files are the current model, the `.modelversion`
/// files its history) and prints the migration plan on standard output: each step between
/// consecutive versions, each change and whether it is inferred or needs a custom stage's code, then
/// the step from the newest version to the current model when it changed since. Diagnostics go to
/// standard error (JSON: standard output, after the plan is left out). Exit status as `lint`.
enum MigrationsCommand: Command {
    static let name = "migrations"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec()
        DiagnosticOptions.add(to: &spec)
        ConfigOption.add(to: &spec)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let diagnostics = DiagnosticOptions(arguments, configuration: try ConfigOption.load(arguments))
        do {
            let result = try ModelGen.migrations(
                .paths(arguments.positionals), options: GeneratorOptions(warningsAsErrors: diagnostics.warningsAsErrors))
            if diagnostics.format == .text, let text = result.text { console.out(text) }
            diagnostics.report(result.diagnostics, sources: result.sources, console: console)
            return result.failed ? ExitStatus.failure : ExitStatus.success
        } catch {
            return try diagnostics.fail(with: error, console: console)
        }
    }
}
