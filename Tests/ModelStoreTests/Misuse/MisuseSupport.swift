import Foundation
@_spi(ModelStoreGenerated) @testable import ModelStore

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

/// The `MisuseProbe` child process, started with `posix_spawn` and reaped with `waitpid` (not
/// Foundation's `Process`, whose exit monitoring can miss a child's end under ThreadSanitizer),
/// its output and errors written to files.
final class Probe {
    /// How the child ended.
    enum End: Equatable {
        case exit(Int32)
        case signal(Int32)
    }

    let pid: pid_t
    private let directory: URL
    private(set) var end: End?

    /// Starts `MisuseProbe arguments`.
    init(_ arguments: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("misuse-probe-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let executable = BuiltProducts.executable("MisuseProbe").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, directory.appendingPathComponent("out").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, directory.appendingPathComponent("err").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard result == 0 else { throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable]) }
        pid = child
    }

    deinit {
        if end == nil {
            kill(pid, SIGKILL)
            _ = waitUntilEnd(timeout: 10)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether the child was stopped by a signal (a trap, as `fatalError` makes).
    var diedOfSignal: Bool {
        if case .signal = end { return true }
        return false
    }

    /// What the child wrote to standard output so far.
    var output: String { read("out") }
    /// What the child wrote to standard error so far.
    var errors: String { read("err") }

    private func read(_ name: String) -> String {
        String(decoding: (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
    }

    /// Whether the child still runs (reaps it when it has ended).
    var isRunning: Bool {
        if end != nil { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        end = (status & 0x7F) == 0 ? .exit((status >> 8) & 0xFF) : .signal(status & 0x7F)
        return false
    }

    /// Waits up to `timeout` seconds for the child to end, then kills it; returns how it ended.
    @discardableResult
    func waitUntilEnd(timeout: TimeInterval = 60) -> End? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(10_000)
        }
        return end
    }

    /// Runs `MisuseProbe arguments` to its end (killed after `timeout` seconds), waiting without
    /// holding a thread of the test runner's pool.
    static func run(_ arguments: [String], timeout: TimeInterval = 60) async throws -> Probe {
        let probe = try Probe(arguments)
        try await probe.waitFor(timeout: timeout) { !probe.isRunning }
        probe.waitUntilEnd(timeout: 10)
        return probe
    }

    /// Waits (asynchronously) until `condition` holds or `timeout` seconds have passed.
    func waitFor(timeout: TimeInterval, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }
}
