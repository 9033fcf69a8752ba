import Foundation
import ModelGenKit

/// `modelgen import [--output DIR] [--force] INPUT...` (docs/CommandLine.md "modelgen import")
///
/// Reads Swift files (or folders, searched recursively for `.swift` files) holding SwiftData
/// models and writes `DIR/Stem.model` for each file that declares models, plus
/// `DIR/ModelVersions/V.modelversion` for each `VersionedSchema`. Notes name what was not imported
/// and where it must go; the written files are linted. A file that exists with other content is
/// replaced only with `--force` (otherwise nothing is written, exit 1).
enum ImportCommand: Command {
    static let name = "import"
    static let outputOption = "--output"
    static let forceFlag = "--force"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec(flags: [forceFlag])
        spec.options[outputOption] = .some(nil)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard !arguments.positionals.isEmpty else { throw UsageError("no input: give Swift files or folders holding '@Model' classes") }
        let sources = try readSources(arguments.positionals)
        let directory = arguments.options[outputOption] ?? "."
        let result: ImportResult
        do {
            result = try ModelGen.import(sources, into: directory, write: true, force: arguments.has(forceFlag))
        } catch {
            return try DiagnosticOptions.text.fail(with: error, console: console)
        }
        let text = result.messages.map { $0.description + "\n" }.joined()
        if !text.isEmpty { console.error(text) }
        DiagnosticOptions.text.report(result.diagnostics, sources: result.modelSources, console: console)
        switch result.outcome {
        case .readErrors:
            let errors = result.messages.count { $0.severity == .error }
            console.error("modelgen: \(errors) error\(errors == 1 ? "" : "s") in the Swift sources: nothing imported\n")
        case .refused(let message):
            console.error("modelgen: \(message)\n")
        case .written, .unchanged, .inMemory:
            let verb = result.outcome == .unchanged ? "up to date" : "imported"
            for file in result.files { console.out("modelgen: \(verb) '\(file.path)'\n") }
            if result.diagnostics.contains(where: { $0.severity == .error }) {
                console.error("modelgen: the imported model has errors (above): edit it by hand until 'modelgen lint' passes\n")
            }
        }
        return result.failed ? ExitStatus.failure : ExitStatus.success
    }

    /// The Swift files named, and those found in the folders named (sorted), read.
    static func readSources(_ inputs: [String]) throws(UsageError) -> [SourceFile] {
        var paths: [String] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw UsageError("no such file or folder: '\(input)'")
            }
            if isDirectory.boolValue {
                let found = (FileManager.default.enumerator(atPath: input)?.allObjects as? [String] ?? [])
                    .filter { $0.hasSuffix(".swift") }.sorted()
                guard !found.isEmpty else { throw UsageError("no .swift file found in '\(input)'") }
                paths += found.map { input.hasSuffix("/") ? input + $0 : input + "/" + $0 }
            } else {
                guard input.hasSuffix(".swift") else { throw UsageError("'\(input)' is not a .swift file") }
                paths.append(input)
            }
        }
        var sources: [SourceFile] = []
        var total = 0
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read '\(path)'") }
            total += data.count
            guard total <= 16 << 20 else { throw UsageError("the Swift inputs are over 16 MB") }
            sources.append(SourceFile(path: path, bytes: Array(data)))
        }
        return sources
    }
}
