import Foundation

/// One file to put on disk.
struct PlannedOutput: Hashable, Sendable {
    var url: URL
    var contents: String
}

/// Where an output stands against the file on disk, once the run is over.
public enum OutputState: Hashable, Sendable {
    /// Kept in memory only (`OutputMode.inMemory`).
    case inMemory
    /// Written (it was missing or different).
    case written
    /// On disk already with this content: not touched, its modification time kept.
    case unchanged
    /// Not on disk (`OutputMode.verify`: nothing was written).
    case missing
    /// On disk with other content (`OutputMode.verify`: nothing was written).
    case stale
}

/// An output that cannot be written (the run then changes nothing).
struct OutputWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    var path: String
    var reason: String

    var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writes generated files all or nothing. Files are staged one at a time, as they are generated
/// (so a run need not hold every generated text at once): a changed file is written to a temporary
/// file beside its target; only when every file is staged are the temporaries renamed into place.
/// On any failure the temporaries, and every folder the write created, are removed. A file whose
/// content would not change is left alone (its modification time stays).
enum OutputWriter {
    /// Whether the file at `url` holds exactly `contents` (`.unchanged`), other bytes (`.stale`),
    /// or is missing.
    static func state(of url: URL, comparedWith contents: String) -> OutputState {
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        return hasBytes(data, of: contents) ? .unchanged : .stale
    }

    /// Whether `data` is the UTF-8 of `text` (compared in place when the text is contiguous).
    private static func hasBytes(_ data: Data, of text: String) -> Bool {
        guard data.count == text.utf8.count else { return false }
        let equal = text.utf8.withContiguousStorageIfAvailable { text in
            data.withUnsafeBytes { bytes in bytes.elementsEqual(text) }
        }
        return equal ?? data.elementsEqual(text.utf8)
    }

    /// Writes `outputs` all or nothing; returns the ones written (missing or different before).
    @discardableResult
    static func write(_ outputs: [PlannedOutput]) throws(OutputWriteError) -> [PlannedOutput] {
        let transaction = Transaction()
        var written: [PlannedOutput] = []
        do {
            for output in outputs where try transaction.stage(output) == .written {
                written.append(output)
            }
            try transaction.commit()
        } catch {
            transaction.rollback()
            throw error
        }
        return written
    }

    /// One all-or-nothing write: `stage` each file, then `commit`; `rollback` after a failure.
    final class Transaction {
        private let fileManager = FileManager.default
        private var createdDirectories: [URL] = []
        private var temporaries: [(temporary: URL, final: URL)] = []

        /// Compares `output` with the disk and, when it differs, writes it to a temporary file beside
        /// its target. Returns `.written` (pending until `commit`) or `.unchanged`.
        func stage(_ output: PlannedOutput) throws(OutputWriteError) -> OutputState {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: output.url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw OutputWriteError(path: output.url.path, reason: "a folder is in the way")
            }
            guard OutputWriter.state(of: output.url, comparedWith: output.contents) != .unchanged else { return .unchanged }
            let directory = output.url.deletingLastPathComponent()
            try createDirectory(directory)
            let temporary = directory.appendingPathComponent(".\(output.url.lastPathComponent).\(UUID().uuidString).tmp")
            do {
                try Data(output.contents.utf8).write(to: temporary, options: .withoutOverwriting)
            } catch {
                throw OutputWriteError(path: output.url.path, reason: Self.reason(error))
            }
            temporaries.append((temporary, output.url))
            return .written
        }

        /// Renames every staged file into place.
        func commit() throws(OutputWriteError) {
            for (index, entry) in temporaries.enumerated() where rename(entry.temporary.path, entry.final.path) != 0 {
                let error = OutputWriteError(path: entry.final.path, reason: String(cString: strerror(errno)))
                // Files already renamed cannot be taken back: keep them and the folders holding them.
                temporaries.removeFirst(index)
                if index > 0 { createdDirectories = [] }
                throw error
            }
            temporaries = []
            createdDirectories = []
        }

        /// Removes the staged temporaries and the folders this write created.
        func rollback() {
            for entry in temporaries { try? fileManager.removeItem(at: entry.temporary) }
            for directory in createdDirectories.reversed() { try? fileManager.removeItem(at: directory) }
            temporaries = []
            createdDirectories = []
        }

        /// Creates `directory` and any missing parents, remembering the ones it created (outermost first).
        private func createDirectory(_ directory: URL) throws(OutputWriteError) {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
                if isDirectory.boolValue { return }
                throw OutputWriteError(path: directory.path, reason: "not a directory")
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path != directory.path { try createDirectory(parent) }
            do {
                try fileManager.createDirectory(at: directory, withIntermediateDirectories: false)
            } catch {
                throw OutputWriteError(path: directory.path, reason: Self.reason(error))
            }
            createdDirectories.append(directory)
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
}
