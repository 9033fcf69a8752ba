import Foundation

/// Tracks models, fetches them and saves their changes (SwiftData's `ModelContext`).
/// Like SwiftData's, a context belongs to one task or thread at a time: create one per task
/// from the shared, `Sendable` container. Each context has its own connection to the store.
public final class ModelContext {
    /// The container the context works on.
    public var container: ModelContainer { unownedContainer }

    private unowned let unownedContainer: ModelContainer
    /// A context keeps its container alive, except the container's own main context (no cycle).
    private let retainedContainer: ModelContainer?
    /// The name history records as the author of this context's saves (SwiftData's `author`).
    public var author: String?
    /// PostgreSQL only: where this context reads (fetches, counts, enumerations, relationship
    /// loads, history) on a cluster; nil (the default): the container's choice
    /// (`ModelConfiguration.readFrom`, else the URL's `read_from`). Saves always go to the primary,
    /// and a read on a standby sees every save of the container's contexts that returned before it
    /// (docs/Scaling.md, "Read routing").
    public var readFrom: ModelConfiguration.ReadSource? {
        didSet { routeReads() }
    }
    /// Autosave settings and state (`autosaveEnabled`, see Concurrency/Autosave.swift). Read on
    /// every change (`noteChange`): not checked for exclusive access, which cost more than the read
    /// (the context belongs to one thread at a time; `ContextGuards` checks that).
    @exclusivity(unchecked) var autosave = AutosaveState()

    let schema: Schema
    /// Read by every fetch; not checked for exclusive access at run time, as the lists below.
    @exclusivity(unchecked) private var openConnection: (any StoreConnection)?
    /// The link models of this context point to (made on first use; `ContextLink`).
    var link: ContextLink {
        if let made = linkStorage { return made }
        let made = ContextLink(self, weak: retainedContainer == nil)
        linkStorage = made
        return made
    }
    private var linkStorage: ContextLink?
    /// The change records of this context's changed saved models (ChangeTracking.swift).
    let changeLog = ChangeLog()
    // The lists below are read or written once per model that a fetch, an insert, a delete or a
    // save handles; like `dirty` and `autosave`, they are not checked for exclusive access at run
    // time (each check cost about 76 instructions, 1.5 M of an insert of 20,000 models per list):
    // the context belongs to one thread at a time (`ContextGuards` checks that), and no code
    // outside the runtime runs while one of them is being modified.

    /// Each entity's `ModelHome` in this context, by `EntitySchema.index` (made on first use).
    @exclusivity(unchecked) private var homes: [ModelHome?]

    /// The homes of each hierarchy's members (`hierarchyMembers(of:)`), by the fetched
    /// entity's `EntitySchema.index` (made on first use): a fetch takes them without making an array.
    @exclusivity(unchecked) private var memberHomes: [[ModelHome]?]

    /// The decoder of the last full-row fetch, kept for the next one on the same statement and
    /// entity (`materialize`): a loop of lookups makes no reader per fetch (its two allocations,
    /// initialization and release were about 0.6 k instructions a lookup: docs/Benchmarks.md,
    /// "Lookups"). It holds its statement, one of the context's connection's.
    @exclusivity(unchecked) var spareReader: RowReader?

    /// The translation cache's slot of the expression type this context fetched with last
    /// (`PredicateSQL.fastHit`): a loop of lookups finds it without the cache's lock.
    @exclusivity(unchecked) var fastMemo: FastMemo?

    /// Registered saved models by hierarchy (`EntitySchema.hierarchyIndex`), then row key
    /// (one object per row per context).
    @exclusivity(unchecked) var registered: [IdentityMap]
    /// The unsaved inserts, deletes, changes, relinks and join-table changes: their one owner
    /// (UnsavedChanges.swift), read through the properties below and changed through its methods.
    @exclusivity(unchecked) var unsaved = UnsavedChanges()
    /// Models inserted since the last save, in insertion order.
    var inserted: [ModelObject] { unsaved.inserted }
    /// Saved models deleted since the last save, in deletion order.
    var deleted: [ModelObject] { unsaved.deleted }
    /// Saved models whose row changed since the last save (each has a `ChangeRecord`).
    var dirty: [ModelObject] { unsaved.dirty }
    /// Saved models whose in-memory relationships changed since the last save.
    var touched: [ObjectIdentifier: ModelObject] { unsaved.touched }
    /// Join-table rows to add (true) or remove (false) at the next save, and their order.
    var linkChanges: [LinkKey: LinkChange] { unsaved.linkChanges }
    var linkOrder: [LinkKey] { unsaved.linkOrder }
    /// The `UPDATE` of each entity and set of changed columns met so far (one statement per
    /// distinct set of changed columns, prepared by the connection's cache).
    var partialUpdates: [PartialUpdateKey: PartialUpdate] = [:]
    /// The saves that wrote something, counted (`transaction(block:)` tells whether its block saved).
    var saveCount = 0
    /// An error from a non-throwing call (e.g. `insert` of an unknown type), thrown by the next `save()`.
    var deferredError: Error?
    /// While a batch runs (`enumerate`, `FetchResultsCollection`): the models fetches registered,
    /// let go of afterwards when nothing else holds them (ModelContext+Batches.swift). Read by
    /// every fetch: not checked for exclusive access at run time, as the lists above.
    @exclusivity(unchecked) var registrationLog: [RegistrationLog]?
    /// While `enumerate` reads a batch: the models the batch before let go of, deallocated one
    /// before each model the read makes, so its allocations reuse the memory just freed
    /// (ModelContext+Batches.swift; docs/Runtime.md, "Batches").
    @exclusivity(unchecked) var deallocatingWhileReading: [ModelObject] = []
    /// Checks against use from two threads at once and against nested saves.
    let guards = ContextGuards()
    /// The container's translation cache, SQL dialect and member tables, kept by the context and
    /// read from here: a plain fetch or count reads them each time, and each read through the
    /// unowned container was a strong load and a release (docs/Benchmarks.md, "Lookups").
    let predicateCache: PredicateTranslationCache
    let dialect: any SQLDialect
    let memberTables: [MemberTables]

    /// A context on `container`.
    public convenience init(_ container: ModelContainer) {
        self.init(container, ownedByContainer: false)
    }

    /// A context; the container's main context does not retain its container (no cycle).
    init(_ container: ModelContainer, ownedByContainer: Bool) {
        self.unownedContainer = container
        self.retainedContainer = ownedByContainer ? nil : container
        self.schema = container.schema
        predicateCache = container.predicateCache
        dialect = container.driver.dialect
        memberTables = container.memberTables
        // Made by appending: `Array(repeating:count:)` looks up its storage class's generic
        // metadata in the runtime at each call (2 k instructions for the three, 7 % of a
        // PostgreSQL count on a new context: docs/Benchmarks.md, "Reads").
        let entityCount = container.schema.entities.count
        self.registered = Self.array(of: IdentityMap(), count: container.schema.hierarchyCount)
        self.homes = Self.array(of: nil, count: entityCount)
        self.memberHomes = Self.array(of: nil, count: entityCount)
        if ownedByContainer { autosave = .mainContext(of: container) }
    }

    /// `count` copies of `value`, appended to an array that reserved them.
    @inline(__always) private static func array<Element>(of value: Element, count: Int) -> [Element] {
        var array: [Element] = []
        array.reserveCapacity(count)
        for _ in 0..<count { array.append(value) }
        return array
    }

    /// Models that outlive the context find no context through their link from here on. The
    /// connection goes back to the store for the next context (SQLite: `keepForReuse`), but the
    /// container's main context's, which ends with its container.
    deinit {
        linkStorage?.contextEnded()
        spareReader = nil
        if let retainedContainer, openConnection != nil { retainedContainer.driver.keepForReuse(&openConnection) }
    }

    /// The context's connection, opened on first use.
    func connection() throws -> any StoreConnection {
        if let openConnection { return openConnection }
        let connection = try container.makeConnection()
        openConnection = connection
        routeReads()
        return connection
    }

    /// Tells the connection where this context reads (a store with standbys: docs/Scaling.md, "Read routing").
    private func routeReads() {
        openConnection?.routeReads(from: readFrom)
    }

    // MARK: State

    /// Whether there are unsaved inserts, deletes or changes.
    public var hasChanges: Bool {
        !inserted.isEmpty || !deleted.isEmpty || !dirty.isEmpty || !linkChanges.isEmpty
    }

    /// Models inserted and not saved yet.
    public var insertedModelsArray: [any PersistentModel] { inserted.compactMap { $0 as? any PersistentModel } }
    /// Models deleted and not saved yet.
    public var deletedModelsArray: [any PersistentModel] { deleted.compactMap { $0 as? any PersistentModel } }
    /// Saved models with unsaved changes.
    public var changedModelsArray: [any PersistentModel] { dirty.compactMap { $0 as? any PersistentModel } }

    // MARK: Insert and delete

    /// Registers a new model (and the new models it relates to); it is stored at the next `save()`.
    /// Inserting a model that is deleted but not saved undoes the deletion.
    public func insert<T: PersistentModel>(_ model: T) {
        insertObject(model._$modelObject)
    }

    /// The `ModelHome` of this context's models of `entity`.
    func home(for entity: EntitySchema) -> ModelHome {
        if let home = homes[entity.index] { return home }
        let home = ModelHome(link: link, entity: entity, store: container.storeIdentifier)
        homes[entity.index] = home
        return home
    }

    /// The homes of `entity`'s hierarchy members, in `hierarchyMembers(of:)` order.
    func memberHomes(of entity: EntitySchema) -> [ModelHome] {
        if let homes = memberHomes[entity.index] { return homes }
        let homes = hierarchyMembers(of: entity).map { home(for: $0.entity) }
        memberHomes[entity.index] = homes
        return homes
    }

    func insertObject(_ object: ModelObject) {
        guards.enter()
        defer { guards.leave() }
        if belongsToAnotherContext(object) {
            deferError(ModelStoreError.modelInOtherContext(object.persistentModelID.entityName))
            return
        }
        switch object.status {
        case .detached, .removed:
            guard let entity = schema.entity(for: type(of: object)) else {
                deferError(schema.missingEntityError(for: type(of: object)))
                return
            }
            object.home = home(for: entity)
            object.status = .inserted
            object.rowID = nil
            // No slots: no relationship was ever set, so no related model to adopt.
            let relates = !object.slotsAreEmpty
            RelationshipGraph.ensureSlots(object, count: entity.relationships.count)
            unsaved.noteInserted(object)
            noteChange()
            if relates { adoptRelated(of: object) }
        case .deleted:
            object.status = .persisted
            unsaved.noteUndeleted(object)
        case .inserted, .persisted:
            return
        }
    }

    /// Inserts the detached models `object` relates to, and records its join-table rows.
    private func adoptRelated(of object: ModelObject) {
        for info in RelationshipGraph.infos(of: object) where info.slot < object.slotCount {
            switch object.slot(info.slot) {
            case .object(let related?):
                insertObject(related)
            case .objects(let list):
                for related in list {
                    if info.usesJoinTable { recordLink(owner: object, slot: info.slot, other: related, linked: true) }
                    insertObject(related)
                }
            default:
                break
            }
        }
    }

    /// Marks a model for deletion at the next `save()`, where delete rules apply.
    public func delete<T: PersistentModel>(_ model: T) {
        guards.enter()
        defer { guards.leave() }
        let object = model._$modelObject
        if belongsToAnotherContext(object) {
            deferError(ModelStoreError.modelInOtherContext(object.persistentModelID.entityName))
            return
        }
        guard object.link === link else { return }
        switch object.status {
        case .inserted:
            // Never saved: forgotten at once, with no delete rule to run (nothing was stored); the
            // models it relates to no longer hold it, so a pending fetch or a count judges them
            // without it, as after a save (docs/Runtime.md, "Deleting a model not saved yet").
            unsaved.forgetInserted(object)
            detachFromGraph([object], removed: [ObjectIdentifier(object)])
            object.status = .removed
        case .persisted:
            object.status = .deleted
            unsaved.noteDeleted(object)
            noteChange()
        case .detached, .deleted, .removed:
            return
        }
    }

    /// Marks every model of `model` (and, if `includeSubclasses`, its subclasses) that satisfies
    /// `predicate` for deletion at the next `save()`. The context's unsaved changes count, as in
    /// `fetch`: inserted models that match are removed, changed models are judged on their values
    /// in memory.
    ///
    /// - Throws: `ModelStoreError.unsupportedPredicate`; `.unknownEntity`; the store's error.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws {
        guards.enter()
        defer { guards.leave() }
        let entity = try entity(for: T.self)
        for model in try fetch(FetchDescriptor<T>(predicate: predicate)) where includeSubclasses || model._$modelObject.entity === entity {
            delete(model)
        }
    }

    // MARK: Change tracking (called by models)

    /// Records `value` as the saved value of `column` of a saved model, unless the column is
    /// already changed. The model's change record is made at its first change since the last save
    /// (the model then joins the changed models saved by the next `save()`).
    func recordChange(of object: ModelObject, column: Int, savedValue value: @autoclosure () -> SQLValue) {
        if let record = changeLog.record(of: object) {
            changeLog.add(column, savedValue: value(), to: record)
            return
        }
        guards.enter()
        defer { guards.leave() }
        changeLog.makeRecord(of: object, column: column, savedValue: value())
        unsaved.noteChanged(object)
        noteChange()
    }

    /// A saved model's to-one relationship at `slot` was set: its key column joins the model's
    /// changes, with `savedKey` (the key before the change) as its saved value.
    func keyDidChange(of object: ModelObject, slot: Int, savedKey: Int64?) {
        guard let entity = object.entity, let index = entity.keySlots.firstIndex(of: slot) else { return }
        recordChange(of: object, column: entity.attributes.count + index, savedValue: savedKey.map(SQLValue.integer) ?? .null)
        unsaved.noteTouched(object)
    }

    /// The key a to-one slot stores (nil: none, or a related model not saved yet).
    func keyValue(of object: ModelObject, slot: Int) -> Int64? {
        guard slot < object.slotCount else { return nil }
        switch object.slot(slot) {
        case .key(let key): return key
        case .object(let related): return related?.rowID
        case .unloaded, .objects: return nil
        }
    }

    /// Records a join-table row to add or remove.
    func recordLink(owner: ModelObject, slot: Int, other: ModelObject, linked: Bool) {
        guards.enter()
        defer { guards.leave() }
        guard let entity = owner.entity ?? schema.entity(for: type(of: owner)), slot < entity.relationships.count,
              case .joinTable(let table, let ownColumn, _) = entity.relationships[slot].storage else { return }
        let (source, target) = ownColumn == StorageNames.source ? (owner, other) : (other, owner)
        let key = LinkKey(table: table, source: ObjectIdentifier(source), target: ObjectIdentifier(target))
        unsaved.noteLink(key, LinkChange(table: table, source: source, target: target, linked: linked))
        noteChange()
    }
}

/// An entity (`EntitySchema.index`) and a set of its changed value columns.
struct PartialUpdateKey: Hashable {
    let entity: Int
    let columns: PositionSet
}

/// A join-table row, by its two models.
struct LinkKey: Hashable {
    let table: String
    let source: ObjectIdentifier
    let target: ObjectIdentifier
}

/// A join-table row to add or remove.
struct LinkChange {
    let table: String
    let source: ModelObject
    let target: ModelObject
    let linked: Bool
}
