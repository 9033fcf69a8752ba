/// A problem with the inputs (missing, unreadable, not a `.model` file, past the size limit).
/// The pipeline hands it on as a `GeneratorError` of kind `.input` (exit status 2).
struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
