import Foundation

/// A value shared between tasks, threads or notification observers, behind a lock.
///
/// An `NSLock` (a pthread mutex), not `Synchronization.Mutex`: ThreadSanitizer intercepts pthread
/// mutexes, while `Mutex` locks with atomics and futex calls in an uninstrumented library, so the
/// sanitizer cannot see its ordering and reports the accesses it protects as races.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }

    var value: Value { withLock { $0 } }
}
