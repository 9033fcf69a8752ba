/// A template that cannot be parsed, or a render that cannot finish (partial recursion too deep).
struct MustacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, with the line of the template when known.
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
