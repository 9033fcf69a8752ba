/// A template that cannot be parsed, or a render that cannot finish (partial recursion too deep).
public struct MustacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, with the line of the template when known.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
