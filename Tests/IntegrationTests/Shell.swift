import Foundation

/// What a finished child process left behind.
struct ProcessResult {
    /// The exit status.
    var status: Int32
    /// Standard output and standard error, interleaved as written.
    var output: String
}

/// Runs commands for the integration tests: `swift build`, built executables, scripts.
enum Shell {
    /// Runs `executable` with `arguments` in `directory`, waiting for it to finish.
    ///
    /// Output goes to a temporary file rather than a pipe, so a chatty child never blocks on a full pipe.
    static func run(
        _ executable: String,
        _ arguments: [String],
        in directory: URL,
        environment extra: [String: String] = [:]
    ) throws -> ProcessResult {
        let log = FileManager.default.temporaryDirectory.appending(path: "modelgen-integration-\(UUID().uuidString).log")
        try Data().write(to: log)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        return ProcessResult(status: process.terminationStatus, output: output)
    }
}
