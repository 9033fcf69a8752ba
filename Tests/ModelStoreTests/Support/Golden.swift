import Foundation
import Testing

/// Compares `actual` with the golden file `name` in `Tests/ModelStoreTests/Goldens`, byte for
/// byte; rewrites it instead when `MODELGEN_UPDATE_GOLDENS=1` is set.
func expectGolden(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["MODELGEN_UPDATE_GOLDENS"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing golden file \(name): run with MODELGEN_UPDATE_GOLDENS=1", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        Issue.record("\(name) differs from the golden file:\n\(lineDiff(expected: expected, actual: actual))", sourceLocation: sourceLocation)
    }
}

/// The lines that differ, marked `-` (golden) and `+` (actual), with their line numbers.
func lineDiff(expected: String, actual: String) -> String {
    let old = expected.components(separatedBy: "\n")
    let new = actual.components(separatedBy: "\n")
    var out: [String] = []
    for index in 0..<max(old.count, new.count) {
        let left = index < old.count ? old[index] : nil
        let right = index < new.count ? new[index] : nil
        if left != right {
            if let left { out.append("\(index + 1) - \(left)") }
            if let right { out.append("\(index + 1) + \(right)") }
        }
    }
    return out.joined(separator: "\n")
}
