/// A bad command line: printed as `modelgen: MESSAGE; see 'modelgen help COMMAND'`, exit status 2.
package struct UsageError: Error {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}

/// What one command accepts: flags (`--check`), options with a value (`--output DIR`, `--output=DIR`),
/// and positional arguments. `--` ends the options; a lone `-` is a positional.
package struct ArgumentSpec {
    /// Flag names with their dashes (`--check`).
    package var flags: Set<String> = []
    /// Option names with their dashes, mapped to their allowed values (`nil`: any value).
    package var options: [String: [String]?] = [:]

    package init(flags: Set<String> = [], options: [String: [String]?] = [:]) {
        self.flags = flags
        self.options = options
    }
}

/// A parsed command line.
package struct ParsedArguments {
    package var flags: Set<String> = []
    package var options: [String: String] = [:]
    package var positionals: [String] = []

    package func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A tiny parser of flags, options and positionals. Errors name the command they belong to.
struct ArgumentParser {
    var command: String
    var spec: ArgumentSpec

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if spec.flags.contains(name) {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
                parsed.flags.insert(name)
            } else if let allowed = spec.options[name] {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("missing value for option '\(name)'")
                }
                if let allowed, !allowed.contains(value) {
                    throw UsageError("invalid value '\(value)' for option '\(name)' (expected \(allowed.joined(separator: " or ")))")
                }
                if parsed.options[name] != nil { throw UsageError("option '\(name)' given twice") }
                parsed.options[name] = value
            } else {
                throw UsageError("unknown option '\(name)' for '\(command)'")
            }
        }
        return parsed
    }
}
