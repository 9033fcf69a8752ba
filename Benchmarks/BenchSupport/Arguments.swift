/// Options of a benchmark's command line: integer options (`--n 1000 --repeat 3`), text options
/// (`--only fetchAll,insert`) and flags without a value (`--json`).
public struct Arguments {
    private var values: [String: Int]
    private var texts: [String: String]
    private var flags: [String: Bool]

    /// Parses `arguments` (without the program name) against `defaults` (integer option name
    /// without `--` to default value), `texts` (text option name to default value) and `flags`
    /// (names of options that take no value, false unless given). An unknown option, a missing or
    /// non-positive integer, a missing text is an error.
    public init(_ arguments: [String], defaults: [String: Int], texts: [String: String] = [:], flags: Set<String> = []) throws(ArgumentError) {
        values = defaults
        self.texts = texts
        self.flags = Dictionary(uniqueKeysWithValues: flags.map { ($0, false) })
        var index = 0
        while index < arguments.count {
            let option = arguments[index]
            let name = String(option.dropFirst(2))
            guard option.hasPrefix("--"), values[name] != nil || self.texts[name] != nil || self.flags[name] != nil else {
                throw ArgumentError(message: "unknown option '\(option)'")
            }
            if self.flags[name] != nil {
                self.flags[name] = true
                index += 1
                continue
            }
            guard index + 1 < arguments.count else { throw ArgumentError(message: "option '\(option)' needs a value") }
            let value = arguments[index + 1]
            if self.texts[name] != nil {
                guard !value.isEmpty, !value.hasPrefix("--") else { throw ArgumentError(message: "option '\(option)' needs a value") }
                self.texts[name] = value
            } else {
                guard let number = Int(value), number > 0 else {
                    throw ArgumentError(message: "option '\(option)' needs a positive integer")
                }
                values[name] = number
            }
            index += 2
        }
    }

    /// The value of integer option `name` (its default when not given).
    public subscript(name: String) -> Int { values[name] ?? 0 }

    /// The value of text option `name` (its default when not given).
    public func text(_ name: String) -> String { texts[name] ?? "" }

    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool { flags[name] ?? false }
}

/// A bad command line.
public struct ArgumentError: Error, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}
