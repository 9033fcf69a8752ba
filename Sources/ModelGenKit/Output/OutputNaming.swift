/// A `.model` file to generate from: its path as the user named it and, for a file found inside a
/// folder INPUT, its path below that folder.
public struct GenerationInput: Hashable, Sendable {
    /// The path as the user named it (or the folder's path joined with the relative path).
    public var path: String
    /// The path below the folder INPUT it was found in (`Travel/Trips.model`), or `nil` for a file
    /// given directly.
    public var pathInFolder: String?

    public init(path: String, pathInFolder: String? = nil) {
        self.path = path
        self.pathInFolder = pathInFolder
    }

    /// The file name alone (`Trips.model`), as the generated header names it.
    public var fileName: String {
        String(path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path))
    }
}

/// Two inputs that would write the same output file.
public struct OutputNameClash: Error, Hashable, Sendable, CustomStringConvertible {
    public var outputName: String
    public var inputs: [String]

    public var description: String {
        "inputs \(inputs.map { "'\($0)'" }.joined(separator: " and ")) would both generate '\(outputName)'"
    }
}

/// Output file names (SPEC §4): they depend on input paths only, never on file content.
public enum OutputNaming {
    /// `Stem.model.swift` for a file given directly; for a file inside a folder INPUT, its path below
    /// the folder with `/` turned into `_` (`Travel/Trips.model` → `Travel_Trips.model.swift`).
    public static func outputName(for input: GenerationInput) -> String {
        let relative = input.pathInFolder ?? input.fileName
        var stem = relative.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "_")
        if stem.hasSuffix(".model") { stem.removeLast(".model".count) }
        return stem + ".model.swift"
    }

    /// The output names of all inputs, in order; throws when two inputs would share one.
    public static func outputNames(for inputs: [GenerationInput]) throws(OutputNameClash) -> [String] {
        var owners: [String: String] = [:]
        var names: [String] = []
        for input in inputs {
            let name = outputName(for: input)
            if let other = owners[name] {
                throw OutputNameClash(outputName: name, inputs: [other, input.path])
            }
            owners[name] = input.path
            names.append(name)
        }
        return names
    }
}
