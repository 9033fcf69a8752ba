import Foundation

/// A row a delete rule reached in the store whose model the context does not hold: it is deleted
/// by key, recorded in history and in `didSave`, and never made into a model.
///
/// It refers to its entity without counting: the context's schema holds every entity for as long
/// as the context and its saves (copying a row then retains and releases nothing, which a cascade
/// does several times a row: docs/Benchmarks.md, "Writes"). The per-row loops borrow its entity
/// (`withEntity`, `hierarchy`): an `unowned(unsafe)` reference was retained and released at each
/// use. 16 bytes, as a wave's related rows are kept in an array of them.
struct DeletedRow {
    private let reference: Unmanaged<EntitySchema>
    let key: Int64

    init(entity: EntitySchema, key: Int64) {
        self.init(.passUnretained(entity), key: key)
    }

    /// The row `key` of the entity `entity` refers to.
    init(_ entity: Unmanaged<EntitySchema>, key: Int64) {
        reference = entity
        self.key = key
    }

    /// The row's own entity (its type column).
    var entity: EntitySchema { reference.takeUnretainedValue() }

    /// The entity's `hierarchyIndex`, read through the borrowed entity.
    var hierarchy: Int { withEntity { $0.hierarchyIndex } }

    /// Calls `body` with the row's entity, borrowed.
    @inline(__always) func withEntity<Result>(_ body: (EntitySchema) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }
}

/// A model of a save's deletions, referred to without counting: `Deletions.models` holds it.
struct DeletedModel {
    private let reference: Unmanaged<ModelObject>

    init(object: ModelObject) {
        reference = .passUnretained(object)
    }

    var object: ModelObject { reference.takeUnretainedValue() }

    /// Calls `body` with the model, borrowed.
    @inline(__always) func withObject<Result>(_ body: (ModelObject) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }
}

/// What a save deletes, in the order delete rules reached it: wave by wave (the models deleted in
/// the context, then what they cascade to, then what that cascades to…), each model or row once.
/// Within a wave, each owner's related models and rows follow the owner's order, by relationship
/// and then by row key (as one-by-one loading of each relationship gives them).
struct Deletions {
    /// An entry copies without a retain or a release: both cases refer without counting
    /// (`DeletedModel`, `DeletedRow`).
    enum Entry {
        /// A model the context holds (deleted in the context, or reached in memory or in the store).
        case model(DeletedModel)
        /// A row reached in the store with no model in the context.
        case row(DeletedRow)
    }

    private(set) var entries: [Entry] = []
    /// Where each wave ends in `entries`.
    private(set) var waveEnds: [Int] = []
    /// The models among the entries, in order.
    private(set) var models: [ModelObject] = []
    /// `models` by identity.
    private(set) var modelIDs: Set<ObjectIdentifier> = []
    /// The row keys of the entries (models with a key, and rows), by hierarchy index.
    private var keys: [RowKeySet]
    /// The `preserveValueOnDeletion` values of rows, as stored, by hierarchy index and key: read
    /// only when the save records history, for the entities that preserve values (kept apart, so
    /// an entry takes 16 bytes).
    var tombstones: [TombstoneKey: [UInt8]] = [:]

    struct TombstoneKey: Hashable {
        let hierarchy: Int
        let key: Int64
    }

    /// The rows of the entries deleted before the save's inserts, so that their unique values are
    /// free (`ModelContext.deleteRowsThatFreeUniqueValues`), by hierarchy index and key. History
    /// records their deletion without looking for the row.
    var deletedEarly: Set<TombstoneKey> = []
    /// The same rows, by table.
    var deletedEarlyByTable: [String: [Int64]] = [:]

    /// Whether the row `key` of the model `entity` was deleted before the inserts of the save.
    func wasDeletedEarly(_ entity: EntitySchema, key: Int64) -> Bool {
        !deletedEarly.isEmpty && deletedEarly.contains(TombstoneKey(hierarchy: entity.hierarchyIndex, key: key))
    }

    /// The preserved values of a row (nil when none were read).
    func tombstone(of row: DeletedRow) -> [UInt8]? {
        tombstones.isEmpty ? nil : tombstones[TombstoneKey(hierarchy: row.hierarchy, key: row.key)]
    }

    init(hierarchyCount: Int) {
        keys = Array(repeating: RowKeySet(), count: hierarchyCount)
    }

    /// Makes room for `models` more models, and for `rows[h]` more row keys (models' or rows') in
    /// hierarchy `h`: the sets and lists grow once per wave, not by doubling as entries come.
    mutating func reserveCapacity(models: Int, rows: [Int]) {
        var total = models
        for (hierarchy, count) in rows.enumerated() where count > 0 {
            keys[hierarchy].reserveCapacity(keys[hierarchy].count + count)
            total += count
        }
        if models > 0 {
            modelIDs.reserveCapacity(modelIDs.count + models)
            Self.grow(&self.models, by: models)
        }
        Self.grow(&entries, by: total)
    }

    /// Room for `count` more elements in `list`, at least doubling it when it grows (a cascade of
    /// many small waves stays linear; a set's capacity already grows by powers of two).
    private static func grow<Element>(_ list: inout [Element], by count: Int) {
        guard list.capacity < list.count + count else { return }
        list.reserveCapacity(Swift.max(list.count + count, 2 * list.capacity))
    }

    /// Adds `object` unless it is there already; true when added.
    @discardableResult
    mutating func add(_ object: ModelObject) -> Bool {
        guard modelIDs.insert(ObjectIdentifier(object)).inserted else { return false }
        if let hierarchy = object.withEntity(\.hierarchyIndex), let rowID = object.rowID { keys[hierarchy].insert(rowID) }
        entries.append(.model(DeletedModel(object: object)))
        models.append(object)
        return true
    }

    /// Adds a row with no model in memory unless its key is there already; true when added.
    @discardableResult
    mutating func add(_ row: DeletedRow) -> Bool {
        guard keys[row.hierarchy].insert(row.key) else { return false }
        entries.append(.row(row))
        return true
    }

    func contains(_ object: ModelObject) -> Bool { modelIDs.contains(ObjectIdentifier(object)) }

    func contains(hierarchy: Int, key: Int64) -> Bool { keys[hierarchy].contains(key) }

    /// The row keys of the entries in hierarchy `hierarchy` (models with a key, and rows).
    func keys(inHierarchy hierarchy: Int) -> Set<Int64> { hierarchy < keys.count ? keys[hierarchy].keys : [] }

    /// Closes the current wave.
    mutating func endWave() {
        waveEnds.append(entries.count)
    }

    /// The entries of each wave, in order.
    var waves: [Range<Int>] {
        var start = 0
        return waveEnds.map { end in
            defer { start = end }
            return start..<end
        }
    }
}

/// The rows a wave's owners relate to in the store, read one statement per relationship (per
/// chunk of owner keys). Each relationship's owners are kept in a list of their own, by ascending
/// owner key: they are asked for in ascending chunks (`ascendingUnique`), each chunk's rows in
/// owner order, so the list is made in order as the rows come (a store that gave them otherwise
/// has its list sorted when the relationship ends). A lookup looks first where the last one left
/// off, then searches the list. A dictionary by owner (`[Int64: Range<Int>]`, made with room for
/// every owner) took about 59 bytes an owner and hashed each owner twice (docs/Benchmarks.md,
/// "Writes").
struct RelatedRows {
    /// An owner's rows in `rows`.
    struct OwnerRows {
        let owner: Int64
        let rows: Range<Int>
    }

    /// Every row read, grouped by relationship and owner, each owner's rows in key order.
    private(set) var rows: [DeletedRow] = []
    /// The relationships read (a wave reads few), by identity.
    private var relationships: [ObjectIdentifier] = []
    /// Per relationship (as `relationships`), its owners with rows, by ascending owner key.
    private var owners: [[OwnerRows]] = []
    /// Per relationship, whether its owners came in ascending order so far.
    private var ordered: [Bool] = []
    /// Per relationship, where its next owner is looked for first: owners are asked for in the
    /// order their wave lists them, ascending when its models and rows were (as a fetch by key
    /// gives them), so most lookups take a comparison or two.
    private var cursors: [Int] = []

    /// The owner whose rows are being appended, and where they start in `rows`.
    private var current: (owner: Int64, start: Int)?

    /// Starts the rows of `relationship`, for up to `owners` owners; returns its place.
    mutating func begin(_ relationship: ObjectIdentifier, owners count: Int) -> Int {
        relationships.append(relationship)
        owners.append([])
        owners[owners.count - 1].reserveCapacity(count)
        ordered.append(true)
        cursors.append(0)
        current = nil
        return owners.count - 1
    }

    /// Adds a row of `owner` to the relationship begun last (at `place`); an owner's rows come
    /// together.
    mutating func append(_ row: DeletedRow, owner: Int64, at place: Int) {
        if let current, current.owner != owner { endOwner(at: place) }
        if current == nil { current = (owner, rows.count) }
        rows.append(row)
    }

    /// Ends the rows of the relationship at `place`.
    mutating func end(_ place: Int) {
        endOwner(at: place)
        if !ordered[place] { owners[place].sort { $0.owner < $1.owner } }
    }

    /// Adds the current owner's rows to the list of the relationship at `place`.
    private mutating func endOwner(at place: Int) {
        guard let current else { return }
        if let last = owners[place].last, last.owner >= current.owner { ordered[place] = false }
        owners[place].append(OwnerRows(owner: current.owner, rows: current.start..<rows.count))
        self.current = nil
    }

    /// The rows `relationship` relates `owner` to (none when they were not read).
    mutating func rows(_ relationship: ObjectIdentifier, owner: Int64) -> ArraySlice<DeletedRow> {
        guard let place = relationships.firstIndex(of: relationship) else { return [] }
        let cursor = cursors[place]
        let (index, found) = owners[place].withUnsafeBufferPointer { list -> (Int, Bool) in
            if cursor < list.count, list[cursor].owner >= owner, cursor == 0 || list[cursor - 1].owner < owner {
                return (cursor, list[cursor].owner == owner)
            }
            var low = 0
            var high = list.count
            while low < high {
                let middle = low + (high - low) / 2
                if list[middle].owner < owner { low = middle + 1 } else { high = middle }
            }
            return (low, low < list.count && list[low].owner == owner)
        }
        guard found else {
            cursors[place] = index
            return []
        }
        cursors[place] = index + 1
        return rows[owners[place][index].rows]
    }

    /// `keys` in ascending order, each once (`keys` itself when it is).
    static func ascendingUnique(_ keys: [Int64]) -> [Int64] {
        for index in keys.indices.dropFirst() where keys[index] <= keys[index - 1] {
            return Array(Set(keys)).sorted()
        }
        return keys
    }
}

/// A relationship whose rows a wave reads from the store, and the owner keys to read them for.
private struct RelatedLookup {
    let relationship: RelationshipSchema
    var owners: [Int64] = []
}

/// A wave's lookups, in the order met; each relationship's place found by identity, the last
/// one's without hashing (the entries of a wave come entity by entity). A value the loops call
/// mutating methods of, not variables captured by a local function: once the loops were closures,
/// those were checked for exclusive access at run time at each use (about 240 instructions an
/// owner).
private struct RelatedLookups {
    private(set) var list: [RelatedLookup] = []
    private var places: [ObjectIdentifier: Int] = [:]
    private var last: (id: ObjectIdentifier, place: Int)?

    /// Adds `owner` to the lookup of `relationship`.
    mutating func need(_ relationship: RelationshipSchema, owner: Int64) {
        let id = ObjectIdentifier(relationship)
        let place: Int
        if let last, last.id == id {
            place = last.place
        } else if let known = places[id] {
            place = known
        } else {
            place = list.count
            places[id] = place
            list.append(RelatedLookup(relationship: relationship))
        }
        last = (id, place)
        list[place].owners.append(owner)
    }
}

extension ModelContext {
    // MARK: Delete rules

    /// The models and rows a save deletes: the models deleted in the context and, through
    /// `.cascade`, what they relate to, recursively. Relationships the context holds in memory are
    /// followed there (a loaded to-many, a to-one); the others are read from the store by set: one
    /// statement per relationship per wave of deleted keys (per `KeyList.chunk` keys), giving row
    /// keys, types and, when history is recorded, preserved values; no model is made for a row the
    /// context does not hold. A row whose model is registered counts as that model.
    ///
    /// Runs inside the save's write transaction, so what it reads is what the save deletes.
    ///
    /// - Throws: `ModelStoreError.deleteDenied` when a `.deny` relationship of a deleted model or
    ///   row still relates to a model or row outside the set; the store's error.
    func deletions(_ connection: any StoreConnection) throws -> Deletions {
        var result = Deletions(hierarchyCount: schema.hierarchyCount)
        var incoming = [Int](repeating: 0, count: schema.hierarchyCount)
        for object in deleted {
            if let entity = object.entity { incoming[entity.hierarchyIndex] += 1 }
        }
        result.reserveCapacity(models: deleted.count, rows: incoming)
        for object in deleted { result.add(object) }
        result.endWave()
        // `.deny` relationships met, with what they relate to: checked once the set is complete.
        var denied: [(owner: String, relationship: String, models: [ModelObject], rows: [DeletedRow])] = []
        let history = container.configuration.recordsHistory
        var waveStart = 0
        while waveStart < result.entries.count {
            let wave = waveStart..<result.entries.count
            waveStart = wave.upperBound
            var related = try readRelatedRows(of: result.entries[wave], connection, tombstones: history, into: &result.tombstones)
            for index in incoming.indices { incoming[index] = 0 }
            for row in related.rows { incoming[row.hierarchy] += 1 }
            result.reserveCapacity(models: 0, rows: incoming)
            // By index, not through a slice of the entries: a slice holds their storage, and the
            // wave's first addition then copied every entry.
            for index in wave {
                switch result.entries[index] {
                case .model(let deleted):
                    deleted.withObject { object in
                        object.withEntity { entity in
                            for route in entity.followedOnDelete {
                                var models: [ModelObject] = []
                                var rows: ArraySlice<DeletedRow> = []
                                if !route.isToMany {
                                    if let model = RelationshipGraph.toOne(of: object, slot: route.slot) { models = [model] }
                                } else if let loaded = RelationshipGraph.loadedToMany(of: object, slot: route.slot) {
                                    models = loaded
                                } else if route.slot < entity.relationships.count, let rowID = object.rowID {
                                    rows = related.rows(ObjectIdentifier(entity.relationships[route.slot]), owner: rowID)
                                }
                                if route.deleteRule == .deny {
                                    denied.append((entity.name, entity.relationshipInfos[route.slot].name, models, Array(rows)))
                                } else {
                                    cascade(to: models, rows, into: &result)
                                }
                            }
                        }
                    }
                case .row(let row):
                    row.withEntity { entity in
                        for route in entity.followedOnDelete where route.slot < entity.relationships.count {
                            let relationship = entity.relationships[route.slot]
                            let rows = related.rows(ObjectIdentifier(relationship), owner: row.key)
                            if route.deleteRule == .deny {
                                denied.append((entity.name, relationship.name, [], Array(rows)))
                            } else {
                                cascade(to: [], rows, into: &result)
                            }
                        }
                    }
                }
            }
            result.endWave()
        }
        for (owner, relationship, models, rows) in denied {
            // A model that left the context (inserted and deleted before any save, or taken
            // over by an upsert) may still sit in a loaded list: it relates to nothing stored.
            let outside = models.contains { $0.status != .removed && $0.status != .detached && !result.contains($0) }
                || rows.contains { !result.contains(hierarchy: $0.hierarchy, key: $0.key) }
            if outside { throw ModelStoreError.deleteDenied(entity: owner, relationship: relationship) }
        }
        return result
    }

    /// Adds what a `.cascade` relationship reaches: models (in memory) and rows (from the store;
    /// one whose model is registered counts as the model).
    private func cascade(to models: [ModelObject], _ rows: ArraySlice<DeletedRow>, into result: inout Deletions) {
        for model in models where model.status == .persisted || model.status == .inserted || model.status == .deleted {
            result.add(model)
        }
        for row in rows {
            if let model = registered[row.hierarchy][row.key] {
                if model.status == .persisted || model.status == .deleted { result.add(model) }
            } else {
                result.add(row)
            }
        }
    }

    /// Reads, one statement per relationship (per chunk of owner keys), the rows that the
    /// `.cascade` and `.deny` relationships of `entries` relate to in the store where the context
    /// does not hold them in memory: the unloaded to-many relationships of saved models, and every
    /// such relationship of rows.
    private func readRelatedRows(of entries: ArraySlice<Deletions.Entry>, _ connection: any StoreConnection,
                                 tombstones: Bool, into preserved: inout [Deletions.TombstoneKey: [UInt8]]) throws -> RelatedRows {
        var lookups = RelatedLookups()
        let link = self.link  // read once, not per model
        for entry in entries {
            switch entry {
            case .model(let deleted):
                deleted.withObject { object in
                    guard let rowID = object.rowID, object.status == .persisted || object.status == .deleted, object.isLinked(to: link) else { return }
                    object.withEntity { entity in
                        for route in entity.followedOnDelete where route.isToMany && route.slot < entity.relationships.count {
                            if RelationshipGraph.loadedToMany(of: object, slot: route.slot) == nil {
                                lookups.need(entity.relationships[route.slot], owner: rowID)
                            }
                        }
                    }
                }
            case .row(let row):
                row.withEntity { entity in
                    for route in entity.followedOnDelete where route.slot < entity.relationships.count {
                        lookups.need(entity.relationships[route.slot], owner: row.key)
                    }
                }
            }
        }
        var result = RelatedRows()
        for lookup in lookups.list {
            try readRelatedRows(lookup, connection, tombstones: tombstones, into: &result, tombstoneValues: &preserved)
        }
        return result
    }

    /// Adds to `result` the rows `lookup.relationship` relates its owners to in the store, grouped
    /// by owner; with `tombstones`, their preserved values go to `tombstoneValues`.
    private func readRelatedRows(_ lookup: RelatedLookup, _ connection: any StoreConnection, tombstones: Bool,
                                 into result: inout RelatedRows, tombstoneValues: inout [Deletions.TombstoneKey: [UInt8]]) throws {
        let relationship = lookup.relationship
        guard let destination = schema.entity(named: relationship.destinationName),
              let owner = schema.entity(named: relationship.entityName) else { return }
        let pk = SQLQuote.identifier(StorageNames.primaryKey)
        let destinationTable = SQLQuote.identifier(destination.tableName)
        // `owner column` (the owner's key), then the related row's key and type, from `source`.
        let ownerColumn: String
        let source: String
        let order: String
        switch relationship.storage {
        case .inverseKeyColumn(_, let column):
            ownerColumn = "d." + SQLQuote.identifier(column)
            source = "\(destinationTable) AS d"
            order = "\(ownerColumn), d.\(pk)"
        case .keyColumn(let column):
            ownerColumn = "s.\(pk)"
            source = "\(SQLQuote.identifier(owner.tableName)) AS s JOIN \(destinationTable) AS d ON d.\(pk) = s.\(SQLQuote.identifier(column))"
            order = ownerColumn
        case .joinTable(let table, let ownColumn, let otherColumn):
            ownerColumn = "j." + SQLQuote.identifier(ownColumn)
            source = "\(SQLQuote.identifier(table)) AS j JOIN \(destinationTable) AS d ON d.\(pk) = j.\(SQLQuote.identifier(otherColumn))"
            order = "\(ownerColumn), d.\(pk)"
        }
        let members = hierarchyMembers(of: destination)
        let typeNames = memberTables[destination.index].typeNames
        // Preserved values (history): every member's preserved columns (by its place in
        // `members`), each selected once.
        var preservedColumns: [String] = []
        var preserved = [[(name: String, column: Int32)]](repeating: [], count: members.count)
        if tombstones {
            for (index, member) in members.enumerated() {
                preserved[index] = member.entity.attributes
                    .filter(\.isPreservedOnDeletion)
                    .map { attribute in
                        if !preservedColumns.contains(attribute.column) { preservedColumns.append(attribute.column) }
                        return (attribute.name, Int32(3 + preservedColumns.firstIndex(of: attribute.column)!))
                    }
            }
        }
        // Columns: 0 owner key, 1 type (as in a hierarchy select, for `TypeNameTable.index(_:)`), 2 row key, then preserved values.
        let selected = [ownerColumn, "d." + SQLQuote.identifier(StorageNames.type), "d.\(pk)"]
            + preservedColumns.map { "d." + SQLQuote.identifier($0) }
        // Per member: its entity, unretained (the schema holds it; reading it out of `members` was
        // a retain a row), and whether it preserves values.
        let memberEntities = members.map { Unmanaged.passUnretained($0.entity) }
        let preserves = preserved.map { !$0.isEmpty }
        let place = result.begin(ObjectIdentifier(relationship), owners: lookup.owners.count)
        defer { result.end(place) }
        for chunk in KeyList.chunks(RelatedRows.ascendingUnique(lookup.owners)) {
            let filter = KeyList.membership(ownerColumn, chunk, connection.dialect)
            let statement = try connection.statement("SELECT \(selected.joined(separator: ", ")) FROM \(source) WHERE \(filter.sql) ORDER BY \(order)")
            statement.bind(filter.bindings)
            defer { statement.reset() }
            while try statement.step() {
                let owner = try statement.integer(at: 0)
                let member = try typeNames.index(statement)
                let key = try statement.integer(at: 2)
                if preserves[member] {
                    tombstoneValues[Deletions.TombstoneKey(hierarchy: destination.hierarchyIndex, key: key)] =
                        TombstoneCoding.bytes(preserved[member].map { ($0.name, statement.value(at: $0.column)) })
                }
                result.append(DeletedRow(memberEntities[member], key: key), owner: owner, at: place)
            }
        }
    }

    // MARK: In memory, after the commit

    /// Removes the deleted models from the in-memory relationships of the models the context holds
    /// that stay (except through `.noAction`, which touches nothing), telling observers. The models
    /// a deleted model relates to are found through its own slots: a loaded to-many, a to-one (a
    /// key not resolved yet names a registered model, never loads one). Where its to-many side was
    /// never loaded, the registered models of the other side are looked through once per save for
    /// slots holding a deleted model. Rows deleted without a model in memory need nothing: no list
    /// in memory holds them, and a to-one key naming one reads as nil.
    func detachFromGraph(_ removals: [ModelObject], removed: Set<ObjectIdentifier>) {
        // Relationships whose other side to look through (only if it has registered models).
        var scans: [InverseScan.Key: InverseScan] = [:]
        // The last scan found with nothing to look through (no registered model on its side):
        // its next models skip both lookups.
        var lastEmptyScan: InverseScan.Key?
        for object in removals {
            // The routes (copied without retains); a relationship's `RelationshipInfo` (its
            // destination and inverse's observation) only where there is something to detach.
            for route in RelationshipGraph.routes(of: object) where route.deleteRule != .noAction && route.inverseSlot >= 0 {
                var related: [ModelObject] = []
                if route.isToMany {
                    if let loaded = RelationshipGraph.loadedToMany(of: object, slot: route.slot) {
                        related = loaded
                    } else if let rowID = object.rowID {
                        let key = InverseScan.Key(destination: ObjectIdentifier(route.destination), slot: route.inverseSlot)
                        if key == lastEmptyScan { continue }
                        if scans[key] == nil, let inverse = RelationshipGraph.infos(of: object)[route.slot].inverse {
                            let entity = schema.entity(for: route.destination)
                            scans[key] = InverseScan(entity: entity.flatMap { registered[$0.hierarchyIndex].isEmpty ? nil : $0 }, inverse: inverse)
                        }
                        if scans[key]?.entity != nil {
                            scans[key]?.models.insert(ObjectIdentifier(object))
                            scans[key]?.keys.insert(rowID)
                        } else {
                            lastEmptyScan = key
                        }
                    }
                } else if route.slot < object.slotCount {
                    switch object.slot(route.slot) {
                    case .object(let model?): related = [model]
                    case .key(let key?):
                        related = registeredModel(of: route.destination, key: key).map { [$0] } ?? []
                    default: break
                    }
                }
                guard !related.isEmpty, let inverse = RelationshipGraph.infos(of: object)[route.slot].inverse else { continue }
                for model in related where !removed.contains(ObjectIdentifier(model)) {
                    detach(object, from: model, inverse: inverse)
                }
            }
        }
        for scan in scans.values {
            guard let entity = scan.entity else { continue }
            let (inverse, models, keys) = (scan.inverse, scan.models, scan.keys)
            let members = Set(entity.typeNames.compactMap { schema.entity(named: $0) }.map(ObjectIdentifier.init))
            for model in registered[entity.hierarchyIndex].values
            where inverse.slot < model.slotCount && model.entity.map({ members.contains(ObjectIdentifier($0)) }) == true {
                switch model.slot(inverse.slot) {
                case .objects(let list):
                    let kept = list.filter { !models.contains(ObjectIdentifier($0)) }
                    if kept.count != list.count { inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = .objects(kept) } }
                case .object(let other?) where models.contains(ObjectIdentifier(other)):
                    inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = .object(nil) }
                case .key(let key?) where keys.contains(key):
                    inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = .object(nil) }
                default:
                    break
                }
            }
        }
    }

    /// The registered model of `type`'s hierarchy with row `key` (nothing is read from the store).
    private func registeredModel(of type: ModelObject.Type, key: Int64) -> ModelObject? {
        guard let entity = schema.entity(for: type) else { return nil }
        return registered[entity.hierarchyIndex][key]
    }

    /// Removes `object` from `model`'s side of the relationship (`inverse`): from its list, or its to-one.
    private func detach(_ object: ModelObject, from model: ModelObject, inverse: RelationshipInfo.Inverse) {
        if inverse.isToMany {
            if var list = RelationshipGraph.loadedToMany(of: model, slot: inverse.slot), let index = list.firstIndex(where: { $0 === object }) {
                list.remove(at: index)
                inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = .objects(list) }
            }
        } else if inverse.slot < model.slotCount {
            inverse.observe.willAndDidSet(model) { model.slots[inverse.slot] = .object(nil) }
        }
    }
}

/// The other side of a relationship that deleted models never loaded, looked through for slots
/// that hold one of them.
private struct InverseScan {
    struct Key: Hashable {
        let destination: ObjectIdentifier
        let slot: Int
    }

    /// The destination entity; nil when its hierarchy has no registered model (nothing to look through).
    let entity: EntitySchema?
    let inverse: RelationshipInfo.Inverse
    var models: Set<ObjectIdentifier> = []
    var keys: Set<Int64> = []
}
