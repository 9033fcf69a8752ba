import Foundation
import Testing

/// The probes docs/Benchmarks.md and docs/PostgreSQL.md tell readers to build
/// (`Benchmarks/Probes/*.c`, `*.swift`) compile as their headers say, warning-free, with the C
/// compiler and libpq headers CI installs and the toolchain's `swiftc`.
@Suite struct BenchmarkProbeTests {
    @Test func everyProbeCompilesWithoutWarnings() async throws {
        let probes = Workspace.root.appending(path: "Benchmarks/Probes", directoryHint: .isDirectory)
        let files = try FileManager.default.contentsOfDirectory(atPath: probes.path).filter { $0.hasSuffix(".c") }.sorted()
        #expect(files.contains("postgres-round-trip.c") && files.contains("postgres-write-forms.c"))
        let config = try await Shell.run("pg_config", ["--includedir"], in: probes)
        try #require(config.status == 0, "pg_config: \(config.output)")
        let include = config.output.trimmingCharacters(in: .whitespacesAndNewlines)
        for file in files {
            let result = try await Shell.run("cc", ["-O2", "-Wall", "-Wextra", "-Werror", "-c", "-o", "/dev/null", "-I", include, file], in: probes)
            #expect(result.status == 0, "\(file): \(result.output)")
            #expect(result.output.isEmpty, "\(file): \(result.output)")
        }
    }

    /// A Swift probe builds with `swiftc -O` as its header says, without warnings, and runs to its
    /// report (it checks its own loops' counts).
    @Test func everySwiftProbeBuildsWithoutWarningsAndRuns() async throws {
        let probes = Workspace.root.appending(path: "Benchmarks/Probes", directoryHint: .isDirectory)
        let files = try FileManager.default.contentsOfDirectory(atPath: probes.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.contains("change-tracking-floor.swift"))
        let folder = FileManager.default.temporaryDirectory.appending(path: "probes-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in files {
            let binary = folder.appending(path: String(file.dropLast(".swift".count))).path
            let built = try await Shell.runToolchain("swiftc", ["-O", "-warnings-as-errors", "-o", binary, file], in: probes)
            #expect(built.status == 0, "\(file): \(built.output)")
            #expect(built.output.isEmpty, "\(file): \(built.output)")
            guard built.status == 0 else { continue }
            let ran = try await Shell.run(binary, [], in: folder)
            #expect(ran.status == 0, "\(file): \(ran.output)")
            #expect(ran.output.hasPrefix("per model: "), "\(file): \(ran.output)")
        }
    }
}
