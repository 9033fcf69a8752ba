import Foundation
import ModelGenKit

/// `modelgen generate [--output DIR] [--access-level internal|public|package] [--templates DIR]
/// [--check] [--models-in-version] [--warnings-as-errors] [--diagnostics-format text|json] [--config FILE] INPUT...`
///
/// One call of `ModelGen.run`, which loads, parses, checks, generates and writes (or, with
/// `--check`, compares). On exit status 1 or 2 no file is created or changed.
enum GenerateCommand: Command {
    static let name = "generate"
    static let outputOption = "--output"
    static let accessLevelOption = "--access-level"
    static let templatesOption = "--templates"
    static let checkFlag = "--check"
    static let modelsInVersionFlag = "--models-in-version"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec()
        DiagnosticOptions.add(to: &spec)
        ConfigOption.add(to: &spec)
        spec.options[outputOption] = .some(nil)
        spec.options[accessLevelOption] = AccessLevel.allCases.map(\.rawValue)
        spec.options[templatesOption] = .some(nil)
        spec.flags.insert(checkFlag)
        spec.flags.insert(modelsInVersionFlag)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let configuration = try ConfigOption.load(arguments)
        let diagnostics = DiagnosticOptions(arguments, configuration: configuration)
        // The output folder as the user wrote it (for messages), and as a URL.
        let outputArgument = arguments.options[outputOption] ?? configuration.outputDirectory?.path
        let outputDirectory = URL(fileURLWithPath: outputArgument ?? ".")
        var options = GeneratorOptions(
            accessLevel: arguments.options[accessLevelOption].flatMap(AccessLevel.init(rawValue:))
                ?? configuration.accessLevel ?? .internal,
            templatesDirectory: arguments.options[templatesOption].map { URL(fileURLWithPath: $0) }
                ?? configuration.templatesDirectory,
            warningsAsErrors: diagnostics.warningsAsErrors)
        options.modelsInVersion = arguments.has(modelsInVersionFlag) || configuration.modelsInVersion == true
        options.output = arguments.has(checkFlag) ? .verify(directory: outputDirectory) : .write(directory: outputDirectory)

        let result: GeneratorResult
        do {
            result = try ModelGen.run(.paths(arguments.positionals), options: options)
        } catch {
            return try diagnostics.fail(with: error, console: console)
        }
        diagnostics.report(result.diagnostics, sources: result.sources, console: console)
        for output in result.outputs where output.state == .missing || output.state == .stale {
            let shown = displayPath(output.name, in: outputArgument)
            console.error("modelgen: \(output.state == .missing ? "missing" : "stale") output '\(shown)'\n")
        }
        return result.failed ? ExitStatus.failure : ExitStatus.success
    }

    /// An output's path as the user would write it: the `--output` folder as given, then the name.
    private static func displayPath(_ name: String, in directory: String?) -> String {
        guard let directory, !directory.isEmpty, directory != "." else { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
