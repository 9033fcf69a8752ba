import Foundation

/// Wall-clock timing of benchmark steps.
public enum Timing {
    /// Seconds `body` takes (monotonic clock), and its result.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let clock = ContinuousClock()
        var result: T?
        let duration = try clock.measure { result = try body() }
        let parts = duration.components
        return (Double(parts.seconds) + Double(parts.attoseconds) * 1e-18, result!)
    }

    /// The median of `values` (the mean of the two middle ones for an even count); 0 when empty.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
