/// Integer options of a benchmark's command line (`--n 1000 --repeat 3`).
public struct Arguments {
    private var values: [String: Int]

    /// Parses `arguments` (without the program name) against `defaults` (option name without
    /// `--` to default value). An unknown option, a missing or non-positive value is an error.
    public init(_ arguments: [String], defaults: [String: Int]) throws(ArgumentError) {
        values = defaults
        var index = 0
        while index < arguments.count {
            let option = arguments[index]
            guard option.hasPrefix("--"), values[String(option.dropFirst(2))] != nil else {
                throw ArgumentError(message: "unknown option '\(option)'")
            }
            guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
                throw ArgumentError(message: "option '\(option)' needs a positive integer")
            }
            values[String(option.dropFirst(2))] = value
            index += 2
        }
    }

    /// The value of option `name` (its default when not given).
    public subscript(name: String) -> Int { values[name] ?? 0 }
}

/// A bad command line.
public struct ArgumentError: Error, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    public var description: String { message }
}
