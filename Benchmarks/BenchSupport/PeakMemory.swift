import Foundation

/// The process's peak resident memory (Linux `VmHWM`), resettable between workloads.
public enum PeakMemory {
    /// Resets the peak to the current resident size (writes `5` to `/proc/self/clear_refs`),
    /// after handing the memory the allocator keeps free back to the system (`malloc_trim`), so
    /// that what an earlier workload freed does not hide what the next one needs. Without
    /// `trimmingAllocator` the allocator is left alone: the peaks of the parts of one workload,
    /// measured one after the other, then have the whole workload's peak as their maximum.
    /// Returns false where that is not possible; the peak then covers the whole run so far.
    @discardableResult
    public static func reset(trimmingAllocator: Bool = true) -> Bool {
        if trimmingAllocator { trimAllocator() }
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// glibc's `malloc_trim(0)`, looked up at run time (its header is not in the Glibc module);
    /// nothing where the C library has none.
    private static func trimAllocator() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// The peak resident size in bytes since the last reset, from `/proc/self/status`
    /// (`getrusage`'s maximum when that file is missing).
    public static func peakBytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let digits = line.dropFirst("VmHWM:".count).filter(\.isNumber)
                if let kilobytes = Int(digits) { return kilobytes * 1024 }
            }
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }

    /// The resident size in bytes now (`VmRSS`), 0 where unknown.
    public static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            if let kilobytes = Int(line.dropFirst("VmRSS:".count).filter(\.isNumber)) { return kilobytes * 1024 }
        }
        return 0
    }

    /// `bytes` as mebibytes with one decimal (`123.4 MB`).
    public static func format(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
