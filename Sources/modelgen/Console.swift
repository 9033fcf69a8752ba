import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics and usage errors.
struct Console {
    func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The exit statuses of docs/CommandLine.md.
enum ExitStatus {
    /// Done (warnings allowed).
    static let success: Int32 = 0
    /// The models have errors, `--check` found stale output, or a warning under `--warnings-as-errors`.
    static let failure: Int32 = 1
    /// Bad usage, an unreadable input or an unwritable output.
    static let usage: Int32 = 2
}
