/// One `modelgen` command. Add a command by writing a type in `Commands/` and listing it in
/// `CommandLineTool.commands`; its help text lives in `Usage`.
package protocol Command {
    /// The verb on the command line (`lint`).
    static var name: String { get }
    /// What it accepts.
    static var argumentSpec: ArgumentSpec { get }
    /// Runs with parsed arguments and returns the exit status. A `UsageError` means exit status 2.
    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32
}

/// Dispatches `modelgen COMMAND ARGS…`, `modelgen help [COMMAND]`, `--help` and `--version`.
///
/// The commands live in this library, ModelGenKit's only, apart from `pull`, which opens a store
/// and so needs ModelStore: the `modelgen` executable adds it; `ModelGenPluginTool`, the tool the
/// plugins run, does not, so building a package that uses the plugins compiles ModelStore once, for
/// the package, not a second time for the tool (docs/Architecture.md, "The command line").
package enum CommandLineTool {
    /// The version printed by `--version`.
    package static let version = "0.1.0"

    /// Every command of this library (not `pull`).
    static var commands: [any Command.Type] { [LintCommand.self, GenerateCommand.self, FormatCommand.self, DiagramCommand.self, FreezeCommand.self, MigrationsCommand.self, ImportCommand.self, LspCommand.self, HelpCommand.self] }

    /// Runs `arguments` with this library's commands and `extra` ones (the `modelgen` executable's `pull`).
    package static func run(_ arguments: [String], console: Console, adding extra: [any Command.Type] = []) -> Int32 {
        guard let verb = arguments.first else {
            console.error(Usage.overview)
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "--version", "-V":
            console.out("modelgen \(version)\n")
            return ExitStatus.success
        case "--help", "-h":
            return HelpCommand.show(topic: rest.first, console: console)
        default:
            break
        }
        guard let command = (commands + extra).first(where: { $0.name == verb }) else {
            let what = verb.hasPrefix("-") ? "unknown option '\(verb)'" : "unknown command '\(verb)'"
            console.error("modelgen: \(what); see 'modelgen help'\n")
            return ExitStatus.usage
        }
        do throws(UsageError) {
            if rest.contains("--help") || rest.contains("-h") {
                return HelpCommand.show(topic: verb, console: console)
            }
            let parsed = try ArgumentParser(command: verb, spec: command.argumentSpec).parse(rest)
            return try command.run(parsed, console: console)
        } catch {
            console.error("modelgen: \(error.message); see 'modelgen help \(verb)'\n")
            return ExitStatus.usage
        }
    }
}
