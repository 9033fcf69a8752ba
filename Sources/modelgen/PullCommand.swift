import Foundation
import ModelGenCommandLine
import ModelGenKit
import ModelStore

/// `modelgen pull --url URL [--output FILE] [--force]` (docs/CommandLine.md "modelgen pull")
///
/// Reads the `.model` files a ModelStore store records (every store opened by an app whose models
/// modelgen generated records them) and writes them out: to standard output, or to FILE. The store
/// is opened read-only; nothing in it changes. The text is then linted, so a model that no longer
/// checks (or that needs a file the store does not record) is reported.
enum PullCommand: Command {
    static let name = "pull"
    static let urlOption = "--url"
    static let outputOption = "--output"
    static let forceFlag = "--force"

    static var argumentSpec: ArgumentSpec {
        var spec = ArgumentSpec(flags: [forceFlag])
        spec.options[urlOption] = .some(nil)
        spec.options[outputOption] = .some(nil)
        return spec
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument '\(arguments.positionals[0])': the store is named by --url") }
        guard let given = arguments.options[urlOption] else { throw UsageError("no store: give --url URL (a SQLite file or a postgresql:// URL)") }
        let url = storeURL(given)
        let files: [RecordedModel.File]
        do {
            files = try RecordedModel.files(at: url)
        } catch {
            console.error("modelgen: \(error)\n")
            return ExitStatus.failure
        }
        let text = joined(files)
        if let output = arguments.options[outputOption] {
            if let existing = FileManager.default.contents(atPath: output), String(decoding: existing, as: UTF8.self) != text,
               !arguments.has(forceFlag) {
                console.error("modelgen: '\(output)' exists with other content: nothing written (--force replaces it)\n")
                return ExitStatus.failure
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw UsageError("cannot write '\(output)': \(error.localizedDescription)")
            }
            console.out("modelgen: pulled '\(output)' (\(files.map(\.path).joined(separator: ", ")))\n")
        } else {
            console.out(text)
        }
        // The recorded files checked as they were generated: each under its own path.
        let sources = files.map { ModelSource(path: $0.path, text: $0.text, relativePath: $0.path) }
        do {
            let result = try ModelGen.run(.sources(sources), options: GeneratorOptions(output: .lint))
            DiagnosticOptions.text.report(result.diagnostics, sources: result.sources, console: console)
            if result.failed {
                console.error("modelgen: the pulled model has errors (above): it may need a model file the store does not record\n")
                return ExitStatus.failure
            }
        } catch {
            return try DiagnosticOptions.text.fail(with: error, console: console)
        }
        return ExitStatus.success
    }

    /// A `postgresql://` (or `postgres://`) or `file:` URL as given; anything else is a file path.
    static func storeURL(_ given: String) -> URL {
        let lowered = given.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") || lowered.hasPrefix("file:"),
           let url = URL(string: given) {
            return url
        }
        return URL(fileURLWithPath: given)
    }

    /// The files as one `.model` text: one file as it is; several (a schema generated from several
    /// model files) one after another, each after a comment naming it.
    static func joined(_ files: [RecordedModel.File]) -> String {
        guard files.count > 1 else { return files.first?.text ?? "" }
        return files.map { "// From \($0.path)\n\n" + $0.text }.joined(separator: "\n")
    }
}
