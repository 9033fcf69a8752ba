/// Two inputs that would write the same output file (a usage error, exit status 2).
struct OutputNameClash: Error, Hashable, Sendable, CustomStringConvertible {
    var outputName: String
    var inputs: [String]

    var description: String {
        "inputs \(inputs.map { "'\($0)'" }.joined(separator: " and ")) would both generate '\(outputName)'"
    }
}

/// Output file names (docs/CommandLine.md): they depend on input paths only, never on file content.
enum OutputNaming {
    /// `Stem.model.swift` for a file given directly; for a file inside a folder INPUT, its path below
    /// the folder with `/` turned into `_` (`Travel/Trips.model` → `Travel_Trips.model.swift`).
    /// A frozen version is named the same way with its own extension: `1.0.0.modelversion` →
    /// `1.0.0.modelversion.swift`, `ModelVersions/1.0.0.modelversion` → `ModelVersions_1.0.0.modelversion.swift`.
    static func outputName(for source: ModelSource) -> String {
        var stem = source.relativePath.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "_")
        let versionSuffix = "." + SchemaVersion.fileExtension
        if stem.hasSuffix(versionSuffix) {
            stem.removeLast(versionSuffix.count)
            return stem + versionSuffix + ".swift"
        }
        if stem.hasSuffix(".model") { stem.removeLast(".model".count) }
        return stem + ".model.swift"
    }

    /// The output names of all sources, in order; throws when two sources would share one.
    static func outputNames(for sources: [ModelSource]) throws(OutputNameClash) -> [String] {
        var owners: [String: String] = [:]
        var names: [String] = []
        for source in sources {
            let name = outputName(for: source)
            if let other = owners[name] {
                throw OutputNameClash(outputName: name, inputs: [other, source.path])
            }
            owners[name] = source.path
            names.append(name)
        }
        return names
    }
}
