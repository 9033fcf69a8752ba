import Foundation

/// Reads the model files named on the command line.
public enum ModelLoader {
    /// Discovers the inputs and reads each file's bytes. A missing or unreadable input is an
    /// `InputError` (exit status 2); the sources come back in input order.
    public static func load(_ arguments: [String]) throws(InputError) -> [(input: ModelInput, source: SourceFile)] {
        let inputs = try InputDiscovery.discover(arguments)
        var loaded: [(input: ModelInput, source: SourceFile)] = []
        for input in inputs {
            guard let data = FileManager.default.contents(atPath: input.path) else {
                throw InputError("cannot read '\(input.path)'")
            }
            loaded.append((input, SourceFile(path: input.path, bytes: Array(data))))
        }
        return loaded
    }
}
