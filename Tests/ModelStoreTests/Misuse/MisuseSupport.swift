import Foundation
@testable import ModelStore

/// The two kinds of store every misuse test runs on.
enum StoreKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case file, memory
    var description: String { rawValue }
}

/// A container on a fresh store of `kind` (the file removed with it).
struct MisuseStore {
    let container: ModelContainer
    let file: TemporaryStore?

    init(_ kind: StoreKind, _ schema: Schema) throws {
        file = kind == .file ? try TemporaryStore() : nil
        container = try ModelContainer(for: schema, configurations: file?.configuration ?? ModelConfiguration(isStoredInMemoryOnly: true))
    }

    /// A new context on the container.
    func context() -> ModelContext { ModelContext(container) }

    /// A raw connection to the same store (file or shared memory), for checking or altering rows.
    func raw() throws -> any StoreConnection { try container.makeConnection() }

    /// Every row of `table` as values, in key order.
    func rows(_ table: String) throws -> [[SQLValue]] {
        try raw().rows("SELECT * FROM \(SQLQuote.identifier(table)) ORDER BY 1, 2")
    }
}

/// A run of the `MisuseProbe` child process.
struct ProbeRun {
    let status: Int32
    let reason: Process.TerminationReason
    let output: String
    let errors: String

    /// Runs `MisuseProbe arguments` to the end (killed after `timeout` seconds).
    static func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> ProbeRun {
        let (process, output, errors) = try start(arguments)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ProbeRun(status: process.terminationStatus, reason: process.terminationReason,
                        output: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                        errors: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// Starts `MisuseProbe arguments`, its output and errors piped.
    static func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = BuiltProducts.executable("MisuseProbe")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }
}
