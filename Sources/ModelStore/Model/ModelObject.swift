import Observation

/// The runtime base class of every generated model class. It carries the model's identity, its
/// context and the bookkeeping of change tracking; generated subclasses add the stored
/// properties, their accessors and the typed row reading and writing (`init(from:)`,
/// `_decode(from:)`, `_encode(to:)`). A generated base class also declares the `PersistentModel`
/// conformance and its `Identifiable.id` (docs/Runtime.md, "The contract").
///
/// Everything whose name starts with `_` is a hook of generated code (SPI `ModelStoreGenerated`),
/// not API.
///
/// The bookkeeping fields below are read and written for every fetched, inserted and changed
/// model; they are not checked for exclusive access at run time (each check cost more than the
/// access): a model belongs to its context's thread (`ContextGuards` checks that), and no code
/// outside the runtime runs while one of them is being modified.
open class ModelObject: Observable, Hashable {
    // The fields are in the order that packs them best: the references first, then the 9-byte
    // optional key and the three one-byte fields together (no padding between them), the
    // registrar's word last: 72 bytes with the object header (was 104).

    /// Where the model stands with its context.
    @usableFromInline enum Status {
        /// Not registered with any context.
        case detached
        /// Inserted, not saved yet.
        case inserted
        /// Saved in the store (registered with a context).
        case persisted
        /// Deleted, pending save.
        case deleted
        /// Deleted and saved: gone from the store.
        case removed
    }

    /// The model's context link and resolved entity, once registered: one object shared by the
    /// context's models of an entity (`ModelContext.home(for:)`), so a model carries one reference
    /// for both.
    @exclusivity(unchecked) final var home: ModelHome?
    /// The attributes (by `AttributeIndex`) a fetch with `propertiesToFetch` left unread: they hold
    /// a placeholder until first accessed, which loads them. Nil when every attribute is loaded.
    @exclusivity(unchecked) @usableFromInline final var unfetched: UnfetchedAttributes?
    /// Relationship values by slot (base relationships first, then the entity's own), read and
    /// written through `slots`; empty until a relationship is first set or read (a slot past the
    /// end is `.unloaded`), and while the slots are inline (`inlineKey`).
    @exclusivity(unchecked) final var slotArray: ContiguousArray<RelationshipValue> = []
    /// The row's primary key, once saved.
    @exclusivity(unchecked) final var rowID: Int64?
    /// Where the model stands with its context.
    @exclusivity(unchecked) @usableFromInline final var status: Status = .detached
    /// Whether in-memory relationships changed since the last save (bit 7), and the inline
    /// slots' form (bits 0–6, `RelationshipSlots.inline`; 0: the slots are `slotArray`).
    @exclusivity(unchecked) final var flags: UInt8 = 0
    /// Whether the registrar was made (in `registrarStorage`), on the first observed read.
    @exclusivity(unchecked) @usableFromInline final var hasRegistrar = false
    /// The to-one key of inline slots (`RelationshipSlots`): in what was padding before the
    /// registrar's word, so the model stays 72 bytes.
    @exclusivity(unchecked) final var inlineKey: Int32 = 0
    /// The model's change record in its context's `ChangeLog`: its first entry's index + 1; 0 when
    /// the row is unchanged since the last save. Read through `ChangeLog.record(of:)`.
    @exclusivity(unchecked) final var changeEntry: Int32 = 0
    /// The Observation registrar, once made: a word the model destroys itself (`RegistrarStorage`).
    @exclusivity(unchecked) @usableFromInline final var registrarStorage = RegistrarStorage()

    /// The columns changed since the last save and their saved values; nil when the row is unchanged.
    final var changes: ChangeRecord? { home?.link?.changeLog.record(of: self) }

    /// Whether saved values were changed since the last save (an unchanged model's answer is its
    /// `changeEntry` alone, without reaching the log).
    final var isDirty: Bool { changeEntry != 0 && changes != nil }

    /// Whether in-memory relationships changed since the last save.
    final var relationshipsChanged: Bool {
        get { flags & 0x80 != 0 }
        set { flags = newValue ? flags | 0x80 : flags & 0x7f }
    }

    /// The number of relationship slots (`slots.count`, read in place).
    @inline(__always) final var slotCount: Int {
        let inline = flags & 0x7f
        return inline == 0 ? slotArray.count : Int(inline >> 4 & 3) + 1
    }

    /// Whether the model has no relationship slots (`slots.isEmpty`, read in place).
    @inline(__always) final var slotsAreEmpty: Bool { flags & 0x7f == 0 && slotArray.isEmpty }

    /// The value of relationship slot `index` (`slots[index]`, read in place: the array is not
    /// copied into a `RelationshipSlots` first).
    @inline(__always) final func slot(_ index: Int) -> RelationshipValue {
        let inline = flags & 0x7f
        if inline == 0 { return slotArray[index] }
        return RelationshipSlots(array: [], inline: inline, key: inlineKey)[index]
    }

    /// Relationship values by slot (base relationships first, then the entity's own): `slotArray`,
    /// or, for a fetched row whose only loaded slot is its one to-one key, that key inline
    /// (`RelationshipSlots`), made into an array at the first other write.
    final var slots: RelationshipSlots {
        get { RelationshipSlots(array: slotArray, inline: flags & 0x7f, key: inlineKey) }
        _modify {
            // The array is moved into the view and back (no retain, no copy on write).
            var view = RelationshipSlots(array: [], inline: flags & 0x7f, key: inlineKey)
            swap(&view.array, &slotArray)
            defer {
                swap(&view.array, &slotArray)
                flags = flags & 0x80 | view.inline
                inlineKey = view.key
            }
            yield &view
        }
        set {
            slotArray = newValue.array
            flags = flags & 0x80 | newValue.inline
            inlineKey = newValue.key
        }
    }

    /// The context's shared link (a weak reference to the context, one per context). Setting it
    /// keeps the entity (a model not registered yet has neither, and setting it does nothing:
    /// registering goes through `ModelContext.home(for:)`).
    final var link: ContextLink? {
        get { home?.link }
        set { home = home.map { ModelHome($0, link: newValue) } }
    }

    /// The resolved entity, once registered.
    final var entity: EntitySchema? { home?.entity }

    /// The model's identifier names and entity, unretained (its home holds them, and the context's
    /// schema the entity); nil when the model has none. As strong references, the home and the
    /// entity were retained and released at each use in a save's per-model loops
    /// (docs/Benchmarks.md, "Writes").
    @inline(__always) final var unretainedNamesAndEntity: (names: Unmanaged<IdentifierNames>, entity: Unmanaged<EntitySchema>)? {
        guard let home = home.map(Unmanaged.passUnretained) else { return nil }
        return home._withUnsafeGuaranteedRef { ($0.names, Unmanaged.passUnretained($0.entity)) }
    }

    /// Calls `body` with the model's entity, borrowed (`unretainedNamesAndEntity`); nil without
    /// calling it when the model has none.
    @inline(__always) final func withEntity<Result>(_ body: (EntitySchema) throws -> Result) rethrows -> Result? {
        guard let entity = unretainedNamesAndEntity?.entity else { return nil }
        return try entity._withUnsafeGuaranteedRef(body)
    }

    /// Whether the model's link is `link` (one per context: `object.link === link`), compared
    /// without retaining the home or the link.
    @inline(__always) final func isLinked(to link: ContextLink) -> Bool {
        guard let home = home.map(Unmanaged.passUnretained) else { return false }
        return home._withUnsafeGuaranteedRef { $0.link.map(Unmanaged.passUnretained)?.toOpaque() == Unmanaged.passUnretained(link).toOpaque() }
    }

    /// The entity's `EntitySchema.index`, once registered: read without holding the entity (a
    /// save's per-model loops find their prepared statements by it).
    @inline(__always) final var entityIndex: Int? { home?.entity.index }

    /// Creates a new, unsaved model (called by generated initializers).
    public init() {}

    deinit {
        if hasRegistrar { registrarStorage.destroy() }
    }

    /// Moves the registrar out of the model (nil when none was made): the caller destroys it.
    /// Only for a model nothing else can reach (a batch's released model): its observers would
    /// no longer be told of its changes, and a later observed read makes a new registrar.
    final func takeRegistrar() -> RegistrarStorage? {
        guard hasRegistrar else { return nil }
        hasRegistrar = false
        defer { registrarStorage = RegistrarStorage() }
        return registrarStorage
    }

    /// Creates a model from a stored row (generated subclasses read their attributes, then call this).
    @_spi(ModelStoreGenerated) public required init(from row: RowDecoder) throws {
        status = .persisted
    }

    /// The generated metadata of the entity (overridden by every generated class).
    @_spi(ModelStoreGenerated) open class var schemaMetadata: EntityMetadata {
        fatalError("ModelObject subclasses must override schemaMetadata")
    }

    /// Writes the stored attributes: the base's (through `super`), then the class's own, each at
    /// its `AttributeIndex` (generated).
    @_spi(ModelStoreGenerated) open func _encode(to row: RowEncoder) {}

    /// Reads the stored attributes the decoder has (a refresh, a rollback, a late load of
    /// unfetched attributes): the base's (through `super`), then the class's own (generated).
    @_spi(ModelStoreGenerated) open func _decode(from row: RowDecoder) throws {}

    // MARK: PersistentModel

    /// The model itself, as the runtime base class.
    @_spi(ModelStoreGenerated) public final var _$modelObject: ModelObject { self }

    /// The model's identity: temporary until saved, then its store, entity and row key.
    public final var persistentModelID: PersistentIdentifier {
        let number = UInt(bitPattern: ObjectIdentifier(self))
        if let home {
            if let rowID { return PersistentIdentifier(names: home.names, rowID: rowID) }
            return PersistentIdentifier(names: home.temporaryNames, temporaryNumber: number)
        }
        let name = type(of: self).schemaMetadata.name
        if let rowID { return PersistentIdentifier(entityName: name, rowID: rowID, store: nil) }
        return PersistentIdentifier(entityName: name, temporaryNumber: number)
    }

    /// The context the model is registered with (nil when detached or deleted and saved).
    public final var modelContext: ModelContext? {
        switch status {
        case .detached, .removed: return nil
        default: return link?.context
        }
    }

    /// Whether the model was deleted (pending save, or saved).
    public final var isDeleted: Bool { status == .deleted || status == .removed }

    /// Whether the model is inserted, deleted or changed and not saved yet.
    public final var hasChanges: Bool {
        switch status {
        case .inserted, .deleted: return true
        case .persisted: return changes != nil || relationshipsChanged
        case .detached, .removed: return false
        }
    }

    /// Models are equal when they are the same instance (one instance per row per context).
    public static func == (lhs: ModelObject, rhs: ModelObject) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A relationship's value in memory.
enum RelationshipValue {
    /// Nothing loaded: a new model's empty relationship, or a saved model's to-many not yet loaded.
    case unloaded
    /// A saved to-one value not yet resolved: the related row's key (nil for none).
    case key(Int64?)
    /// A resolved to-one value.
    case object(ModelObject?)
    /// A loaded to-many value.
    case objects([ModelObject])
}

/// A model's relationship values by slot (`ModelObject.slots`), as an array or inline: a fetched
/// row of an entity with one to-one key and at most four relationships keeps that key in the
/// model (`ModelObject.inlineKey`, when it fits 32 bits) instead of in an array of its own (an
/// allocation and about 490 instructions a row, docs/Benchmarks.md, "Reads"). Inline, every slot
/// reads `.unloaded` but the key's; the first write of anything else (or of a key that does not
/// fit) makes the array the inline form stands for, so both forms hold the same values.
struct RelationshipSlots {
    /// The values, unless inline (then empty).
    var array: ContiguousArray<RelationshipValue>
    /// 0: the slots are `array`. Else bit 0 set, bit 1: the key is not nil, bits 2–3: the key's
    /// slot, bits 4–5: the number of slots minus one.
    var inline: UInt8
    /// The inline key (when bit 1 of `inline` is set).
    var key: Int32

    init(array: ContiguousArray<RelationshipValue>, inline: UInt8, key: Int32) {
        self.array = array
        self.inline = inline
        self.key = key
    }

    init(_ array: ContiguousArray<RelationshipValue>) {
        self.init(array: array, inline: 0, key: 0)
    }

    /// The inline form of `count` slots whose slot `slot` holds `.key(key)`; nil when it has none
    /// (more than four slots, or a key beyond 32 bits).
    @inline(__always) static func inlineForm(count: Int, slot: Int, key: Int64?) -> (inline: UInt8, key: Int32)? {
        guard count <= 4, slot < count else { return nil }
        guard let key else { return (UInt8(1 | slot << 2 | (count - 1) << 4), 0) }
        guard let small = Int32(exactly: key) else { return nil }
        return (UInt8(1 | 2 | slot << 2 | (count - 1) << 4), small)
    }

    @inline(__always) private var inlineSlot: Int { Int(inline >> 2 & 3) }

    @inline(__always) var count: Int { inline == 0 ? array.count : Int(inline >> 4 & 3) + 1 }
    @inline(__always) var isEmpty: Bool { inline == 0 && array.isEmpty }
    var indices: Range<Int> { 0..<count }

    subscript(index: Int) -> RelationshipValue {
        @inline(__always) get {
            if inline == 0 { return array[index] }
            precondition(index >= 0 && index < count, "relationship slot out of range")
            guard index == inlineSlot else { return .unloaded }
            return inline & 2 != 0 ? .key(Int64(key)) : .key(nil)
        }
        set {
            if inline != 0 {
                if index == inlineSlot, case .key(let newKey) = newValue,
                   let form = Self.inlineForm(count: count, slot: index, key: newKey) {
                    (inline, key) = form
                    return
                }
                makeArray()
            }
            array[index] = newValue
        }
    }

    mutating func append(contentsOf values: some Sequence<RelationshipValue>) {
        makeArray()
        array.append(contentsOf: values)
    }

    /// The array the inline form stands for.
    private mutating func makeArray() {
        guard inline != 0 else { return }
        var made = ContiguousArray<RelationshipValue>()
        made.reserveCapacity(count)
        for index in 0..<count { made.append(self[index]) }
        array = made
        inline = 0
        key = 0
    }
}

/// One per context: models point to it, it points to the context without keeping it alive, and
/// the context's `deinit` sets that to nil, so a model outliving its context finds none.
///
/// Not a `weak` reference, but for a container's main context: a weakly referenced object keeps
/// its reference counts in a side table, so every retain and release of the context took the
/// slow path, and the weak load itself cost about 50 instructions, on each model's first change
/// (`attributeDidChange`) and each guarded mutation (docs/Benchmarks.md, "Writes"). Unretained is
/// safe because a context and its models are not `Sendable`: they stay in one isolation domain (a
/// context belongs to one task or thread at a time), so the context's `deinit` does not run while
/// one of its models reads the link. A main context is the exception: its container, which is
/// `Sendable`, owns it, so it goes wherever the container's last reference goes, possibly while
/// the main actor still uses its models; its link stays weak.
final class ContextLink {
    /// The context, unretained (any context but a container's main context): an `Unmanaged`, which
    /// `withContext` borrows without a retain, where an `unowned(unsafe)` reference was retained
    /// and released at each use.
    private var unretained: Unmanaged<ModelContext>?
    /// A container's main context.
    private weak var weakly: ModelContext?
    private let isWeak: Bool
    /// The context's change records (`ModelContext.changeLog`).
    let changeLog: ChangeLog

    init(_ context: ModelContext, weak: Bool) {
        isWeak = weak
        if weak { weakly = context } else { unretained = .passUnretained(context) }
        changeLog = context.changeLog
    }

    /// The context; nil once it is gone.
    var context: ModelContext? { isWeak ? weakly : unretained?.takeUnretainedValue() }

    /// Calls `body` with the context; nil without calling it once the context is gone. An
    /// unretained context is borrowed for the call, without a retain and a release (about 40
    /// instructions on each model's first change: docs/Benchmarks.md, "Writes"); a main context
    /// is loaded strong, so it lives through the call.
    @inline(__always) func withContext<Result>(_ body: (ModelContext) throws -> Result) rethrows -> Result? {
        if isWeak {
            guard let context = weakly else { return nil }
            return try body(context)
        }
        guard let unretained else { return nil }
        return try unretained._withUnsafeGuaranteedRef(body)
    }

    /// Called by the context's `deinit`.
    func contextEnded() {
        unretained = nil
    }
}

/// A model's context link, entity and store identifier (`ModelObject.home`), shared by the
/// models of one entity in one context. The store identifier stays when the link goes (a model
/// an upsert displaced keeps naming its store).
final class ModelHome {
    let link: ContextLink?
    let entity: EntitySchema
    /// The container's `storeIdentifier`.
    let store: String?
    /// The store's and the entity's names of these models' identifiers, and the entity's name
    /// alone for their temporary ones: the pairs' interned objects (never freed, so not counted;
    /// `PersistentIdentifier.namesReference`).
    let names: Unmanaged<IdentifierNames>
    let temporaryNames: Unmanaged<IdentifierNames>

    init(link: ContextLink?, entity: EntitySchema, store: String?) {
        self.link = link
        self.entity = entity
        self.store = store
        names = .passUnretained(IdentifierNames.interned(store: store, entityName: entity.name))
        temporaryNames = .passUnretained(IdentifierNames.interned(store: nil, entityName: entity.name))
    }

    /// `home` with another link.
    init(_ home: ModelHome, link: ContextLink?) {
        self.link = link
        entity = home.entity
        store = home.store
        names = home.names
        temporaryNames = home.temporaryNames
    }
}

/// The attributes a fetch with `propertiesToFetch` left unread (`ModelObject.unfetched`), shared by
/// the models of one entity that one fetch made (a reference where the set itself took 16 bytes
/// in every model).
@usableFromInline final class UnfetchedAttributes {
    @usableFromInline let positions: PositionSet

    init(_ positions: PositionSet) { self.positions = positions }

    /// Whether attribute `index` (an `AttributeIndex`) is unread.
    @inlinable func contains(_ index: Int) -> Bool { positions.contains(index) }
}

extension Array where Element == ModelObject {
    /// The models as `[T]`, every one being a `T` (a fetch of `T` makes models of `T`'s entity
    /// and its subentities only): the array is reinterpreted, not copied, since an array of class
    /// references has one layout whatever the class (copying it with a cast per element was 7 % of
    /// a fetch's instructions). Debug builds check every element.
    @inlinable func reinterpreted<T: PersistentModel>(as type: T.Type) -> [T] {
        assert(allSatisfy { $0 is T }, "a fetch of \(T.self) made a model of another class")
        return unsafeBitCast(self, to: [T].self)
    }
}

extension Array where Element == ModelObject {
    /// Calls `body` with each model of the list, borrowed: a model copied out of an array is
    /// retained, and released at the end of the iteration (a retain and a release per model of a
    /// save's loop: docs/Benchmarks.md, "Writes"). The list's storage is read as `Unmanaged`
    /// references. The list (this copy of it) holds every model while `body` runs, whatever `body`
    /// does to the list it was copied from. Enumeration keeps its own loop: its generic block
    /// wrapped in a closure for this function cost 8.5 M instructions more at N = 20,000.
    @inline(__always)
    func forEachBorrowed(_ body: (ModelObject) throws -> Void) rethrows {
        try withUnsafeBufferPointer { models in
            try models.withMemoryRebound(to: Unmanaged<ModelObject>.self) { references in
                for reference in references { try reference._withUnsafeGuaranteedRef(body) }
            }
        }
    }
}
