import Foundation

extension ModelContext {
    /// Posted on `NotificationCenter.default` by `save()` (and autosave) before it writes
    /// anything, when the context has changes; `object` is the context. Observers run on the
    /// saving thread and may still change the context: their changes are part of the save.
    public static let willSave = Notification.Name("ModelContext.willSave")

    /// Posted on `NotificationCenter.default` after a save committed; `object` is the context.
    /// `userInfo` holds `[PersistentIdentifier]` under the raw values of
    /// `NotificationKey.insertedIdentifiers` (the new models' permanent identifiers),
    /// `.updatedIdentifiers` (models whose row or many-to-many links the save wrote) and
    /// `.deletedIdentifiers` (models deleted, cascades included):
    ///
    /// ```swift
    /// let inserted = note.userInfo?[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier]
    /// ```
    public static let didSave = Notification.Name("ModelContext.didSave")

    /// Posted on `NotificationCenter.default` when an autosave failed (ModelStore's addition);
    /// `object` is the context, `userInfo[NotificationKey.error.rawValue]` the error. The changes
    /// stay pending; `autosaveError` holds the error until a save succeeds.
    public static let autosaveDidFail = Notification.Name("ModelContext.autosaveDidFail")

    /// Keys of the `userInfo` of the context's notifications (SwiftData's `NotificationKey`):
    /// use their `rawValue`.
    public enum NotificationKey: String, Sendable {
        /// `[PersistentIdentifier]` of the models a save inserted.
        case insertedIdentifiers = "inserted"
        /// `[PersistentIdentifier]` of the models a save updated.
        case updatedIdentifiers = "updated"
        /// `[PersistentIdentifier]` of the models a save deleted.
        case deletedIdentifiers = "deleted"
        /// The error of `autosaveDidFail` (ModelStore's addition).
        case error
    }

    /// Hook of `save()`: tells observers a save with changes is about to run.
    func postWillSave() {
        NotificationCenter.default.post(name: Self.willSave, object: self)
    }

    /// Hook of `save()` after its commit: autosave bookkeeping, then `didSave`.
    func saveDidFinish(_ saved: SavedChanges) {
        autosave.lastError = nil
        NotificationCenter.default.post(name: Self.didSave, object: self, userInfo: [
            NotificationKey.insertedIdentifiers.rawValue: saved.inserted,
            NotificationKey.updatedIdentifiers.rawValue: saved.updated,
            NotificationKey.deletedIdentifiers.rawValue: saved.deleted,
        ])
    }
}
