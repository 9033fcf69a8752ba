import ModelGenKit

/// `modelgen diagram [--format mermaid|dot] INPUT...`
///
/// Checks the inputs as one schema, like `lint`, and prints the diagram of the checked schema on
/// standard output. Diagnostics go to standard error; with errors nothing is printed and the exit
/// status is 1 (warnings alone do not stop the diagram).
enum DiagramCommand: Command {
    static let name = "diagram"
    static let formatOption = "--format"

    /// The diagram languages, by `--format` value.
    enum Format: String, CaseIterable {
        case mermaid, dot
    }

    static var argumentSpec: ArgumentSpec {
        ArgumentSpec(options: [formatOption: Format.allCases.map(\.rawValue)])
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let format = arguments.options[formatOption].flatMap(Format.init(rawValue:)) ?? .mermaid
        let loaded: [(input: ModelInput, source: SourceFile)]
        do {
            loaded = try ModelLoader.load(arguments.positionals)
        } catch {
            throw UsageError(error.message)
        }
        let result = LintRun.run(loaded.map(\.source))
        DiagnosticOptions(ParsedArguments()).report(result.diagnostics, sources: result.sources, console: console)
        guard result.errorCount == 0, let schema = result.schema else { return ExitStatus.failure }
        switch format {
        case .mermaid: console.out(MermaidDiagram.render(schema))
        case .dot: console.out(DotDiagram.render(schema))
        }
        return ExitStatus.success
    }
}
