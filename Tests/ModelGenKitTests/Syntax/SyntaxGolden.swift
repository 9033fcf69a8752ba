import Foundation
import Testing

/// Compares text with a golden file, or rewrites the golden file when `MODELGEN_UPDATE_GOLDENS=1`.
enum SyntaxGolden {
    static var isUpdating: Bool {
        ProcessInfo.processInfo.environment["MODELGEN_UPDATE_GOLDENS"] == "1"
    }

    static func check(_ actual: String, against url: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        if isUpdating {
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing golden file \(url.lastPathComponent); run with MODELGEN_UPDATE_GOLDENS=1", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            Issue.record("\(url.lastPathComponent) differs:\n\(diff(expected: expected, actual: actual))", sourceLocation: sourceLocation)
        }
    }

    /// A line diff: `-` lines only in the golden file, `+` lines only in the actual output.
    static func diff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for change in new.difference(from: old) {
            switch change {
            case .remove(let offset, let line, _): lines.append("-\(offset + 1): \(line)")
            case .insert(let offset, let line, _): lines.append("+\(offset + 1): \(line)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
