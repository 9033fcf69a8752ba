import Foundation
import ModelGenKit

/// `modelgen format [--check | --in-place] INPUT...`
///
/// Without a flag the formatted text of every input goes to standard output, one file after the
/// other. `--check` writes nothing and exits 1 naming each file that is not formatted.
/// `--in-place` rewrites the files that would change (each through a temporary file renamed into
/// place, keeping its permissions) and leaves the others untouched. A file with syntax errors
/// stops the run before anything is printed or written: its diagnostics, exit status 1.
enum FormatCommand: Command {
    static let name = "format"
    static let checkFlag = "--check"
    static let inPlaceFlag = "--in-place"

    static var argumentSpec: ArgumentSpec {
        ArgumentSpec(flags: [checkFlag, inPlaceFlag])
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        if arguments.has(checkFlag), arguments.has(inPlaceFlag) {
            throw UsageError("'\(checkFlag)' and '\(inPlaceFlag)' cannot be used together")
        }
        let loaded: [(input: ModelInput, source: SourceFile)]
        do {
            loaded = try ModelLoader.load(arguments.positionals)
        } catch {
            throw UsageError(error.message)
        }

        var formatted: [(source: SourceFile, text: String)] = []
        var diagnostics: [Diagnostic] = []
        for (_, source) in loaded {
            let result = ModelFormatter.format(source)
            diagnostics += result.diagnostics
            if let text = result.text { formatted.append((source, text)) }
        }
        if !diagnostics.isEmpty {
            let sorted = LintRun.sortDiagnostics(diagnostics, fileOrder: loaded.map(\.source.path))
            DiagnosticOptions(ParsedArguments()).report(sorted, sources: loaded.map(\.source), console: console)
            return ExitStatus.failure
        }

        let changed = formatted.filter { $0.source.bytes != Array($0.text.utf8) }
        if arguments.has(checkFlag) {
            for file in changed {
                console.error("modelgen: '\(file.source.path)' is not formatted\n")
            }
            return changed.isEmpty ? ExitStatus.success : ExitStatus.failure
        }
        if arguments.has(inPlaceFlag) {
            return rewrite(changed, console: console)
        }
        console.out(formatted.map(\.text).joined())
        return ExitStatus.success
    }

    /// Writes the changed files all or nothing, keeping each file's permissions.
    private static func rewrite(_ changed: [(source: SourceFile, text: String)], console: Console) -> Int32 {
        let outputs = changed.map { file in
            PlannedOutput(url: URL(fileURLWithPath: file.source.path).resolvingSymlinksInPath(), contents: file.text)
        }
        let permissions = outputs.map { output in
            (try? FileManager.default.attributesOfItem(atPath: output.url.path))?[.posixPermissions]
        }
        do {
            try OutputWriter().write(outputs)
        } catch {
            console.error("modelgen: \(error.description)\n")
            return ExitStatus.usage
        }
        for (output, permission) in zip(outputs, permissions) {
            if let permission {
                try? FileManager.default.setAttributes([.posixPermissions: permission], ofItemAtPath: output.url.path)
            }
        }
        return ExitStatus.success
    }
}
