import Foundation
import Testing

/// Golden files and sample paths for the format and diagram tests.
enum FormatDiagramSupport {
    /// The package root (tests run from anywhere).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent(relativePath)
    }

    /// Compares `actual` with the golden file byte for byte; rewrites it when
    /// `MODELGEN_UPDATE_GOLDENS=1` is set.
    static func expectMatchesGolden(_ actual: String, _ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = url(relativePath)
        if ProcessInfo.processInfo.environment["MODELGEN_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden \(relativePath); run with MODELGEN_UPDATE_GOLDENS=1 to create it", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            Issue.record("\(relativePath) differs (- golden, + actual):\n\(lineDiff(expected, actual))", sourceLocation: sourceLocation)
        }
    }

    /// The lines that differ, with a little context; enough to read a golden mismatch.
    static func lineDiff(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        var lines: [String] = []
        for index in max(0, prefix - 2)..<prefix { lines.append("  \(index + 1): \(old[index])") }
        for index in prefix..<(old.count - suffix) { lines.append("- \(index + 1): \(old[index])") }
        for index in prefix..<(new.count - suffix) { lines.append("+ \(index + 1): \(new[index])") }
        return lines.joined(separator: "\n")
    }
}
