import Foundation
import PackagePlugin

/// Build-tool plugin `ModelGenPlugin`: generates Swift code from a target's `.model` files, and
/// from its frozen versions (`.modelversion` files, the model's history: docs/Migrations.md).
///
/// It creates ONE build command per target that runs `modelgen generate` on the target's
/// source directory (a folder input, searched recursively) and writes into the plugin's work
/// directory. The declared outputs are the names `modelgen generate` gives files found inside
/// a folder input (docs/CommandLine.md): `Stem.model.swift`, and `Sub_Dir_Stem.model.swift` for a file in
/// `Sub/Dir/`, so two same-named models in different subfolders never collide; a version
/// `ModelVersions/1.0.0.modelversion` gives `ModelVersions_1.0.0.modelversion.swift`. SwiftPM runs
/// the command only when an output is missing or an input (a `.model` or `.modelversion` file,
/// the target's `modelgen.json` or the `modelgen` executable) changed.
///
/// A `modelgen.json` in the target's folder (docs/Plugins.md: `{"accessLevel": "public"}`, …) is passed
/// with `--config` and declared as an input, so editing it reruns the generator.
@main
struct ModelGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        // Generated code is Swift: only Swift targets take `.model` files.
        guard let sourceTarget = target as? SwiftSourceModuleTarget else { return [] }
        let models = sourceTarget.sourceFiles(withSuffix: ".model").map(\.url)
        guard !models.isEmpty else { return [] }
        let versions = sourceTarget.sourceFiles(withSuffix: ".modelversion").map(\.url)
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources", directoryHint: .notDirectory)
        let outputs = try (models + versions).map { model in
            outputDirectory.appending(path: try GeneratedFileName.forModel(model, inFolder: sourceTarget.directoryURL))
        }
        return [
            ModelGenCommand.generate(
                tool: try context.tool(named: "ModelGenPluginTool").url,
                inputs: [sourceTarget.directoryURL],
                models: models + versions,
                configuration: ModelGenCommand.configuration(in: sourceTarget.directoryURL),
                outputDirectory: outputDirectory,
                outputs: outputs,
                targetName: target.name
            ),
        ]
    }
}

/// The one `modelgen generate` build command both plugin flavours (SwiftPM and Xcode) declare.
enum ModelGenCommand {
    /// A build command that regenerates `outputs` from `inputs` (folders or files) into `outputDirectory`.
    ///
    /// - Parameters:
    ///   - tool: The `ModelGenPluginTool` executable (`modelgen` without `pull`).
    ///   - inputs: What is passed to `modelgen generate` as INPUT (absolute paths).
    ///   - models: Every `.model` and `.modelversion` file the inputs stand for; declared as inputs so
    ///     an edit reruns the command.
    ///   - configuration: The target's `modelgen.json`, if it has one: passed with `--config` and
    ///     declared as an input, with the templates of the folder its `templates` key names.
    ///   - outputDirectory: The `--output` directory, inside the plugin work directory.
    ///   - outputs: The files `modelgen generate` writes, declared so SwiftPM compiles them.
    ///   - targetName: Shown in the build log.
    static func generate(
        tool: URL,
        inputs: [URL],
        models: [URL],
        configuration: URL?,
        outputDirectory: URL,
        outputs: [URL],
        targetName: String
    ) -> Command {
        let versionCount = models.count { $0.pathExtension == "modelversion" }
        let modelCount = models.count - versionCount
        var count = modelCount == 1 ? "1 model file" : "\(modelCount) model files"
        if versionCount > 0 { count += versionCount == 1 ? " and 1 frozen version" : " and \(versionCount) frozen versions" }
        let configArguments = configuration.map { ["--config", absolutePath($0)] } ?? []
        return .buildCommand(
            displayName: "ModelGen: generating Swift for '\(targetName)' from \(count)",
            executable: tool,
            arguments: ["generate", "--output", absolutePath(outputDirectory)] + configArguments + inputs.map(absolutePath),
            environment: [:],
            inputFiles: [tool] + models + (configuration.map { [$0] + templateFiles(namedBy: $0) } ?? []),
            outputFiles: outputs
        )
    }

    /// The name of the configuration file a target may hold beside its models (docs/Plugins.md).
    static let configurationFileName = "modelgen.json"

    /// The `*.mustache` files of the templates folder a configuration names (`"templates"`, relative
    /// to the file), so that editing one reruns the generator. Nothing when the file does not parse
    /// or names no folder (`modelgen` reports a bad file itself).
    static func templateFiles(namedBy configuration: URL) -> [URL] {
        guard let data = FileManager.default.contents(atPath: configuration.path(percentEncoded: false)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let path = object["templates"] as? String, !path.isEmpty
        else { return [] }
        let folder = path.hasPrefix("/")
            ? URL(filePath: path, directoryHint: .isDirectory)
            : configuration.deletingLastPathComponent().appending(path: path, directoryHint: .isDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
        return names.filter { $0.hasSuffix(".mustache") }.sorted().map { folder.appending(path: $0, directoryHint: .notDirectory) }
    }

    /// The `modelgen.json` directly inside `folder`, if there is one.
    static func configuration(in folder: URL) -> URL? {
        let file = folder.appending(path: configurationFileName, directoryHint: .notDirectory)
        return FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) ? file : nil
    }
}

/// The absolute file-system path of `url`, without a trailing `/`, as passed to `modelgen`.
func absolutePath(_ url: URL) -> String {
    let path = url.standardizedFileURL.path(percentEncoded: false)
    return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
}

/// The name `modelgen generate` gives the Swift file it writes for one `.model` or `.modelversion`
/// file (docs/CommandLine.md): the input's name, then `.swift` (`Trips.model` → `Trips.model.swift`).
enum GeneratedFileName {
    /// Errors found while naming outputs.
    enum Failure: Error, CustomStringConvertible {
        case notInsideFolder(model: String, folder: String)

        var description: String {
            switch self {
            case let .notInsideFolder(model, folder):
                "ModelGen: '\(model)' is not inside the target folder '\(folder)'"
            }
        }
    }

    /// The output name of a `.model` (or `.modelversion`) file passed directly as an INPUT:
    /// `Stem.model.swift` (`1.0.0.modelversion.swift`).
    static func forModel(_ model: URL) -> String {
        model.deletingPathExtension().lastPathComponent + "." + model.pathExtension + ".swift"
    }

    /// The output name of a `.model` (or `.modelversion`) file found inside a folder INPUT: its path
    /// below the folder, without the extension, `/` turned into `_`, then `.model.swift`
    /// (`.modelversion.swift`).
    static func forModel(_ model: URL, inFolder folder: URL) throws -> String {
        let folderPath = folder.standardizedFileURL.path(percentEncoded: false)
        let prefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
        let modelPath = model.standardizedFileURL.deletingPathExtension().path(percentEncoded: false)
        guard modelPath.hasPrefix(prefix) else {
            throw Failure.notInsideFolder(model: model.path(percentEncoded: false), folder: folderPath)
        }
        let relative = modelPath.dropFirst(prefix.count)
        return relative.replacingOccurrences(of: "/", with: "_") + "." + model.pathExtension + ".swift"
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// Xcode projects: Xcode targets have no source folder, so the target's `.model` (and
/// `.modelversion`) files are passed one by one and each output is named `Stem.model.swift`
/// (`1.0.0.modelversion.swift`; two `.model` files with the
/// same name in one Xcode target are a usage error reported by `modelgen`); a `modelgen.json`
/// among the target's files is its configuration.
extension ModelGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let models = target.inputFiles.map(\.url).filter { $0.pathExtension == "model" }
        guard !models.isEmpty else { return [] }
        let versions = target.inputFiles.map(\.url).filter { $0.pathExtension == "modelversion" }
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources", directoryHint: .notDirectory)
        let configuration = target.inputFiles.map(\.url).first { $0.lastPathComponent == ModelGenCommand.configurationFileName }
        return [
            ModelGenCommand.generate(
                tool: try context.tool(named: "ModelGenPluginTool").url,
                inputs: models + versions,
                models: models + versions,
                configuration: configuration,
                outputDirectory: outputDirectory,
                outputs: (models + versions).map { outputDirectory.appending(path: GeneratedFileName.forModel($0)) },
                targetName: target.displayName
            ),
        ]
    }
}
#endif
