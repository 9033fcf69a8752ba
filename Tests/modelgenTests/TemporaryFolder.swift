import Foundation

/// Temporary folders of model files for the command-line tests.
enum TemporaryFolder {
    /// A fresh folder under the temporary directory holding `files` (relative path → text).
    static func make(_ files: [String: String], prefix: String = "modelgen-test") throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    /// Every file and folder below `root`, as sorted relative paths.
    static func listing(_ root: URL) -> [String] {
        (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
    }
}
