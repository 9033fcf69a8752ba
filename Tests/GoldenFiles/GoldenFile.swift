import Foundation
import Testing

/// Golden files: text the code produces, checked in, compared byte for byte. One helper for every
/// test target: `MODELGEN_UPDATE_GOLDENS=1` makes each comparison rewrite its file instead (then
/// read the diff as a user would before committing).
public enum GoldenFile {
    /// Whether this run rewrites golden files (`MODELGEN_UPDATE_GOLDENS=1`).
    public static var isUpdating: Bool {
        ProcessInfo.processInfo.environment["MODELGEN_UPDATE_GOLDENS"] == "1"
    }

    /// The repository's root folder (the one with the root `Package.swift`), found from `file`,
    /// a path inside it (pass `#filePath`).
    public static func packageRoot(from file: String) -> URL {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources/ModelGenKit").path)
            {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: file).deletingLastPathComponent()
    }

    /// Compares `actual` with the file at `url`, recording an issue with a line diff when they
    /// differ or the file is missing; rewrites the file instead when updating.
    /// - Throws: when the file cannot be written while updating.
    public static func expect(
        _ actual: String, matches url: URL, what: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = what ?? url.lastPathComponent
        if isUpdating {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if FileManager.default.contents(atPath: url.path) != Data(actual.utf8) {
                try Data(actual.utf8).write(to: url)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing golden file \(name): run with MODELGEN_UPDATE_GOLDENS=1 to create it", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            Issue.record("""
                \(name) differs from what the code produces (- golden, + produced; MODELGEN_UPDATE_GOLDENS=1 rewrites it):
                \(TextDiff.lines(expected: expected, actual: actual))
                """, sourceLocation: sourceLocation)
        }
    }
}
