import Foundation

/// What a save wrote, as permanent identifiers (the `didSave` notification's contents).
struct SavedChanges {
    var inserted: [PersistentIdentifier] = []
    var updated: [PersistentIdentifier] = []
    var deleted: [PersistentIdentifier] = []
}

extension ModelContext {
    /// Hook of `save()`, inside its database transaction, after the inserts, updates and
    /// join-table rows were written and before the deletes: collects what the save changes and,
    /// when the configuration `recordsHistory`, writes the save's transaction and its changes
    /// (as it goes: one prepared statement per kind of row, no list of changes kept).
    ///
    /// - inserts: the inserted models (keys assigned by now), one per row: of two new models with
    ///   the same unique values, the one whose row the other took over is left out;
    /// - updates: changed saved models with the properties whose stored value differs from the
    ///   snapshot taken at their first change (attributes, and to-one relationships whose key
    ///   changed), and models whose many-to-many links changed (with that relationship);
    /// - deletes: deleted models (cascades included) whose row is still in the store, with their
    ///   `preserveValueOnDeletion` values as stored: a row deleted through two contexts gets one
    ///   delete change; and the rows a cascade reached in the store without a model in memory
    ///   (read in this transaction, so there), with the preserved values read with them.
    func recordSave(_ connection: any StoreConnection, batch: SaveBatch? = nil, deletions: Deletions, displaced: [ModelObject] = []) throws -> SavedChanges {
        // A new model whose row a later insert of this save took over (the same unique values)
        // inserted nothing of its own: one row, one insert.
        let removed = displaced.isEmpty ? deletions.modelIDs : deletions.modelIDs.union(displaced.map(ObjectIdentifier.init))
        var saved = SavedChanges()
        // Made at the first change to record (a save that changes nothing takes no token).
        var writer: HistoryWriter?
        let history = container.configuration.recordsHistory
        func record() throws -> HistoryWriter? {
            guard history else { return nil }
            if let writer { return writer }
            let made = try HistoryWriter(connection, batch: batch)
            writer = made
            return made
        }

        // Set lookups only when the save deletes models the context holds.
        let removes = !removed.isEmpty
        // Identifiers are plain values naming their entity's interned names (`ModelHome.names`,
        // not counted). The lists hold their models while they are walked: each model is
        // borrowed (no retain and release around it), and the entity is read only for history.
        // With history off, building `didSave`'s identifiers is what unused notifications cost
        // (docs/Benchmarks.md, "Unused features"): a loop of its own then (`savedIdentifiers`).
        if history {
            saved.inserted.reserveCapacity(inserted.count)
            try inserted.withUnsafeBufferPointer { models in
                for model in models {
                    try Unmanaged.passUnretained(model)._withUnsafeGuaranteedRef { object in
                        guard !removes || !removed.contains(ObjectIdentifier(object)), let home = object.home, let rowID = object.rowID else { return }
                        saved.inserted.append(PersistentIdentifier(names: home.names, rowID: rowID))
                        try record()?.write(.insert, entity: home.entity, row: rowID)
                    }
                }
            }
        } else {
            var none: [ObjectIdentifier: (object: ModelObject, names: [String])] = [:]
            saved.inserted = Self.savedIdentifiers(of: inserted, capacity: inserted.count, persistedOnly: false, removed: removes ? removed : nil, linked: &none)
        }

        // Many-to-many relationships whose links changed, by model (both sides).
        var linked: [ObjectIdentifier: (object: ModelObject, names: [String])] = [:]
        var linkedOrder: [ObjectIdentifier] = []
        for key in linkOrder {
            guard let link = linkChanges[key], link.source.rowID != nil, link.target.rowID != nil else { continue }
            for (object, column) in [(link.source, StorageNames.source), (link.target, StorageNames.target)] {
                guard object.status == .persisted, !removed.contains(ObjectIdentifier(object)), let entity = object.entity else { continue }
                let id = ObjectIdentifier(object)
                if linked[id] == nil {
                    linked[id] = (object, [])
                    linkedOrder.append(id)
                }
                // The relationship stored in this join table on this side (none for the target
                // side of a to-many without inverse).
                if let name = entity.relationships.first(where: {
                    if case .joinTable(link.table, column, _) = $0.storage { return true }
                    return false
                })?.name, linked[id]?.names.contains(name) == false {
                    linked[id]?.names.append(name)
                }
            }
        }

        // Updated models: each in `saved.updated` once (every row the save wrote); in the history
        // when a stored value or link changed (a model set back to its saved values changed nothing).
        var comparisons = UpdateComparisons(entityCount: schema.entities.count)
        if history {
            saved.updated.reserveCapacity(dirty.count + linkedOrder.count)
            // The writer unretained once made (`writer` holds it), and each model's entity borrowed
            // from its home (the schema holds it): taken as strong references, both were retained
            // and released per model (docs/Benchmarks.md, "Writes").
            var unretainedWriter: Unmanaged<HistoryWriter>?
            try dirty.withUnsafeBufferPointer { models in
                for model in models {
                    try Unmanaged.passUnretained(model)._withUnsafeGuaranteedRef { object in
                        guard object.status == .persisted, !removes || !removed.contains(ObjectIdentifier(object)),
                              let (names, entity) = object.unretainedNamesAndEntity, let rowID = object.rowID else { return }
                        saved.updated.append(PersistentIdentifier(names: names, rowID: rowID))
                        try entity._withUnsafeGuaranteedRef { entity in
                            var changed = changedProperties(of: object, entity, &comparisons)
                            // No list of links made for a model without (an empty one was a retain and a release).
                            if !linked.isEmpty, let links = linked.removeValue(forKey: ObjectIdentifier(object))?.names, !links.isEmpty {
                                changed = ((changed.map { [$0] } ?? []) + links).joined(separator: ",")
                            }
                            guard let changed else { return }
                            if unretainedWriter == nil, let made = try record() { unretainedWriter = .passUnretained(made) }
                            try unretainedWriter?._withUnsafeGuaranteedRef { try $0.write(.update, entity: entity, row: rowID, attributes: changed) }
                        }
                    }
                }
            }
        } else {
            saved.updated = Self.savedIdentifiers(of: dirty, capacity: dirty.count + linkedOrder.count, persistedOnly: true,
                                                  removed: removes ? removed : nil, linked: &linked)
        }
        for id in linkedOrder {
            guard let entry = linked[id], let home = entry.object.home, let rowID = entry.object.rowID else { continue }
            let entity = home.entity
            saved.updated.append(PersistentIdentifier(names: home.names, rowID: rowID))
            if !entry.names.isEmpty { try record()?.write(.update, entity: entity, row: rowID, attributes: entry.names.joined(separator: ",")) }
        }

        // Each entity's encoder of tombstones, writing only the attributes holding preserved
        // columns (nil: the entity preserves none), made at its first deleted model.
        var tombstoneEncoders = [TombstoneEncoder??](repeating: nil, count: schema.entities.count)
        var previousEntity: EntitySchema?
        // Unretained: `tombstoneEncoders` holds it.
        var previousEncoder: Unmanaged<TombstoneEncoder>?
        // The names of the last row's entity (a wave's rows come entity by entity): `home(for:)`
        // returns the home retained.
        var rowEntity: ObjectIdentifier?
        var rowNames: Unmanaged<IdentifierNames>?
        // As for updates, the writer unretained once made and each model's home and entity
        // borrowed: as strong references, they were retained and released per deleted model or
        // row, three times a model (docs/Benchmarks.md, "Writes").
        var deletionWriter: Unmanaged<HistoryWriter>?
        saved.deleted.reserveCapacity(deletions.entries.count)
        for entry in deletions.entries {
            guard case .model(let deleted) = entry else {
                guard case .row(let row) = entry else { continue }
                // The entity borrowed from the row (no retain and release a row); the row's
                // preserved values looked up only for an entity that preserves some.
                try row.withEntity { entity in
                    if rowEntity != ObjectIdentifier(entity) || rowNames == nil {
                        rowEntity = ObjectIdentifier(entity)
                        rowNames = home(for: entity).names
                    }
                    guard let names = rowNames else { return }
                    saved.deleted.append(PersistentIdentifier(names: names, rowID: row.key))
                    guard history else { return }
                    if deletionWriter == nil, let made = try record() { deletionWriter = .passUnretained(made) }
                    try deletionWriter?._withUnsafeGuaranteedRef { writer in
                        if entity.preservesValuesOnDeletion, let tombstone = deletions.tombstone(of: row) {
                            try tombstone.withUnsafeBytes { try writer.write(.delete, entity: entity, row: row.key, tombstone: $0, rowExists: true) }
                        } else {
                            try writer.write(.delete, entity: entity, row: row.key, rowExists: true)
                        }
                    }
                }
                continue
            }
            // The model borrowed from the deletions, which hold it.
            try deleted.withObject { object in
                guard object.status != .inserted, let (names, entityReference) = object.unretainedNamesAndEntity, let rowID = object.rowID else { return }
                saved.deleted.append(PersistentIdentifier(names: names, rowID: rowID))
                guard history else { return }
                if deletionWriter == nil, let made = try record() { deletionWriter = .passUnretained(made) }
                guard let writer = deletionWriter else { return }
                try entityReference._withUnsafeGuaranteedRef { entity in
                    if previousEntity !== entity {
                        if let known = tombstoneEncoders[entity.index] {
                            previousEncoder = known.map(Unmanaged.passUnretained)
                        } else {
                            let made = TombstoneEncoder(entity)
                            tombstoneEncoders[entity.index] = .some(made)
                            previousEncoder = made.map(Unmanaged.passUnretained)
                        }
                        previousEntity = entity
                    }
                    let rowExists = deletions.wasDeletedEarly(entity, key: rowID)
                    try writer._withUnsafeGuaranteedRef { writer in
                        if let tombstones = previousEncoder {
                            // The values as stored: a model changed before its deletion keeps its saved row's.
                            if object.unfetched != nil { loadUnfetchedAttributes(of: object) }
                            try tombstones._withUnsafeGuaranteedRef { tombstones in
                                try tombstones.encode(object, changes: changeLog.record(of: object)) {
                                    try writer.write(.delete, entity: entity, row: rowID, tombstone: $0, rowExists: rowExists)
                                }
                            }
                        } else {
                            try writer.write(.delete, entity: entity, row: rowID, rowExists: rowExists)
                        }
                    }
                }
            }
        }

        try batch?.flush()
        try writer?.finish(author: author)
        return saved
    }

    /// `didSave`'s identifiers of the saved models in `models` (history off): those whose row
    /// exists (`persistedOnly`: saved before this save) and that are not in `removed`, in order,
    /// in an array of `capacity` (room for more); each is taken out of `linked` (its links changed
    /// too: listed here, once). A loop of its own that retains and releases nothing: each model is
    /// read through an unmanaged reference (a copy of the reference out of the array is a retain,
    /// released only at the end of the iteration), nothing of it is read once its identifier is
    /// made, and identifiers are written in place (no uniqueness check per append). With the
    /// history's work in the loop, the model was retained and released around every identifier
    /// (docs/Benchmarks.md, "Unused features").
    private static func savedIdentifiers(of models: [ModelObject], capacity: Int, persistedOnly: Bool, removed: Set<ObjectIdentifier>?,
                                         linked: inout [ObjectIdentifier: (object: ModelObject, names: [String])]) -> [PersistentIdentifier] {
        let unlinks = !linked.isEmpty
        return models.withUnsafeBufferPointer { models in
            [PersistentIdentifier](unsafeUninitializedCapacity: max(capacity, models.count)) { identifiers, count in
                guard let first = models.baseAddress, let written = identifiers.baseAddress else { return }
                let references = UnsafeRawPointer(first)
                for index in 0..<models.count {
                    let model = references.load(fromByteOffset: index * MemoryLayout<Unmanaged<ModelObject>>.stride, as: Unmanaged<ModelObject>.self)
                    model._withUnsafeGuaranteedRef { object in
                        guard !persistedOnly || object.status == .persisted, removed?.contains(ObjectIdentifier(object)) != true,
                              let names = object.home?.names, let rowID = object.rowID else { return }
                        if unlinks { linked.removeValue(forKey: ObjectIdentifier(object)) }
                        (written + count).initialize(to: PersistentIdentifier(names: names, rowID: rowID))
                        count += 1
                    }
                }
            }
        }
    }

    /// The properties of a changed saved model whose stored form differs from the value saved
    /// before its first change (only its changed columns are encoded and compared), comma
    /// separated; nil when none did.
    private func changedProperties(of object: ModelObject, _ entity: EntitySchema, _ comparisons: inout UpdateComparisons) -> String? {
        guard let record = changeLog.record(of: object) else { return nil }
        // Borrowed from the save's comparisons, which hold it (no retain and release a model).
        return comparisons.comparison(of: entity, record)._withUnsafeGuaranteedRef { comparison in
            changedProperties(of: object, record, comparison)
        }
    }

    /// `changedProperties(of:_:_:)` with the record and its comparison.
    private func changedProperties(of object: ModelObject, _ record: ChangeRecord, _ comparison: UpdateComparison) -> String? {
        // The comparison's own encoder: set up once, where one encoder shared by the comparisons
        // was set up again whenever the entity changed from one model to the next.
        let encoder = comparison.encoder
        encoder.restartRow()
        if !comparison.attributes.isEmpty { object._encode(to: encoder) }
        // One attribute of one column changed (a renamed model, as most updates): its value is
        // compared with the record's one saved value in place, without walking the record or the
        // comparison's lists (about 250 instructions a model: docs/Benchmarks.md, "Writes").
        if let only = comparison.onlyAttribute {
            return record.firstSavedValueIs(valueAt: only.firstValue, of: encoder) ? nil : only.name
        }
        var names: String?
        func add(_ name: String) { names = names.map { $0 + "," + name } ?? name }
        for attribute in comparison.attributes {
            for (offset, column) in attribute.columns.enumerated() where encoder.value(at: attribute.firstValue + offset) != record.savedValue(of: column) {
                add(attribute.name)
                break
            }
        }
        for key in comparison.keys {
            guard let saved = record.savedValue(of: key.column) else { continue }
            if (keyValue(of: object, slot: key.slot).map(SQLValue.integer) ?? .null) != saved { add(key.name) }
        }
        return names
    }
}

/// What history compares of a changed model whose change record has one set of columns: the
/// changed attributes, encoded alone into consecutive values, and the changed to-one keys. Made
/// once per entity and column set in a save.
private final class UpdateComparison {
    /// The changed value columns.
    let columns: PositionSet
    /// The one column of `columns`; -1 when it has several.
    let onlyColumn: Int32
    /// Where the encoder writes each stored attribute (a position in its values, -1 for an unchanged one).
    let positions: [Int32]
    /// How many values the changed attributes take.
    let valueCount: Int
    /// Each changed attribute: its name, its value columns, the position of its first value.
    let attributes: [(name: String, columns: Range<Int>, firstValue: Int)]
    /// Each changed to-one key: the relationship's slot and name, and its column's number.
    let keys: [(slot: Int, name: String, column: Int)]
    /// The one changed attribute when it has one column and no key changed: its name and the
    /// position of its value (a record it compares then has that one column).
    let onlyAttribute: (name: String, firstValue: Int)?
    /// Encodes a model's changed attributes into `valueCount` values at `positions` (each row
    /// writes every value it compares).
    let encoder: RowEncoder

    /// Whether it compares exactly the columns `record` changed: for a one-column record and a
    /// one-column comparison, two integers compared (as `PreparedUpdate.writes`; the set compared
    /// with the record's column took about 60 instructions a model).
    @inline(__always) func compares(_ record: ChangeRecord) -> Bool {
        // A one-column record's `firstColumn`; -1 for a wide one.
        let only = record.firstColumn
        if only >= 0 && onlyColumn >= 0 { return only == onlyColumn }
        return record.changedColumnsAre(columns)
    }

    init(entity: EntitySchema, columns: PositionSet) {
        self.columns = columns
        let sorted = columns.sorted
        onlyColumn = sorted.count == 1 ? Int32(sorted[0]) : -1
        var positions = [Int32](repeating: -1, count: entity.storedAttributes.count)
        var attributes: [(name: String, columns: Range<Int>, firstValue: Int)] = []
        var next = 0
        for (index, attribute) in entity.storedAttributes.enumerated() where columns.contains(attribute.firstColumn) {
            positions[index] = Int32(next)
            attributes.append((attribute.name, attribute.columns, next))
            next += attribute.columnCount
        }
        self.positions = positions
        self.valueCount = next
        self.attributes = attributes
        let valueColumns = entity.attributes.count
        keys = entity.keySlots.enumerated().filter { columns.contains(valueColumns + $0.offset) }
            .map { (slot: $0.element, name: entity.relationships[$0.element].name, column: valueColumns + $0.offset) }
        onlyAttribute = attributes.count == 1 && attributes[0].columns.count == 1 && keys.isEmpty
            ? (attributes[0].name, attributes[0].firstValue) : nil
        encoder = RowEncoder(valueCount: next, positions: positions)
    }
}

/// The comparisons of one save: each entity's last one found without hashing (models of one
/// entity changed alike), the others by entity and column set.
private struct UpdateComparisons {
    /// Unretained: `all` holds each.
    private var latest: [Unmanaged<UpdateComparison>?]
    private var all: [PartialUpdateKey: UpdateComparison] = [:]

    init(entityCount: Int) {
        latest = Array(repeating: nil, count: entityCount)
    }

    /// The comparison of `record`'s columns, held by these comparisons.
    mutating func comparison(of entity: EntitySchema, _ record: ChangeRecord) -> Unmanaged<UpdateComparison> {
        let index = entity.index
        if let last = latest[index], last._withUnsafeGuaranteedRef({ $0.compares(record) }) { return last }
        // Made from the record's list (ChangeRecord keeps no set): once here.
        let columns = record.columns
        let key = PartialUpdateKey(entity: index, columns: columns)
        let comparison = all[key] ?? UpdateComparison(entity: entity, columns: columns)
        all[key] = comparison
        let unretained = Unmanaged.passUnretained(comparison)
        latest[index] = unretained
        return unretained
    }
}

/// The tombstones of the deleted models of one entity (`TombstoneCoding`'s bytes): a model writes
/// its preserved attributes with the typed binds of a save into `TombstoneBinds`, which appends
/// each value as it comes, in the order of its columns. No `SQLValue` is made for a value (a
/// UUID's was a `Data` allocated and read back): docs/Runtime.md, "Persistent history".
final class TombstoneEncoder {
    private let binds: TombstoneBinds
    private let encoder: RowEncoder

    /// Nil when `entity` preserves no value (`preserves` tells which value columns it preserves).
    init?(_ entity: EntitySchema, preserves: (AttributeColumn) -> Bool = \.isPreservedOnDeletion) {
        let names = entity.attributes.map { preserves($0) ? $0.name : nil }
        guard names.contains(where: { $0 != nil }) else { return nil }
        binds = TombstoneBinds(names: names)
        // A preserved attribute's first column is bound at its column's number + 1.
        let positions = zip(entity.storedAttributes, entity.attributeValuePositions).map { attribute, position in
            attribute.columns.contains { names[$0] != nil } ? position + 1 : -1
        }
        encoder = RowEncoder(statement: binds, positions: positions)
    }

    /// Calls `body` with the tombstone of `object` (whose unfetched attributes are loaded): its
    /// preserved values as stored (a column changed since the last save, in `changes`, gives its
    /// saved value). The bytes are valid only during `body`.
    func encode<Result>(_ object: ModelObject, changes: ChangeRecord?, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        binds.start(changes)
        encoder.restartRow()
        object._encode(to: encoder)
        return try binds.finish(body)
    }
}

/// The statement a `TombstoneEncoder` binds a model's values into: each bind of a preserved column
/// appends the value, in `TombstoneCoding`'s layout, to one buffer of bytes (reused from model to
/// model; appending to an array of bytes cost about 200 instructions a call). It never runs and
/// has no rows.
private final class TombstoneBinds: RowlessStatement {
    /// Each value column's name as `TombstoneCoding` writes it (its length, then its UTF-8) when
    /// it is preserved (a parameter is its column + 1).
    private let headers: [[UInt8]?]
    // One save's, on its context's thread: no run-time exclusivity checks per value.
    /// The bytes of the model being encoded.
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var capacity = 64
    /// The change record of the model being encoded.
    @exclusivity(unchecked) private var record: ChangeRecord?

    init(names: [String?]) {
        headers = names.map { name in
            name.map { name in
                var header: [UInt8] = []
                TombstoneCoding.appendText(name, to: &header)
                return header
            }
        }
        buffer = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { buffer.deallocate() }

    func start(_ record: ChangeRecord?) {
        count = 0
        self.record = record
    }

    func finish<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        record = nil
        return try body(UnsafeRawBufferPointer(start: buffer, count: count))
    }

    // MARK: Appending

    /// Where `n` more bytes go (the buffer grown first when needed).
    @inline(__always) private func reserve(_ n: Int) -> UnsafeMutableRawPointer {
        if capacity - count < n { grow(n) }
        defer { count += n }
        return buffer + count
    }

    @inline(never) private func grow(_ n: Int) {
        let capacity = Swift.max(2 * self.capacity, count + n)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: buffer, byteCount: count)
        buffer.deallocate()
        buffer = grown
        self.capacity = capacity
    }

    @inline(__always) private func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).copyMemory(from: base, byteCount: bytes.count)
    }

    @inline(__always) private func append(_ byte: UInt8) {
        reserve(1).storeBytes(of: byte, as: UInt8.self)
    }

    /// A length, as `TombstoneCoding` writes it (LEB128).
    private func appendLength(_ length: Int) {
        var rest = UInt64(length)
        while rest >= 0x80 {
            append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        append(UInt8(rest))
    }

    /// A tag, then 8 bytes little-endian.
    @inline(__always) private func appendFixed(_ tag: UInt8, _ value: UInt64) {
        let at = reserve(9)
        at.storeBytes(of: tag, as: UInt8.self)
        at.storeBytes(of: value.littleEndian, toByteOffset: 1, as: UInt64.self)
    }

    /// A tag, a length and the bytes.
    @inline(__always) private func appendBytes(_ tag: UInt8, _ bytes: UnsafeRawBufferPointer) {
        append(tag)
        appendLength(bytes.count)
        append(bytes)
    }

    /// One value of `TombstoneCoding.append`'s layout, after its column's header.
    private func append(_ value: SQLValue) {
        switch value {
        case .null: append(0)
        case .integer(let number): appendFixed(1, UInt64(bitPattern: number))
        case .real(let number): appendFixed(2, number.bitPattern)
        case .text(var text): text.withUTF8 { appendBytes(3, UnsafeRawBufferPointer($0)) }
        case .blob(let data): data.withUnsafeBytes { appendBytes(4, $0) }
        }
    }

    /// Whether the value of parameter `index` is appended by the bind: its column's header is,
    /// unless the column is not preserved (false) or changed since the last save (its saved value
    /// is appended instead: false).
    @inline(__always) private func takes(_ index: Int32) -> Bool {
        let column = Int(index) - 1
        guard column >= 0, column < headers.count, let header = headers[column] else { return false }
        header.withUnsafeBytes { append($0) }
        if let record, let saved = record.savedValue(of: column) {
            append(saved)
            return false
        }
        return true
    }

    func bind(_ value: SQLValue, at index: Int32) {
        if takes(index) { append(value) }
    }

    func bindNull(at index: Int32) {
        if takes(index) { append(0) }
    }

    func bindInt64(_ value: Int64, at index: Int32) {
        if takes(index) { appendFixed(1, UInt64(bitPattern: value)) }
    }

    func bindDouble(_ value: Double, at index: Int32) {
        if takes(index) { appendFixed(2, value.bitPattern) }
    }

    func bindText(_ text: String, at index: Int32) {
        if takes(index) { append(.text(text)) }
    }

    func bindBytes(_ value: UnsafeRawBufferPointer, at index: Int32) {
        if takes(index) { appendBytes(4, value) }
    }

    func bindBlob(_ data: Data, at index: Int32) {
        if takes(index) { data.withUnsafeBytes { appendBytes(4, $0) } }
    }

    // Only binds: it never runs and has no rows (`RowlessStatement`).
    var sql: String { "" }
    func reset() {}
    func step() throws -> Bool { false }
    var columnCount: Int32 { 0 }
    var bindingProblem: (position: Int32, reason: String)? { nil }
    var refusesBoundValues: Bool { false }
}

/// Writes one save's transaction: the token first, each change as it comes (one prepared
/// statement per kind of row, reused), the transaction row last.
private final class HistoryWriter {
    /// Who writes: the bundle identifier (the process name where there is no bundle) and the pid.
    static let bundle = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    static let process = String(ProcessInfo.processInfo.processIdentifier)
    static let columns = HistoryTables.changeColumns.map(SQLQuote.identifier).joined(separator: ", ")
    static let table = SQLQuote.identifier(HistoryTables.changes)

    private let connection: any StoreConnection
    private let token: Int64
    private let insert: any StoreStatement
    // A save's writer is its context's, on one thread (`ContextGuards`): no run-time exclusivity
    // checks per change (docs/Benchmarks.md, "No run-time exclusivity checks on per-row state").
    /// Deletes are recorded only if the row is still there (another context may have deleted
    /// it already): one statement per table, by table.
    @exclusivity(unchecked) private var conditional: [String: ConditionalDeletes] = [:]
    /// The statements of the last conditional delete (deletes come entity by entity): one
    /// reference, where a tuple of the table and statements retained each per row.
    @exclusivity(unchecked) private var lastConditional: ConditionalDeletes?
    @exclusivity(unchecked) private var index: Int64 = 0
    @exclusivity(unchecked) private var unconditional = 0

    /// Where the rows go when the store takes them in batches (docs/PostgreSQL.md, "Batched writes").
    private let batch: SaveBatch?

    /// The change rows written several per statement, where the store takes them so.
    private let rows: (any RowBatch)?
    /// The statement an insert, an update, or a delete of a row known to exist is bound into:
    /// `rows`' row statement, else `insert`. Taken once: asking `rows` per change, and copying
    /// the statements out of the fields, retained and released them per row (docs/Benchmarks.md,
    /// "Writes").
    private let unconditionalTarget: any StoreStatement

    init(_ connection: any StoreConnection, batch: SaveBatch?) throws {
        self.connection = connection
        self.batch = batch?.isOn == true ? batch : nil
        token = try Self.nextToken(connection)
        let sql = "INSERT INTO \(Self.table) (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)"
        insert = try connection.statement(sql)
        if let batch = self.batch,
           let rows = try connection.rowBatch(forInsert: sql, table: HistoryTables.changes, typeName: nil,
                                              columns: HistoryTables.changeColumns.map(SQLQuote.identifier), onlyIfRowOf: nil) {
            batch.register(rows)
            self.rows = rows
        } else {
            rows = nil
        }
        unconditionalTarget = rows?.rowStatement ?? insert
    }

    /// Writes one change. A delete is written only if the row is still stored, unless `rowExists`
    /// (the save read it in its own transaction).
    func write(_ kind: HistoryTables.Kind, entity: EntitySchema, row: Int64, attributes: String? = nil, tombstone: UnsafeRawBufferPointer? = nil,
               rowExists: Bool = false) throws {
        guard kind == .delete && !rowExists else {
            // The fields read in place, not copied per row.
            unconditional += 1
            bind(unconditionalTarget, kind, entity: entity, row: row, attributes: attributes, tombstone: tombstone)
            try send(unconditionalTarget, rows: rows)
            index += 1
            return
        }
        // A delete recorded only if the row is still stored.
        let deletes: ConditionalDeletes
        if let last = lastConditional, last.table == entity.tableName {
            deletes = last
        } else if let known = conditional[entity.tableName] {
            deletes = known
            lastConditional = known
        } else {
            // The parameters of a SELECT list are typed by casts (a server that infers
            // parameter types, like PostgreSQL's, would take them for text).
            let dialect = connection.dialect
            let types: [StorageType] = [.integer, .integer, .integer, .text, .integer, .text, .blob]
            let values = types.map { "CAST(? AS \(dialect.columnType($0)))" }.joined(separator: ", ")
            let sql = "INSERT INTO \(Self.table) (\(Self.columns)) SELECT \(values) WHERE EXISTS (SELECT 1 FROM "
                + "\(SQLQuote.identifier(entity.tableName)) WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?)"
            let single = try connection.statement(sql)
            var rows: (any RowBatch)?
            if let batch, let row = HistoryTables.changeColumns.firstIndex(of: "row"),
               let made = try connection.rowBatch(forInsert: sql, table: HistoryTables.changes, typeName: nil,
                                                  columns: HistoryTables.changeColumns.map(SQLQuote.identifier),
                                                  onlyIfRowOf: (entity.tableName, row)) {
                batch.register(made)
                rows = made
            }
            deletes = ConditionalDeletes(table: entity.tableName, single: single, rows: rows)
            conditional[entity.tableName] = deletes
            lastConditional = deletes
        }
        try deletes.write(self, kind, entity: entity, row: row, attributes: attributes, tombstone: tombstone)
        index += 1
    }

    /// The statements recording the deletes of one table's rows only if the row is still stored.
    private final class ConditionalDeletes {
        let table: String
        /// The single-row statement.
        let single: any StoreStatement
        /// Where the store takes rows together: its rows, bound straight into `target`.
        let rows: (any RowBatch)?
        /// `rows`' row statement, else `single`.
        let target: any StoreStatement

        init(table: String, single: any StoreStatement, rows: (any RowBatch)?) {
            self.table = table
            self.single = single
            self.rows = rows
            target = rows?.rowStatement ?? single
        }

        /// Writes one change of `writer` (a method of its own: its fields read in place).
        func write(_ writer: HistoryWriter, _ kind: HistoryTables.Kind, entity: EntitySchema, row: Int64, attributes: String?,
                   tombstone: UnsafeRawBufferPointer?) throws {
            target.bindInt64(row, at: 8)
            writer.bind(target, kind, entity: entity, row: row, attributes: attributes, tombstone: tombstone)
            try writer.send(target, rows: rows)
        }
    }

    /// Sends the change bound into `statement` (`rows`' row statement, where the store takes
    /// rows together): into `rows`, else with the save's batch, else at once; then resets it.
    /// The optionals are tested and unwrapped in place: bound to names (`if let`), the batch and
    /// the rows were retained and released per change (docs/Benchmarks.md, "Writes").
    @inline(__always)
    fileprivate func send(_ statement: any StoreStatement, rows: (any RowBatch)?) throws {
        if batch != nil && rows != nil {
            try batch!.add(rows!, key: 0, from: statement)
        } else if batch != nil {
            try batch!.send(statement, .other)
        } else {
            try statement.run()
        }
        statement.reset()
    }

    /// Binds a change's values to `statement`, with typed binds: no `SQLValue` per parameter.
    @inline(__always)
    fileprivate func bind(_ statement: any StoreStatement, _ kind: HistoryTables.Kind, entity: EntitySchema, row: Int64,
                      attributes: String?, tombstone: UnsafeRawBufferPointer?) {
        statement.bindInt64(token, at: 1)
        statement.bindInt64(index, at: 2)
        statement.bindInt64(Int64(kind.rawValue), at: 3)
        statement.bindText(entity.name, at: 4)
        statement.bindInt64(row, at: 5)
        if let attributes { statement.bindText(attributes, at: 6) } else { statement.bindNull(at: 6) }
        if let tombstone { statement.bindBytes(tombstone, at: 7) } else { statement.bindNull(at: 7) }
    }

    /// Writes the transaction row, unless every change was a delete of a row already gone.
    func finish(author: String?) throws {
        if unconditional == 0 {
            let rows = try connection.rows("SELECT count(*) FROM \(Self.table) WHERE \(SQLQuote.identifier("token")) = ?", [.integer(token)])
            guard case .integer(let count)? = rows.first?.first, count > 0 else { return }
        }
        try connection.run(
            "INSERT INTO \(SQLQuote.identifier(HistoryTables.transactions)) (\(SQLQuote.identifier("token")), \(SQLQuote.identifier("author")), "
            + "\(SQLQuote.identifier("timestamp")), \(SQLQuote.identifier("bundle")), \(SQLQuote.identifier("process"))) VALUES (?, ?, ?, ?, ?)",
            [.integer(token), author.map(SQLValue.text) ?? .null, .real(Date().timeIntervalSinceReferenceDate), .text(Self.bundle), .text(Self.process)])
    }

    /// The next token of the store: the counter row's, incremented inside the saving
    /// transaction (so tokens follow commit order); the row is made, with the store's
    /// identifier (`"$metadata"`'s `storeIdentifier`, docs/Migrations.md), by the first save that
    /// records history (an upsert: first saves of several writers at once, on a store that lets
    /// them run together, all get a token).
    private static func nextToken(_ connection: any StoreConnection) throws -> Int64 {
        let counter = SQLQuote.identifier(HistoryTables.counter)
        let last = SQLQuote.identifier("lastToken")
        let id = SQLQuote.identifier("id")
        let rows = try connection.rows("UPDATE \(counter) SET \(last) = \(last) + 1 WHERE \(id) = 1 RETURNING \(last)")
        if case .integer(let token)? = rows.first?.first { return token }
        let made = try connection.rows(
            "INSERT INTO \(counter) (\(id), \(SQLQuote.identifier("store")), \(last), \(SQLQuote.identifier("deletedThrough"))) "
            + "VALUES (1, COALESCE((SELECT value FROM \(SQLQuote.identifier(StorageNames.metadataTable)) WHERE key = ?), ?), 1, 0) "
            + "ON CONFLICT (\(id)) DO UPDATE SET \(last) = \(counter).\(last) + 1 RETURNING \(last)",
            [.text(StoreIdentity.key), .text(UUID().uuidString)])
        guard case .integer(let token)? = made.first?.first else { throw ModelStoreError.corruptHistory("the history counter returned no token") }
        return token
    }
}
