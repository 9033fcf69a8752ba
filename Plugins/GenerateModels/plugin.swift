import Foundation
import PackagePlugin

/// Command plugin `GenerateModels` (verb `generate-models`): writes the code generated from a
/// target's `.model` files into the target's sources, for packages that commit generated code.
///
///     swift package --allow-writing-to-package-directory generate-models [--target NAME]... [--check]
///                   [--access-level internal|public|package]
///
/// For each selected target with `.model` files it runs `modelgen generate --output
/// <target folder>/Generated <target folder>`, so the files are named as the build plugin names
/// them, with `--config <target folder>/modelgen.json` when the target has that file (docs/Plugins.md;
/// `--access-level` given here overrides its `accessLevel`). `--check` writes nothing and fails
/// when a generated file is missing or stale.
/// Without `--target`, every target of the package that has `.model` files is processed.
/// Do not apply the `ModelGenPlugin` build plugin to a target whose generated code is committed:
/// its declarations would be compiled twice.
@main
struct GenerateModels: CommandPlugin {
    /// The folder, inside a target's source folder, that receives the generated files.
    static let generatedFolderName = "Generated"
    /// The configuration file a target may hold beside its models (docs/Plugins.md).
    static let configurationFileName = "modelgen.json"

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let accessLevels = extractor.extractOption(named: "access-level")
        let check = extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw Failure.usage("unexpected arguments: \(extractor.remainingArguments.joined(separator: " "))")
        }
        guard accessLevels.count <= 1 else { throw Failure.usage("--access-level given more than once") }

        let targets = try selectTargets(named: targetNames, in: context.package)
        if targets.isEmpty {
            print("generate-models: no target of package '\(context.package.displayName)' has .model files")
            return
        }
        let tool = try context.tool(named: "ModelGenPluginTool").url
        var failed: [String] = []
        for target in targets {
            let output = target.directoryURL.appending(path: Self.generatedFolderName, directoryHint: .notDirectory)
            var arguments = ["generate", "--output", Self.absolutePath(output)]
            if check { arguments.append("--check") }
            let configuration = target.directoryURL.appending(path: Self.configurationFileName, directoryHint: .notDirectory)
            if FileManager.default.fileExists(atPath: configuration.path(percentEncoded: false)) {
                arguments += ["--config", Self.absolutePath(configuration)]
            }
            if let level = accessLevels.first { arguments += ["--access-level", level] }
            arguments.append(Self.absolutePath(target.directoryURL))
            let status = try run(tool, arguments)
            if status == 0 {
                print("generate-models: \(target.name): \(check ? "up to date" : "generated into \(Self.absolutePath(output))")")
            } else {
                failed.append(target.name)
            }
        }
        if !failed.isEmpty {
            let what = check ? "generated code is stale or the models have errors" : "generation failed"
            throw Failure.generation("\(what) for target(s): \(failed.joined(separator: ", "))")
        }
    }

    /// The source targets to process: the named ones, or every target that has `.model` files.
    private func selectTargets(named names: [String], in package: Package) throws -> [SwiftSourceModuleTarget] {
        if names.isEmpty {
            return package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.filter(Self.hasModels)
        }
        return try package.targets(named: names).map { target in
            guard let source = target as? SwiftSourceModuleTarget, Self.hasModels(source) else {
                throw Failure.usage("target '\(target.name)' has no .model files")
            }
            return source
        }
    }

    private static func hasModels(_ target: SwiftSourceModuleTarget) -> Bool {
        target.sourceFiles(withSuffix: ".model").contains { _ in true }
    }

    /// The absolute file-system path of `url`, without a trailing `/`.
    private static func absolutePath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path(percentEncoded: false)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Runs `tool` with `arguments`, its output and diagnostics going to this command's output.
    private func run(_ tool: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Errors that end the command with a failure status.
    enum Failure: Error, CustomStringConvertible {
        case usage(String)
        case generation(String)

        var description: String {
            switch self {
            case let .usage(message): "generate-models: \(message)"
            case let .generation(message): "generate-models: \(message)"
            }
        }
    }
}
