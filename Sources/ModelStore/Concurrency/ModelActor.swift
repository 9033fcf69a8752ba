import Dispatch

/// Runs storage work with one model context (SwiftData's `ModelExecutor`). An executor owns its
/// context: everything that touches the context runs on the executor.
public protocol ModelExecutor: Executor {
    /// The context the executor's work uses.
    var modelContext: ModelContext { get }
}

/// A model executor that runs one job at a time (SwiftData's `SerialModelExecutor`): the
/// executor of a `ModelActor`.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// The serial executor `@ModelActor` gives an actor (SwiftData's `DefaultSerialModelExecutor`):
/// a serial dispatch queue that runs the actor's jobs, one at a time, with the context it owns.
///
/// The context is handed over at creation and then used only by jobs on this executor, which is
/// what makes the executor `Sendable` although `ModelContext` is not. An autosaving context
/// (`autosaveEnabled = true`) saves on this executor too.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    /// The context the actor's code uses (through `ModelActor.modelContext`).
    public let modelContext: ModelContext
    private let queue: DispatchQueue

    /// An executor owning `modelContext`: use the context only from the actor this executor runs.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        let queue = DispatchQueue(label: "ModelStore.DefaultSerialModelExecutor")
        self.queue = queue
        modelContext.autosaveRunsOn(.queue(queue))
    }

    /// Runs `job` after the jobs enqueued before it, never two at once.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { unownedJob.runSynchronously(on: executor) }
    }

    /// The executor as the runtime refers to it.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Stops the process unless the caller runs on this executor (backs `assumeIsolated` and
    /// `preconditionIsolated` for code called synchronously from the executor's queue).
    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

/// An actor that owns a model context and runs every use of it on its own serial executor
/// (SwiftData's `ModelActor`). Without macros, write what `@ModelActor` expands to:
///
/// ```swift
/// actor TripImporter: ModelActor {
///     nonisolated let modelExecutor: any ModelExecutor
///     nonisolated let modelContainer: ModelContainer
///     init(modelContainer: ModelContainer) {
///         self.modelContainer = modelContainer
///         self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
///     }
/// }
/// ```
///
/// Models and contexts stay inside the actor; pass `PersistentIdentifier`s (which are `Sendable`)
/// in and out, and look them up with `self[identifier, as: Trip.self]`.
public protocol ModelActor: Actor {
    /// The executor that runs the actor's code; its context is `modelContext`.
    nonisolated var modelExecutor: any ModelExecutor { get }
    /// The container the actor's context works on.
    nonisolated var modelContainer: ModelContainer { get }
}

extension ModelActor {
    /// The actor runs on its model executor, so its code and its context share one serial queue.
    /// The executor must be a `SerialModelExecutor` (`DefaultSerialModelExecutor` is); anything
    /// else stops the process with a message, as an actor cannot run on a concurrent executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialModelExecutor else {
            preconditionFailure("\(Self.self).modelExecutor must be a SerialModelExecutor (e.g. DefaultSerialModelExecutor)")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The actor's context: the one its executor owns.
    public var modelContext: ModelContext {
        modelExecutor.modelContext
    }

    /// The model with `id`, as a `T`: registered in the actor's context, or read from the store.
    /// Nil when the row is gone or is not a `T`.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as type: T.Type) -> T? {
        modelContext.model(for: id) as? T
    }
}
