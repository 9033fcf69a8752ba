import Foundation
import ModelGenKit

/// `modelgen freeze --version V [--output DIR] [--config FILE] INPUT...` (docs/Migrations.md)
///
/// Writes the current model (the `.model` files of the inputs), checked, in canonical `.model`
/// text, to `DIR/V.modelversion`; DIR defaults to `ModelVersions` in the first input folder, or
/// beside the first input file. A model with errors writes nothing (exit 1); so does a version
/// frozen already with another text, or a version older than one frozen already. Freezing the
/// same model again as the same version changes nothing (exit 0).
enum FreezeCommand: Command {
    static let name = "freeze"
    static let versionOption = "--version"
    static let outputOption = "--output"
    /// The folder of frozen versions, in the first input folder or beside the first input file.
    static let defaultFolderName = "ModelVersions"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec()
        ConfigOption.add(to: &spec)
        spec.options[versionOption] = .some(nil)
        spec.options[outputOption] = .some(nil)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        _ = try ConfigOption.load(arguments)
        guard let spelling = arguments.options[versionOption] else {
            throw UsageError("missing '\(versionOption) V': the version to freeze the model as (1.0.0)")
        }
        guard let version = SchemaVersion(spelling) else {
            throw UsageError("invalid version '\(spelling)' for '\(versionOption)' (expected MAJOR[.MINOR[.PATCH]], such as 1.0.0)")
        }
        guard let first = arguments.positionals.first else { throw UsageError("no input: give .model files or folders") }
        let folder = arguments.options[outputOption] ?? defaultFolder(for: first)
        let result: FreezeResult
        do {
            result = try ModelGen.freeze(
                .paths(arguments.positionals), as: version, spelling: spelling, into: URL(fileURLWithPath: folder))
        } catch {
            return try DiagnosticOptions.text.fail(with: error, console: console)
        }
        DiagnosticOptions.text.report(result.diagnostics, sources: result.sources, console: console)
        let shown = folder.hasSuffix("/") ? folder + result.url.lastPathComponent : folder + "/" + result.url.lastPathComponent
        switch result.outcome {
        case .written:
            console.out("modelgen: froze version \(version) in '\(shown)'\n")
        case .unchanged:
            console.out("modelgen: version \(version) is frozen already with this model ('\(result.url.relativePath)'): nothing to write\n")
        case .modelErrors:
            console.error("modelgen: the model has errors: version \(version) is not frozen\n")
        case .refused(let message):
            console.error("modelgen: \(message)\n")
        }
        return result.failed ? ExitStatus.failure : ExitStatus.success
    }

    /// `ModelVersions` in `input` when it is a folder, else beside it.
    static func defaultFolder(for input: String) -> String {
        var isDirectory: ObjCBool = false
        let base: String
        if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
            base = input
        } else {
            let parent = (input as NSString).deletingLastPathComponent
            base = parent.isEmpty ? "." : parent
        }
        if base == "." { return defaultFolderName }
        return base.hasSuffix("/") ? base + defaultFolderName : base + "/" + defaultFolderName
    }
}
