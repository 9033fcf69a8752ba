import Foundation

/// Runs the built `modelgen` binary as a child process.
enum ToolRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `modelgen` executable in the build products folder that holds this test bundle.
    static let executable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // The test runner may sit inside `X.xctest/...`: walk up to the products folder.
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("modelgen")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/modelgen")
    }()

    /// Runs `modelgen arguments` in `directory` (the package root by default). Output goes through
    /// temporary files, so neither stream can fill a pipe and block the child.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
