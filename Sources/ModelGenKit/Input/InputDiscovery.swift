import Foundation

/// One `.model` file found on disk, named two ways (see `ModelSource`).
struct DiscoveredModel: Hashable, Sendable {
    /// The path as the user named it (for a file found in a folder: the folder as named, then the
    /// path below it). Diagnostics print this path.
    var path: String
    /// For a file found inside a folder input: its path below that folder (`Travel/Trips.model`).
    /// For a file named directly: its file name (`Trips.model`). Output files are named from this.
    var relativePath: String
}

/// Turns the INPUT arguments (files and folders) into the list of `.model` files to read, and of
/// `.modelversion` files (the model's history, docs/Migrations.md).
///
/// Inputs keep their command-line order; the files of one folder are searched recursively and sorted
/// by their path below it (byte order, so the result does not depend on the file system). Symbolic
/// links to folders are not followed (no loops); a file reached twice is read once, at its first place.
enum InputDiscovery {
    /// The file extension of model files, without the dot.
    static let modelExtension = "model"

    /// Whether `name` is a model file's or a version file's name.
    private static func isInput(_ name: String) -> Bool {
        name.hasSuffix("." + modelExtension) || SchemaVersion.isVersionFile(name)
    }

    /// The `.model` and `.modelversion` files named by `arguments`, in order. Throws for no
    /// argument, a missing path, a named file with another extension, an unreadable folder, or no
    /// `.model` file at all (versions alone are a history without a model).
    static func discover(_ arguments: [String]) throws(InputError) -> [DiscoveredModel] {
        guard !arguments.isEmpty else { throw InputError("no input: give .model files or folders") }
        var inputs: [DiscoveredModel] = []
        var seen = Set<String>()
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw InputError("no such file or folder: '\(argument)'")
            }
            let found: [DiscoveredModel]
            if isDirectory.boolValue {
                found = try modelFiles(inFolder: argument)
            } else {
                guard isInput(argument) else {
                    throw InputError("'\(argument)' is not a .\(modelExtension) or .\(SchemaVersion.fileExtension) file")
                }
                found = [DiscoveredModel(path: argument, relativePath: (argument as NSString).lastPathComponent)]
            }
            for input in found where seen.insert(canonicalPath(input.path)).inserted {
                inputs.append(input)
            }
        }
        guard inputs.contains(where: { !SchemaVersion.isVersionFile($0.path) }) else {
            throw InputError("no .\(modelExtension) file found in \(arguments.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return inputs
    }

    /// Every `.model` and `.modelversion` file below `folder`, sorted by relative path.
    private static func modelFiles(inFolder folder: String) throws(InputError) -> [DiscoveredModel] {
        var relativePaths: [String] = []
        var pending: [String] = [""]
        while let relativeFolder = pending.popLast() {
            let absolute = join(folder, relativeFolder)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: absolute)
            } catch {
                throw InputError("cannot read folder '\(absolute)'")
            }
            for name in names where !name.hasPrefix(".") {
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                let full = join(folder, relative)
                let type = (try? FileManager.default.attributesOfItem(atPath: full))?[.type] as? FileAttributeType
                if type == .typeDirectory {
                    pending.append(relative)
                } else if isInput(name) {
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                        relativePaths.append(relative)
                    }
                }
            }
        }
        return relativePaths
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { DiscoveredModel(path: join(folder, $0), relativePath: $0) }
    }

    private static func join(_ folder: String, _ relative: String) -> String {
        if relative.isEmpty { return folder }
        return folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }

    private static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
