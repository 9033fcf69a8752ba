import Foundation
import PackagePlugin

/// Turns `Templates/*.mustache` at the package root into one Swift file of string literals
/// (`BuiltinTemplates.all`), so the templates live inside the `modelgen` binary.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Templates")
        let templates = try FileManager.default
            .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(templates.count) templates",
                executable: try context.tool(named: "TemplateEmbedder").url,
                arguments: [output.path(percentEncoded: false)] + templates.map { $0.path(percentEncoded: false) },
                inputFiles: templates,
                outputFiles: [output]
            )
        ]
    }
}
