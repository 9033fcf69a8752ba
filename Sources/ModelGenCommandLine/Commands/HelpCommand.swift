/// `modelgen help [COMMAND]`: prints the overview or one command's help on standard output.
enum HelpCommand: Command {
    static let name = "help"
    static let argumentSpec = ArgumentSpec()

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard arguments.positionals.count <= 1 else { throw UsageError("'help' takes at most one command name") }
        return show(topic: arguments.positionals.first, console: console)
    }

    /// Prints help for `topic` (or the overview); an unknown topic is a usage error (exit 2).
    static func show(topic: String?, console: Console) -> Int32 {
        guard let topic else {
            console.out(Usage.overview)
            return ExitStatus.success
        }
        guard let text = Usage.text(for: topic) else {
            console.error("modelgen: unknown command '\(topic)'; see 'modelgen help'\n")
            return ExitStatus.usage
        }
        console.out(text)
        return ExitStatus.success
    }
}
