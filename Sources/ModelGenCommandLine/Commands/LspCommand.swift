import ModelGenKit

/// `modelgen lsp [--stdio]`: the language server for `.model` files over standard input and
/// output (docs/Editors.md). `--stdio` is accepted because editors' clients pass it.
enum LspCommand: Command {
    static let name = "lsp"
    static let stdioFlag = "--stdio"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec()
        spec.flags.insert(stdioFlag)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("'lsp' takes no input: the editor names the workspace folders and sends the documents")
        }
        return LanguageServer.serve(version: CommandLineTool.version)
    }
}
