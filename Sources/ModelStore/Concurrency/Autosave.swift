import Dispatch
import Foundation

/// Where a context's autosave runs: where the context is used, so saving never races its owner.
enum AutosaveExecutor {
    /// The main actor (the container's `mainContext`).
    case mainActor
    /// A model actor's serial queue (a context owned by a `DefaultSerialModelExecutor`).
    case queue(DispatchQueue)
}

/// A context's autosave settings and state.
struct AutosaveState {
    var isEnabled = false
    /// Nil for a context of your own: there is no executor known to own it, so it cannot autosave.
    var executor: AutosaveExecutor?
    /// Whether an autosave is already scheduled (changes until it runs are coalesced into it).
    var isScheduled = false
    /// The last autosave failure, until a save succeeds.
    var lastError: (any Error)?
    /// The container, held weakly (a main context does not keep its container alive, and must
    /// not touch it once it is gone); set with the executor.
    weak var container: ModelContainer?

    /// The main context's: enabled, on the main actor.
    static func mainContext(of container: ModelContainer) -> AutosaveState {
        AutosaveState(isEnabled: true, executor: .mainActor, container: container)
    }
}

extension ModelContext {
    /// Whether the context saves its pending changes by itself, soon after they are made
    /// (SwiftData's `autosaveEnabled`). True by default for the container's `mainContext`, which
    /// autosaves on the main actor; false for contexts you make. A context owned by a model actor
    /// (`DefaultSerialModelExecutor`) autosaves on that actor's executor when you set it to true.
    /// A context of your own that no executor owns has nowhere safe to save from: setting this
    /// has no effect on it; call `save()`.
    ///
    /// Changes made before the autosave runs are coalesced into one save. A failed autosave keeps
    /// the changes pending, sets `autosaveError`, posts `ModelContext.autosaveDidFail` and writes a
    /// line to standard error; the next change schedules another attempt (or call `save()`).
    public var autosaveEnabled: Bool {
        get { autosave.isEnabled }
        set {
            autosave.isEnabled = newValue
            if newValue && hasChanges { noteChange() }
        }
    }

    /// The error of the last autosave that failed, nil once a save succeeded.
    public var autosaveError: (any Error)? { autosave.lastError }

    /// Makes the context autosave on `executor` (set by the main context and by model executors).
    func autosaveRunsOn(_ executor: AutosaveExecutor) {
        autosave.executor = executor
        autosave.container = container
    }

    /// Hook of every change (insert, delete, first change of a saved model, join-table link):
    /// schedules one autosave for the changes made until it runs. Its test is inlined where a
    /// change is recorded: as a call, it cost a call per change with autosave off too (every
    /// context of your own; docs/Benchmarks.md, "Writes").
    @inline(__always) func noteChange() {
        guard autosave.isEnabled, !autosave.isScheduled else { return }
        scheduleAutosave()
    }

    /// Schedules the autosave `noteChange()` asked for, where the context has an executor.
    private func scheduleAutosave() {
        guard let executor = autosave.executor, let container = autosave.container else { return }
        autosave.isScheduled = true
        let target = AutosaveTarget(context: self, container: container)
        switch executor {
        case .mainActor:
            DispatchQueue.main.async { target.run() }
        case .queue(let queue):
            queue.async { target.run() }
        }
    }

    /// Saves the pending changes (on the context's executor), reporting a failure.
    fileprivate func runAutosave() {
        autosave.isScheduled = false
        guard autosave.isEnabled, hasChanges || deferredError != nil else { return }
        do {
            try save()
        } catch {
            autosave.lastError = error
            FileHandle.standardError.write(Data("ModelStore: autosave failed, the changes stay pending: \(error)\n".utf8))
            NotificationCenter.default.post(name: Self.autosaveDidFail, object: self,
                                            userInfo: [NotificationKey.error.rawValue: error])
        }
    }
}

/// The context a scheduled autosave saves, held weakly with its container (a main context does
/// not keep its container alive): if either is gone when the autosave runs, nothing happens.
/// Sent to the context's own executor (main actor or model actor queue), the only place it is
/// used, hence `@unchecked Sendable`.
private struct AutosaveTarget: @unchecked Sendable {
    weak var context: ModelContext?
    weak var container: ModelContainer?

    func run() {
        guard let container, let context else { return }
        withExtendedLifetime(container) { context.runAutosave() }
    }
}
