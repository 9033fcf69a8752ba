import Foundation
import Testing

/// The probes docs/Benchmarks.md and docs/PostgreSQL.md tell readers to build
/// (`Benchmarks/Probes/*.c`) compile as their headers say, warning-free, with the C compiler and
/// libpq headers CI installs.
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
}
