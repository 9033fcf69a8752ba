import Foundation

/// One file the generator wants on disk.
public struct PlannedOutput: Hashable, Sendable {
    public var url: URL
    public var contents: String

    public init(url: URL, contents: String) {
        self.url = url
        self.contents = contents
    }
}

/// Whether an output on disk matches what would be generated.
public enum OutputState: Hashable, Sendable {
    case upToDate
    case missing
    case stale
}

/// An output that cannot be written (the run must then change nothing).
public struct OutputWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writes generated files all or nothing: every changed file is first written to a temporary file
/// beside it, and only when all of them are written are they renamed into place. A file whose
/// content would not change is left alone (its modification time stays).
public struct OutputWriter {
    public init() {}

    /// The state of each output on disk.
    public func states(of outputs: [PlannedOutput]) -> [OutputState] {
        outputs.map { output in
            guard let data = FileManager.default.contents(atPath: output.url.path) else { return .missing }
            return data == Data(output.contents.utf8) ? .upToDate : .stale
        }
    }

    /// Writes every output that is missing or stale; returns the ones written.
    @discardableResult
    public func write(_ outputs: [PlannedOutput]) throws(OutputWriteError) -> [PlannedOutput] {
        let changed = zip(outputs, states(of: outputs)).filter { $0.1 != .upToDate }.map(\.0)
        guard !changed.isEmpty else { return [] }
        let fileManager = FileManager.default
        var createdDirectories: [URL] = []
        var temporaries: [(temporary: URL, final: URL)] = []
        func undo() {
            for entry in temporaries { try? fileManager.removeItem(at: entry.temporary) }
            for directory in createdDirectories.reversed() { try? fileManager.removeItem(at: directory) }
        }
        // What renaming could trip over is checked before anything is created.
        for output in changed {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: output.url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw OutputWriteError(path: output.url.path, reason: "a folder is in the way")
            }
        }
        do {
            for output in changed {
                let directory = output.url.deletingLastPathComponent()
                try createDirectory(directory, recording: &createdDirectories)
                let temporary = directory.appendingPathComponent(".\(output.url.lastPathComponent).\(UUID().uuidString).tmp")
                do {
                    try Data(output.contents.utf8).write(to: temporary, options: .withoutOverwriting)
                } catch {
                    throw OutputWriteError(path: output.url.path, reason: Self.reason(error))
                }
                temporaries.append((temporary, output.url))
            }
            for entry in temporaries {
                if rename(entry.temporary.path, entry.final.path) != 0 {
                    throw OutputWriteError(path: entry.final.path, reason: String(cString: strerror(errno)))
                }
            }
        } catch let error as OutputWriteError {
            undo()
            throw error
        } catch {
            undo()
            throw OutputWriteError(path: changed[0].url.path, reason: Self.reason(error))
        }
        return changed
    }

    /// Creates `directory` and any missing parents, remembering the ones it created (outermost first).
    private func createDirectory(_ directory: URL, recording created: inout [URL]) throws(OutputWriteError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw OutputWriteError(path: directory.path, reason: "not a directory")
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path != directory.path { try createDirectory(parent, recording: &created) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        } catch {
            throw OutputWriteError(path: directory.path, reason: Self.reason(error))
        }
        created.append(directory)
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
            let message = String(validatingCString: strerror(Int32(underlying.code)))
        {
            return message
        }
        return (error as NSError).localizedDescription
    }
}
