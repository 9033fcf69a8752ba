import ModelGenKit

/// `modelgen diagram [--format mermaid|dot] [--config FILE] INPUT...`
///
/// Checks the inputs as one schema, like `lint`, and prints the diagram of the checked schema on
/// standard output. Diagnostics go to standard error; with errors nothing is printed and the exit
/// status is 1 (warnings alone do not stop the diagram). A configuration file is read and checked;
/// none of its settings changes a diagram.
enum DiagramCommand: Command {
    static let name = "diagram"
    static let formatOption = "--format"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec(options: [formatOption: DiagramFormat.allCases.map(\.rawValue)])
        ConfigOption.add(to: &spec)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        _ = try ConfigOption.load(arguments)
        let format = arguments.options[formatOption].flatMap(DiagramFormat.init(rawValue:)) ?? .mermaid
        let result: DiagramResult
        do {
            result = try ModelGen.diagram(.paths(arguments.positionals), format: format)
        } catch {
            return try DiagnosticOptions.text.fail(with: error, console: console)
        }
        DiagnosticOptions.text.report(result.diagnostics, sources: result.sources, console: console)
        guard let text = result.text else { return ExitStatus.failure }
        console.out(text)
        return ExitStatus.success
    }
}
