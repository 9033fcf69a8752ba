import Foundation

/// Wall-clock and CPU timing of benchmark steps.
public enum Timing {
    /// The time a step took: wall clock (monotonic), and CPU time of the calling thread, which a
    /// busy machine inflates far less than the wall clock (it leaves out waiting for the disk too);
    /// and the minor page faults the thread took meanwhile (memory touched for the first time since
    /// the system gave it: each costs the kernel's time, counted in both clocks but in no
    /// instruction count of the process).
    public struct Sample: Sendable {
        public var wall: Double
        public var cpu: Double
        public var minorFaults: Int

        public init(wall: Double, cpu: Double, minorFaults: Int = 0) {
            self.wall = wall
            self.cpu = cpu
            self.minorFaults = minorFaults
        }
    }

    /// The time `body` takes, and its result.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (sample: Sample, result: T) {
        let clock = ContinuousClock()
        let faultsStart = threadMinorFaults()
        let cpuStart = threadCPUSeconds()
        var result: T?
        let duration = try clock.measure { result = try body() }
        let cpu = threadCPUSeconds() - cpuStart
        let faults = threadMinorFaults() - faultsStart
        let parts = duration.components
        return (Sample(wall: Double(parts.seconds) + Double(parts.attoseconds) * 1e-18, cpu: cpu, minorFaults: faults), result!)
    }

    /// Minor page faults taken by the calling thread so far (`getrusage(RUSAGE_THREAD)`; 0 where
    /// the system has no per-thread usage).
    public static func threadMinorFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1): a GNU extension the Glibc module does not import by name.
        guard getrusage(__rusage_who_t(1), &usage) == 0 else { return 0 }
        return Int(usage.ru_minflt)
    }

    /// CPU seconds used by the calling thread so far.
    public static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The median of `values` (the mean of the two middle ones for an even count); 0 when empty.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The system's load average over the last minute (0 where unknown), to print beside timings.
    public static func loadAverage() -> Double {
        var loads = [0.0, 0.0, 0.0]
        return getloadavg(&loads, 3) > 0 ? loads[0] : 0
    }
}
