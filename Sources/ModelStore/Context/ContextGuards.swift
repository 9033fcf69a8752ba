import Foundation
#if os(Linux)
import Synchronization
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a context checks about how it is used (issue #20): that no two threads are inside it at
/// once, and that no `save()` starts inside another (from an observer of a model change, or of a
/// save's own relationship updates).
final class ContextGuards {
    #if os(Linux)
    /// The thread inside one of the context's entry points (`pthread_self()`; 0: none). Only ever
    /// tried, never waited for: a thread that finds another thread's there has found the context
    /// used from two threads at once. A thread may re-enter (a fetch from inside `transaction`, a
    /// relationship loaded during a save): `depth` counts its entries. An atomic word, where a
    /// recursive pthread mutex's `trylock` and `unlock` took about 68 instructions an entry (every
    /// insert, delete, fetch and model's first change enters; docs/Benchmarks.md, "Writes").
    /// Acquiring when entered and releasing when left, as the mutex, so a context handed from one
    /// thread to another sees what the first did. (`Synchronization.Atomic` needs macOS 15 on
    /// Apple systems: there the mutex below stays.)
    private let owner = Atomic<UInt>(0)
    /// The owner's entries not yet left; read and written by the owner only.
    @exclusivity(unchecked) private var depth = 0
    #else
    /// Held by the thread inside one of the context's entry points. Only ever tried, never waited
    /// for: a thread that finds it held by another thread has found the context used from two
    /// threads at once. Recursive, so a thread may re-enter (a fetch from inside `transaction`, a
    /// relationship loaded during a save). A pthread mutex of its own, not an `NSRecursiveLock`
    /// (the same mutex behind Foundation's wrapper, whose calls were about 20 instructions of the
    /// 76 a guarded entry took: docs/Benchmarks.md, "Writes").
    private let inUse: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    /// Whether a `save()` of the context is running.
    var isSaving = false
    /// Changes of a model property of the context in progress (between Observation's `willSet`
    /// and `didSet`, when an observer's `onChange` runs): a save then would store the old value.
    var mutationsInProgress = 0

    #if os(Linux)
    init() {}

    /// Enters an entry point of the context; stops the process when another thread is inside.
    @inline(__always) func enter() {
        let thread = UInt(pthread_self())
        let (entered, inside) = owner.compareExchange(expected: 0, desired: thread, ordering: .acquiring)
        if entered {
            depth = 1
        } else if inside == thread {
            depth += 1
        } else {
            Self.usedFromTwoThreads()
        }
    }

    /// Leaves an entry point entered with `enter()` (on the same thread).
    @inline(__always) func leave() {
        depth -= 1
        if depth == 0 { owner.store(0, ordering: .releasing) }
    }
    #else
    init() {
        inUse = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let made = pthread_mutex_init(inUse, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(made == 0, "ModelContext: its guard's mutex could not be made (pthread_mutex_init: \(made))")
    }

    deinit {
        pthread_mutex_destroy(inUse)
        inUse.deallocate()
    }

    /// Enters an entry point of the context; stops the process when another thread is inside.
    @inline(__always) func enter() {
        if pthread_mutex_trylock(inUse) != 0 { Self.usedFromTwoThreads() }
    }

    /// Leaves an entry point entered with `enter()` (on the same thread).
    @inline(__always) func leave() {
        pthread_mutex_unlock(inUse)
    }
    #endif

    /// The precondition failure of a context used from two threads at once.
    static func usedFromTwoThreads() -> Never {
        fatalError("ModelContext used from two threads at once: a ModelContext and its models belong to one thread or task at a time"
                   + " (SwiftData's rule); give each thread or task its own ModelContext(container), or use a ModelActor")
    }
}

extension ModelContext {
    /// Starts a `save()`: throws `ModelStoreError.saveInProgress` when one is already running in
    /// this context, when a model of this context is being changed (an observer's `onChange`
    /// runs before the new value is set), or when this thread holds the container's write lock
    /// (a save of another context of the container is in progress further up this thread's stack:
    /// waiting for the lock would never end).
    func beginSave() throws {
        if guards.isSaving || guards.mutationsInProgress > 0 || container.driver.isWriteLockHeldByCurrentThread {
            throw ModelStoreError.saveInProgress
        }
        guards.isSaving = true
    }

    /// Ends a `save()` started with `beginSave()`.
    func endSave() {
        guards.isSaving = false
    }
}

extension LazyObservationRegistrar {
    /// Runs an observed change of `owner`, counted as in progress in the owner's context
    /// (`ContextGuards.mutationsInProgress`) while the registrar tells its observers.
    func countingMutation<T>(_ body: () throws -> T) rethrows -> T {
        guard let guards = owner.link?.context?.guards else { return try body() }
        guards.mutationsInProgress += 1
        defer { guards.mutationsInProgress -= 1 }
        return try body()
    }
}

extension ModelObject {
    /// Runs `body` (Observation's `willSet` of a stored attribute, where observers' `onChange`
    /// runs) counted as a change in progress in the model's context, as `countingMutation` does
    /// for relationships and `@Transient` properties.
    @usableFromInline final func countingMutation(_ body: () -> Void) {
        guard let guards = link?.context?.guards else { return body() }
        guards.mutationsInProgress += 1
        defer { guards.mutationsInProgress -= 1 }
        body()
    }
}
