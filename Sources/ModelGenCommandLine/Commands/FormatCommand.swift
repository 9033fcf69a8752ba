import ModelGenKit

/// `modelgen format [--check | --in-place] [--config FILE] INPUT...`
///
/// Without a flag the formatted text of every input goes to standard output, one file after the
/// other. `--check` writes nothing and exits 1 naming each file that is not formatted.
/// `--in-place` rewrites the files that would change (each through a temporary file renamed into
/// place, keeping its permissions) and leaves the others untouched. A file with syntax errors
/// stops the run before anything is printed or written: its diagnostics, exit status 1.
/// A configuration file is read and checked; none of its settings changes formatting.
enum FormatCommand: Command {
    static let name = "format"
    static let checkFlag = "--check"
    static let inPlaceFlag = "--in-place"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec(flags: [checkFlag, inPlaceFlag])
        ConfigOption.add(to: &spec)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        if arguments.has(checkFlag), arguments.has(inPlaceFlag) {
            throw UsageError("'\(checkFlag)' and '\(inPlaceFlag)' cannot be used together")
        }
        _ = try ConfigOption.load(arguments)
        let result: FormatResult
        do {
            result = try ModelGen.format(.paths(arguments.positionals), rewrite: arguments.has(inPlaceFlag))
        } catch {
            return try DiagnosticOptions.text.fail(with: error, console: console)
        }
        if !result.diagnostics.isEmpty {
            DiagnosticOptions.text.report(result.diagnostics, sources: result.sources, console: console)
            return ExitStatus.failure
        }
        if arguments.has(checkFlag) {
            let changed = result.changed
            for (source, _) in changed {
                console.error("modelgen: '\(source.path)' is not formatted\n")
            }
            return changed.isEmpty ? ExitStatus.success : ExitStatus.failure
        }
        if !arguments.has(inPlaceFlag) {
            console.out(result.formatted.joined())
        }
        return ExitStatus.success
    }
}
