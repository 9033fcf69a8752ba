import Observation

/// The face of a model's Observation registrar that generated accessors call: the same
/// `access` / `withMutation` as `ObservationRegistrar`, with the registrar's storage made only
/// when a property is first read, and changes before that skipping the (observer-less) registrar.
@_spi(ModelStoreGenerated) public struct LazyObservationRegistrar {
    /// The model whose registrar this is.
    let owner: ModelObject

    /// Records a read of `keyPath` for the observation tracking in progress (as `ObservationRegistrar.access`).
    public func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        owner.observeRead(subject, keyPath)
    }

    /// Tells the observers of `keyPath` before it changes (as `ObservationRegistrar.willSet`).
    public func willSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        if owner.hasRegistrar { owner.registrarStorage.withRegistrar { $0.willSet(subject, keyPath: keyPath) } }
    }

    /// Tells the observers of `keyPath` after it changed (as `ObservationRegistrar.didSet`).
    public func didSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        if owner.hasRegistrar { owner.registrarStorage.withRegistrar { $0.didSet(subject, keyPath: keyPath) } }
    }

    /// Runs `mutation` between `willSet` and `didSet` of `keyPath` (as `ObservationRegistrar.withMutation`).
    /// Without a registrar nothing was ever read through it, so no observer waits: only `mutation` runs.
    /// With one, the change counts as in progress in the model's context until `didSet`: an
    /// observer's `onChange` (called at `willSet`, before the new value is set) that saves the
    /// context gets `ModelStoreError.saveInProgress` instead of storing the old value.
    public func withMutation<Subject: Observable, Member, T>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> T
    ) rethrows -> T {
        guard owner.hasRegistrar else { return try mutation() }
        return try countingMutation { try owner.registrarStorage.withRegistrar { try $0.withMutation(of: subject, keyPath: keyPath, mutation) } }
    }
}
