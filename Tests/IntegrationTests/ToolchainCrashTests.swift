import Foundation
import Testing

/// A toolchain process that dies of a signal is run once more, and says so; one that exits with a
/// failure is not (`Shell.runToolchain`). Real processes: a shell that kills itself, one that exits 1.
@Suite struct ToolchainCrashTests {
    /// A fresh folder for one test's scripts and marker files.
    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "toolchain-crash-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// How many times the script of `folder` ran (one line appended to `runs` per run).
    func runs(in folder: URL) throws -> Int {
        try String(contentsOf: folder.appending(path: "runs"), encoding: .utf8).split(separator: "\n").count
    }

    @Test func processKilledBySignalIsACrash() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Shell.run("sh", ["-c", "kill -SEGV $$"], in: folder)
        #expect(result.signal == SIGSEGV)
        #expect(Shell.toolchainCrash(result) == "died of signal 11")
    }

    @Test func failingExitIsNoCrash() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Shell.run("sh", ["-c", "echo 'error: no such module'; exit 1"], in: folder)
        #expect(result.signal == nil)
        #expect(result.status == 1)
        #expect(Shell.toolchainCrash(result) == nil)
    }

    @Test func compilerCrashReportedByTheBuildIsACrash() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // swift-build's own words when a compiler process it started crashed.
        let result = try await Shell.run("sh", ["-c", "echo 'error: compile command failed due to signal 6 (use -v to see invocation)'; exit 1"], in: folder)
        #expect(Shell.toolchainCrash(result) == "reported a crashed compiler process (failed due to signal 6)")
    }

    @Test func crashedRunIsRetriedOnceAndSaysSo() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Crashes on its first run, succeeds on the second.
        let script = "echo run >> runs; if [ -e crashed ]; then echo built; else touch crashed; echo half; kill -SEGV $$; fi"
        let result = try await Shell.runToolchain("sh", ["-c", script], in: folder)
        #expect(try runs(in: folder) == 2)
        #expect(result.status == 0)
        #expect(result.signal == nil)
        #expect(result.output.hasPrefix("sh -c died of signal 11; retrying once\n"), "\(result.output)")
        #expect(result.output.contains("half") && result.output.hasSuffix("built\n"), "\(result.output)")
    }

    @Test func crashingTwiceFailsWithTheSecondCrash() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Shell.runToolchain("sh", ["-c", "echo run >> runs; kill -SEGV $$"], in: folder)
        #expect(try runs(in: folder) == 2)
        #expect(result.signal == SIGSEGV)
        #expect(result.output.hasPrefix("sh -c died of signal 11; retrying once\n"))
    }

    @Test func failingRunIsNotRetried() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Shell.runToolchain("sh", ["-c", "echo run >> runs; echo 'error: type mismatch'; exit 1"], in: folder)
        #expect(try runs(in: folder) == 1)
        #expect(result.status == 1)
        #expect(result.signal == nil)
        #expect(!result.output.contains("retrying"))
        #expect(result.output == "error: type mismatch\n")
    }
}
