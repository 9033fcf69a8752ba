import CSQLite

/// A test hook that makes the n-th SQLite step, bind or commit on one connection fail, to check
/// that a failed `save()` leaves the store and the context as they were. Off (nil) in normal use:
/// the call sites cost one nil check. Tests reach it with `@testable import ModelStore`.
final class FaultInjector {
    /// The kinds of calls counted.
    enum Operation: String {
        case step, bind, commit
    }

    /// The 1-based number of the call that fails.
    let failingCall: Int
    /// Calls counted so far.
    private(set) var calls = 0
    /// The call that failed, once it has.
    private(set) var failed: Operation?

    /// An injector that fails call number `failingCall` (steps, binds and commits counted together).
    init(failingCall: Int) {
        self.failingCall = failingCall
    }

    /// Counts a call; true when this one must fail.
    func shouldFail(_ operation: Operation) -> Bool {
        calls += 1
        guard calls == failingCall else { return false }
        failed = operation
        return true
    }

    /// The error an injected failure reports (an I/O error, as a failing disk would give).
    static func error(_ operation: Operation, sql: String?) -> SQLiteError {
        SQLiteError(code: SQLITE_IOERR, extendedCode: SQLITE_IOERR,
                    message: "injected fault in \(operation.rawValue)", sql: sql)
    }
}

extension SQLiteConnection {
    /// Throws the injected failure when the injector says this call fails.
    func injectFault(_ operation: FaultInjector.Operation, sql: String?) throws {
        if let faultInjector, faultInjector.shouldFail(operation) {
            throw FaultInjector.error(operation, sql: sql)
        }
    }
}

extension SQLiteStatement {
    /// Checks the result of a `sqlite3_bind_*` call of `value`: the fast path when it succeeded and
    /// no fault injector or value trace is set (`value` is then not even made), else `noteBind`.
    @inline(__always) func checkBind(_ result: Int32, at index: Int32, _ value: @autoclosure () -> SQLValue) {
        // Parameter n is bit n - 1 (a statement with more than 64 parameters is cleared at reset, so
        // the bit of a parameter past 64, which wraps, is not used).
        boundParameters |= 1 &<< UInt64(truncatingIfNeeded: index &- 1)
        if _slowPath(result != SQLITE_OK || observesBinds) { noteBind(result, at: index, value()) }
    }

    /// Records the result of a `sqlite3_bind_*` call (or an injected failure): the first failed
    /// bind is thrown by the next `step()`, so a value SQLite refused never goes unnoticed. A
    /// trace that shows values notes `value` (SQLiteTrace.swift).
    func noteBind(_ result: Int32, at index: Int32, _ value: SQLValue) {
        if let trace = connection.trace, trace.tracer.capturesValues { trace.noteBind(value, at: index, of: handle) }
        if let injector = connection.faultInjector, injector.shouldFail(.bind), bindFailure == nil {
            bindFailure = FaultInjector.error(.bind, sql: sql)
        }
        if result != SQLITE_OK, bindFailure == nil {
            bindFailure = SQLiteError(code: result & 0xFF, extendedCode: result,
                                      message: "cannot bind parameter \(index): \(String(cString: sqlite3_errstr(result)))", sql: sql)
        }
    }

    /// Records that the value bound at `index` is NaN, which SQLite would silently store as NULL.
    func noteNaN(at index: Int32) {
        if bindFailure == nil {
            bindFailure = SQLiteError(code: SQLITE_MISMATCH, extendedCode: SQLITE_MISMATCH,
                                      message: "cannot store NaN (not a number) in parameter \(index): SQLite has no NaN", sql: sql)
        }
    }
}
