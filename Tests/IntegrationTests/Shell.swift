import Foundation

/// What a finished child process left behind.
struct ProcessResult {
    /// The exit status.
    var status: Int32
    /// Standard output and standard error, interleaved as written.
    var output: String
    /// The signal that killed the process, or nil when it exited (`status` is then its exit code;
    /// for a killed process it is the signal's number, as `Process` reports it).
    var signal: Int32? = nil
}

/// Runs commands for the integration tests: `swift build`, built executables, scripts.
enum Shell {
    /// Runs `executable` with `arguments` in `directory`, until it finishes.
    ///
    /// Output goes to a temporary file rather than a pipe, so a chatty child never blocks on a full pipe.
    /// Waited for with `waitUntilExit`, holding the thread: awaiting the end instead (a continuation
    /// resumed by `terminationHandler`) gives the thread back, but then every resumption of the
    /// integration suite queues behind the hundreds of other tests waiting for the few threads (as
    /// many as cores), and the suite, the run's long pole, starts its builds late. One serialized
    /// suite holds one thread; the rest of the run has the others.
    static func run(
        _ executable: String,
        _ arguments: [String],
        in directory: URL,
        environment extra: [String: String] = [:]
    ) async throws -> ProcessResult {
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
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return ProcessResult(status: process.terminationStatus, output: output, signal: signal)
    }

    /// Runs a toolchain command (`swift build`, `swift package`) as `run` does, once more when the
    /// toolchain itself crashed (see `toolchainCrash`): a loaded machine has made `swift build`
    /// die of signal 11 inside libdispatch, which says nothing about the code under test. The
    /// retry is announced on standard output and at the top of the returned output; a normal
    /// non-zero exit (a compile error, a failing plugin) is returned as it is, never retried.
    static func runToolchain(
        _ executable: String,
        _ arguments: [String],
        in directory: URL,
        environment extra: [String: String] = [:]
    ) async throws -> ProcessResult {
        let first = try await run(executable, arguments, in: directory, environment: extra)
        guard let crash = toolchainCrash(first) else { return first }
        let command = ([executable] + arguments.prefix(1)).joined(separator: " ")
        let note = "\(command) \(crash); retrying once"
        print(note)
        var second = try await run(executable, arguments, in: directory, environment: extra)
        second.output = "\(note)\n--- output of the crashed run ---\n\(first.output)--- output of the retry ---\n\(second.output)"
        return second
    }

    /// How the toolchain crashed, when it did: the process died of a signal ("died of signal 11"),
    /// or it exited reporting that one of its own processes did (swift-build's "failed due to
    /// signal N" for a compiler crash). Nil for a normal exit, zero or not.
    static func toolchainCrash(_ result: ProcessResult) -> String? {
        if let signal = result.signal { return "died of signal \(signal)" }
        if result.status != 0, let range = result.output.range(of: #"failed due to signal \d+"#, options: .regularExpression) {
            return "reported a crashed compiler process (\(result.output[range]))"
        }
        return nil
    }
}
