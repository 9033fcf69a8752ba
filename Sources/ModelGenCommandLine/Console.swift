import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics and usage errors.
package struct Console {
    package init() {}

    package func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    package func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The exit statuses of docs/CommandLine.md.
package enum ExitStatus {
    /// Done (warnings allowed).
    package static let success: Int32 = 0
    /// The models have errors, `--check` found stale output, or a warning under `--warnings-as-errors`.
    package static let failure: Int32 = 1
    /// Bad usage, an unreadable input or an unwritable output.
    package static let usage: Int32 = 2
}
