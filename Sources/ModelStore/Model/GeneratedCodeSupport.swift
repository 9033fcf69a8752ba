import Observation

// The hooks generated code calls (SPI `ModelStoreGenerated`: generated files write
// `@_spi(ModelStoreGenerated) import ModelStore`, so an app, or a client of a module whose models
// are public, does not see them). docs/Runtime.md, "The contract", lists them in one place.

/// The number of a stored attribute of a model class: its position among the hierarchy's stored
/// attributes, the base's first, then the class's own, each in declaration order. Generated classes
/// name one per attribute (`static let _$name = ModelStore.AttributeIndex(0, "name")`) and use it
/// everywhere the attribute is read or written; `Schema` checks each against the class's metadata.
@_spi(ModelStoreGenerated) public struct AttributeIndex: Sendable {
    /// The position.
    public let index: Int
    /// The attribute's name.
    public let name: StaticString

    /// Names attribute `index` (called by generated code only).
    @inlinable public init(_ index: Int, _ name: StaticString) {
        self.index = index
        self.name = name
    }
}

/// The number of a relationship of a model class: its position among the hierarchy's
/// relationships, the base's first, then the class's own, each in declaration order (the slot of
/// its value in memory). Checked against the metadata by `Schema`, as `AttributeIndex` is.
@_spi(ModelStoreGenerated) public struct RelationshipIndex: Sendable {
    /// The position.
    public let index: Int
    /// The relationship's name.
    public let name: StaticString

    /// Names relationship `index` (called by generated code only).
    @inlinable public init(_ index: Int, _ name: StaticString) {
        self.index = index
        self.name = name
    }
}

extension ModelObject {
    /// The Observation registrar of a `@Transient` property's accessors (`access` / `withMutation`).
    /// Its storage is made on the first `access` (a fetched model that is never read by an
    /// observer costs one allocation less); a change before any `access` has no observer to tell.
    @_spi(ModelStoreGenerated) public final var _$observationRegistrar: LazyObservationRegistrar { LazyObservationRegistrar(owner: self) }

    /// Makes the model's registrar (it does not exist yet).
    @usableFromInline final func makeRegistrar() {
        registrarStorage.initialize()
        hasRegistrar = true
    }

    /// Tells Observation of a read of `keyPath` of `subject` (the model), through the model's
    /// registrar, made now if it does not exist yet.
    @inlinable final func observeRead<Subject: Observable, Member>(_ subject: Subject, _ keyPath: KeyPath<Subject, Member>) {
        if !hasRegistrar { makeRegistrar() }
        registrarStorage.withRegistrar { $0.access(subject, keyPath: keyPath) }
    }

    /// The model's registrar, if made (a copy).
    var registrar: ObservationRegistrar? {
        hasRegistrar ? registrarStorage.withRegistrar { $0 } : nil
    }
}

// MARK: Accessors of stored attributes

@_spi(ModelStoreGenerated) extension PersistentModel where Self: ModelObject {
    /// The getter of a stored attribute, before it returns the value: loads the attribute (with the
    /// model's other unread ones, in one query) if a fetch left it unread
    /// (`FetchDescriptor.propertiesToFetch`), and tells Observation of the read.
    @inlinable public func _$access<Value>(_ attribute: AttributeIndex, _ keyPath: KeyPath<Self, Value>) {
        if let unfetched, unfetched.contains(attribute.index) { loadUnfetchedAttributes() }
        observeRead(self, keyPath)
    }

    /// The setter of a stored attribute, before it changes the value: loads the attribute if a fetch
    /// left it unread (so the value it replaces is the stored one), and tells Observation's observers
    /// that the value will change (`withObservationTracking`'s `onChange` runs now, counted as a
    /// change in progress: a `save()` it calls throws `ModelStoreError.saveInProgress`, and the
    /// change stays pending for the next save).
    ///
    /// The key path is an autoclosure: it is formed only when the model has a registrar (forming
    /// the literal costs a runtime call and a retain and release, about 100 instructions a change).
    @inlinable public func _$willSet<Value>(_ attribute: AttributeIndex, _ keyPath: @autoclosure () -> KeyPath<Self, Value>) {
        if let unfetched, unfetched.contains(attribute.index) { loadUnfetchedAttributes() }
        if hasRegistrar { countingMutation { registrarStorage.withRegistrar { $0.willSet(self, keyPath: keyPath()) } } }
    }

    /// The setter of a stored attribute, after it changed the value: the mutation is over. Records
    /// the change for the next `save()` (the attribute's columns, and `oldValue` as their saved
    /// value at the first change since the last save), then tells Observation it changed. A change
    /// is recorded here, after the value is set, so a `save()` that ran inside the mutation (from
    /// an observer's `onChange`, which runs at `willSet`) cannot take it for saved.
    ///
    /// The key path is formed only when the model has a registrar, as in `_$willSet`.
    @inlinable public func _$didSet<Value: SQLStorable>(_ attribute: AttributeIndex, _ keyPath: @autoclosure () -> KeyPath<Self, Value>,
                                                        _ oldValue: Value) {
        if status == .persisted { attributeDidChange(attribute.index, from: oldValue) }
        if hasRegistrar { registrarStorage.withRegistrar { $0.didSet(self, keyPath: keyPath()) } }
    }

    // MARK: Accessors of relationships

    /// The getter of a to-one relationship: the related model (resolved from its stored key on
    /// first access), after telling Observation of the read.
    @inlinable public func _$toOne<Target: ModelObject>(_ relationship: RelationshipIndex, _ keyPath: KeyPath<Self, Target?>) -> Target? {
        observeRead(self, keyPath)
        return toOne(relationship.index)
    }

    /// The setter of a to-one relationship: sets it and its inverse, telling Observation of both.
    @inlinable public func _$setToOne<Target: ModelObject>(_ value: Target?, _ relationship: RelationshipIndex) {
        setToOne(value, relationship.index)
    }

    /// The getter of a to-many relationship: the related models (read from the store on first
    /// access), after telling Observation of the read.
    @inlinable public func _$toMany<Target: ModelObject>(_ relationship: RelationshipIndex, _ keyPath: KeyPath<Self, [Target]>) -> [Target] {
        observeRead(self, keyPath)
        let models = toManyModels(relationship.index)
        assert(models.allSatisfy { $0 is Target }, "a to-many slot holds a model of another class")
        return unsafeBitCast(models, to: [Target].self)
    }

    /// The setter of a to-many relationship: sets it and its inverses, telling Observation of each.
    @inlinable public func _$setToMany<Target: ModelObject>(_ value: [Target], _ relationship: RelationshipIndex) {
        setToMany(value, relationship.index)
    }

    /// The getter of an optional to-many relationship (`[Target]?`, as CloudKit-synced models declare
    /// them): stored as a to-many, it gives the related models, `[]` when there are none (never nil,
    /// as SwiftData gives a saved model's; docs/Runtime.md).
    @inlinable public func _$toMany<Target: ModelObject>(_ relationship: RelationshipIndex, _ keyPath: KeyPath<Self, [Target]?>) -> [Target]? {
        observeRead(self, keyPath)
        let models = toManyModels(relationship.index)
        assert(models.allSatisfy { $0 is Target }, "a to-many slot holds a model of another class")
        return unsafeBitCast(models, to: [Target].self)
    }

    /// The setter of an optional to-many relationship: nil removes every related model, as `[]` does.
    @inlinable public func _$setToMany<Target: ModelObject>(_ value: [Target]?, _ relationship: RelationshipIndex) {
        setToMany(value ?? [], relationship.index)
    }
}

extension ModelObject {
    /// A stored attribute of a saved model changed from `oldValue`: its columns join the model's
    /// change record (the first change of a column keeps the value the store holds).
    @usableFromInline final func attributeDidChange<Value: SQLStorable>(_ attribute: Int, from oldValue: Value) {
        if Value._columnCount == 1 {
            recordChange(ofAttribute: attribute, savedValue: oldValue.sqlValue)
        } else {
            recordChanges(ofAttribute: attribute) { RowEncoder.storedValues(of: oldValue) }
        }
    }

    /// Records the change of a one-column attribute (`attributeDidChange`). Not generic, so the
    /// context is borrowed in place (`ContextLink.withContext`), without a retain and a release
    /// of the context or of the entity per change (docs/Benchmarks.md, "Writes").
    private final func recordChange(ofAttribute attribute: Int, savedValue value: @autoclosure () -> SQLValue) {
        guard let (first, link) = changedColumnAndLink(attribute) else { return }
        link._withUnsafeGuaranteedRef { link in
            link.withContext { $0.recordChange(of: self, column: first, savedValue: value()) }
        }
    }

    /// Records the change of an attribute of several columns (a struct), each column with its
    /// value in `values()`, unless the attribute is already changed.
    private final func recordChanges(ofAttribute attribute: Int, savedValues values: () -> [SQLValue]) {
        guard let (first, link) = changedColumnAndLink(attribute) else { return }
        link._withUnsafeGuaranteedRef { link in
            link.withContext { context in
                guard context.changeLog.record(of: self)?.contains(first) != true else { return }
                for (offset, value) in values().enumerated() { context.recordChange(of: self, column: first + offset, savedValue: value) }
            }
        }
    }

    /// The first column of stored attribute `attribute`, and the model's context link unretained
    /// (its context holds it: one link per context); nil for a model not registered. A function
    /// of its own, so the entity is not kept (retained) through the recording, as a variable of
    /// the caller's was.
    @inline(__always) private final func changedColumnAndLink(_ attribute: Int) -> (Int, Unmanaged<ContextLink>)? {
        guard let home, attribute < home.entity.storedAttributes.count, let link = home.link else { return nil }
        return (home.entity.storedAttributes[attribute].firstColumn, .passUnretained(link))
    }

    /// Loads the attributes a fetch left unread, in one query for this model.
    @usableFromInline final func loadUnfetchedAttributes() {
        link?.context?.loadUnfetchedAttributes(of: self)
    }

    @usableFromInline final func toOne<Target: ModelObject>(_ slot: Int) -> Target? {
        guard let object = RelationshipGraph.toOne(of: self, slot: slot) else { return nil }
        return object as? Target
    }

    @usableFromInline final func setToOne<Target: ModelObject>(_ value: Target?, _ slot: Int) {
        RelationshipGraph.setToOne(of: self, slot: slot, to: value)
    }

    /// The models of a to-many slot. Each is an instance of the relationship's destination class
    /// (or a subclass): the schema checks the generated metadata's destination, and only models of
    /// that entity's hierarchy are ever put in the slot. So the getter reinterprets the array as
    /// `[Target]` instead of casting each element (a dynamic cast per model was 14 % of the
    /// prefetch workload's instructions); debug builds check every element.
    @usableFromInline final func toManyModels(_ slot: Int) -> [ModelObject] {
        RelationshipGraph.toMany(of: self, slot: slot)
    }

    @usableFromInline final func setToMany<Target: ModelObject>(_ value: [Target], _ slot: Int) {
        RelationshipGraph.setToMany(of: self, slot: slot, to: value)
    }
}
