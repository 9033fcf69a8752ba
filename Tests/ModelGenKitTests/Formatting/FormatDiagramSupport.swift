import Foundation
import GoldenFiles
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
        try GoldenFile.expect(actual, matches: url(relativePath), what: relativePath, sourceLocation: sourceLocation)
    }
}
