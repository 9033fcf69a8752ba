import Foundation
import ModelGenKit

/// `modelgen generate [--output DIR] [--access-level internal|public|package] [--templates DIR]
/// [--check] [--warnings-as-errors] [--diagnostics-format text|json] INPUT...`
///
/// Everything is computed before anything is written; on exit status 1 or 2 no file is created or changed.
enum GenerateCommand: Command {
    static let name = "generate"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec()
        DiagnosticOptions.add(to: &spec)
        spec.options["--output"] = .some(nil)
        spec.options["--access-level"] = AccessLevel.allCases.map(\.rawValue)
        spec.options["--templates"] = .some(nil)
        spec.flags.insert("--check")
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let options = DiagnosticOptions(arguments)
        let accessLevel = arguments.options["--access-level"].flatMap(AccessLevel.init(rawValue:)) ?? .internal
        let outputDirectory = URL(fileURLWithPath: arguments.options["--output"] ?? ".")

        let templates: TemplateSet
        do throws(TemplateError) {
            templates = try arguments.options["--templates"].map { path throws(TemplateError) in
                try TemplateSet(overridesIn: URL(fileURLWithPath: path))
            } ?? TemplateSet()
        } catch {
            throw UsageError(error.message)
        }
        let loaded: [(input: ModelInput, source: SourceFile)]
        do {
            loaded = try ModelLoader.load(arguments.positionals)
        } catch {
            throw UsageError(error.message)
        }
        let inputs = loaded.map { GenerationInput($0.input) }
        do {
            _ = try OutputNaming.outputNames(for: inputs)
        } catch {
            throw UsageError(error.description)
        }

        let result = LintRun.run(loaded.map(\.source))
        // LANG-GENERATION: constructs that are checked but not generated yet are errors here.
        let pending = result.schema.map(PendingGeneration.diagnostics(for:)) ?? []
        let diagnostics = LintRun.sortDiagnostics(result.diagnostics + pending, fileOrder: result.sources.map(\.path))
        options.report(diagnostics, sources: result.sources, console: console)
        guard !result.fails(warningsAsErrors: options.warningsAsErrors), pending.isEmpty, let schema = result.schema else {
            return ExitStatus.failure
        }

        let planned: [PlannedOutput]
        do {
            let generator = CodeGenerator(templates: templates, accessLevel: accessLevel)
            planned = try GenerationPlan.outputs(for: inputs, schema: schema, generator: generator, directory: outputDirectory)
        } catch {
            console.error("modelgen: \(error.message)\n")
            return ExitStatus.usage
        }

        let writer = OutputWriter()
        if arguments.has("--check") {
            var status = ExitStatus.success
            for (output, state) in zip(planned, writer.states(of: planned)) where state != .upToDate {
                let shown = displayPath(output.url.lastPathComponent, in: arguments.options["--output"])
                console.error("modelgen: \(state == .missing ? "missing" : "stale") output '\(shown)'\n")
                status = ExitStatus.failure
            }
            return status
        }
        do {
            try writer.write(planned)
        } catch {
            console.error("modelgen: \(error.description)\n")
            return ExitStatus.usage
        }
        return ExitStatus.success
    }

    /// An output's path as the user would write it: the `--output` folder as given, then the name.
    private static func displayPath(_ name: String, in directory: String?) -> String {
        guard let directory, !directory.isEmpty, directory != "." else { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
