/// A problem with the command line's inputs (missing, unreadable, not a `.model` file): exit status 2.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
