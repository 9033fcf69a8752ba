import Foundation

/// The load stage: finds the `.model` files the inputs name and reads them, refusing inputs past
/// the size limit before reading them (a huge input is a clear error, not an out-of-memory kill).
enum SourceLoader {
    /// The model files named by `paths` (files or folders, see `InputDiscovery`), read in order.
    /// Throws when an input is missing or unreadable, or the files hold more than `maximumBytes`.
    static func load(_ paths: [String], maximumBytes: Int) throws(InputError) -> [ModelSource] {
        let found = try InputDiscovery.discover(paths)
        var total = 0
        for model in found {
            let size = (try? FileManager.default.attributesOfItem(atPath: model.path))?[.size] as? Int ?? 0
            total += size
            if total > maximumBytes { throw tooLarge(total, maximumBytes, at: model.path) }
        }
        var sources: [ModelSource] = []
        sources.reserveCapacity(found.count)
        total = 0
        for model in found {
            guard let data = FileManager.default.contents(atPath: model.path) else {
                throw InputError("cannot read '\(model.path)'")
            }
            // Checked again on what was read: a file may have grown since it was measured.
            total += data.count
            if total > maximumBytes { throw tooLarge(total, maximumBytes, at: model.path) }
            sources.append(ModelSource(SourceFile(path: model.path, bytes: Array(data)), relativePath: model.relativePath))
        }
        return sources
    }

    /// Sources given in memory, under the same size limit.
    static func check(_ sources: [ModelSource], maximumBytes: Int) throws(InputError) -> [ModelSource] {
        var total = 0
        for source in sources {
            total += source.file.bytes.count
            if total > maximumBytes { throw tooLarge(total, maximumBytes, at: source.path) }
        }
        return sources
    }

    private static func tooLarge(_ total: Int, _ limit: Int, at path: String) -> InputError {
        InputError("the inputs hold more than \(megabytes(limit)) of model text (\(megabytes(total)) up to '\(path)'): "
            + "split the model into several runs, each under the limit")
    }

    /// `bytes` in MB (mebibytes): whole from 10 MB up, else with one decimal; never less than
    /// `bytes` says (rounded up), so a total just past a limit does not print as the limit.
    static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return value < 10 ? String(format: "%.1f MB", (value * 10).rounded(.up) / 10) : "\(Int(value.rounded(.up))) MB"
    }
}
