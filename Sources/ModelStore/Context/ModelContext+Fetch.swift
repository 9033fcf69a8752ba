import Foundation

extension ModelContext {
    /// The resolved entity of a model type.
    func entity<T: PersistentModel>(for type: T.Type) throws -> EntitySchema {
        guard let modelType = type as? ModelObject.Type else { throw ModelStoreError.unknownEntity(String(describing: type)) }
        return try schema.requireEntity(for: modelType)
    }

    /// The models that match `descriptor`, each of its own dynamic type (a `Trip` fetch returns
    /// `BusinessTrip` and `PersonalTrip` instances too), one instance per row per context. With
    /// `includePendingChanges` (the default) the context's unsaved inserts, changes and deletions
    /// count (see `FetchDescriptor`).
    ///
    /// - Throws: `ModelStoreError.corruptRow` naming the first row met whose stored value does not
    ///   fit its property (a predicate that leaves it out, `fetchIdentifiers` and `fetchCount` still
    ///   work); `.unsupportedPredicate` for a predicate or sort with no SQL equivalent;
    ///   `.invalidFetch` for a negative `fetchLimit` or `fetchOffset`, or a prefetch key path that is
    ///   not a relationship; `.unknownEntity`; the store's error (`SQLiteError`, `PostgresError`).
    @inlinable
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        // Inlined into the caller, where `T` is known: the descriptor is handed over by address
        // and the plain fetch runs without `T`, so no call looks `FetchDescriptor<T>`'s metadata up
        // in the runtime (in `fetch` compiled here, unspecialized, that was about 330
        // instructions a lookup: docs/Benchmarks.md, "Lookups").
        if let plain = try withUnsafePointer(to: descriptor, { try fetchIfPlain(UnsafeRawPointer($0), of: T.self) }) {
            return plain.reinterpreted(as: T.self)
        }
        return try fetchThroughQuery(descriptor)
    }

    /// `fetch`'s plain fetch of the `FetchDescriptor<T>` at `descriptor` (`T` is `model`): nil when
    /// the descriptor is not plain (then `fetchThroughQuery` runs it).
    @usableFromInline func fetchIfPlain(_ descriptor: UnsafeRawPointer, of model: any PersistentModel.Type) throws -> [ModelObject]? {
        guards.enter()
        defer { guards.leave() }
        // Read through `ErasedFetchDescriptor`: without `T`'s generic types' metadata.
        let view = descriptor.assumingMemoryBound(to: ErasedFetchDescriptor.self)
        #if DEBUG
        ErasedFetchDescriptor.checkLayout(of: descriptor, model: model)
        #endif
        let limit = view.pointee.fetchLimit, offset = view.pointee.fetchOffset
        try ErasedFetchDescriptor.checkWindow(limit: limit, offset: offset)
        guard view.pointee.propertiesToFetch.isEmpty, view.pointee.sortBy.isEmpty, hasNothingPending, view.pointee.includePendingChanges,
              view.pointee.relationshipKeyPathsForPrefetching.isEmpty, let predicate = view.pointee.predicate,
              let hit = PredicateSQL.fastHit(model: ObjectIdentifier(model), expression: predicate.expression, root: predicate.root,
                                             cache: predicateCache, dialect: dialect, for: .fetch,
                                             memo: &fastMemo) else { return nil }
        // A plain fetch: the whole select and its statement are the cache entry's
        // (docs/Predicates.md, "Translation cache"), the rest goes without `T` (its entity is
        // the entry's).
        let entity = hit.entry.entity
        #if DEBUG
        try checkPlain(hit, .fetch, at: descriptor, of: model, limit: limit, offset: offset)
        #endif
        return try fetchPlain(hit, entity: entity, limit: limit, offset: offset)
    }

    /// `fetch` of a descriptor that is not plain.
    @usableFromInline func fetchThroughQuery<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        guards.enter()
        defer { guards.leave() }
        let entity = try entity(for: T.self)
        let partial = PartialRow(entity: entity, schema: schema, keyPaths: descriptor.propertiesToFetch)
        // Pending changes, the store's answer alone, prefetching: ModelContext+PendingChanges.swift.
        if fetchesThroughPlan(descriptor) {
            return try fetchPlanned(descriptor, entity: entity, partial: partial)
        }
        let (sql, bindings) = try fetchQuery(descriptor, entity: entity, partial: partial)
        return try materialize(sql: sql, bindings: bindings, entity: entity, partial: partial).reinterpreted(as: T.self)
    }

    /// A plain fetch's select: the entry's kept text, bound in the order `plainQuery` lists (the
    /// type filter's names, the predicate's values, the window), straight into the statement.
    private func fetchPlain(_ hit: FastHit, entity: EntitySchema, limit: Int?, offset: Int?) throws -> [ModelObject] {
        let statement = try plainStatement(hit, .fetch, entity: entity, limit: limit, offset: offset)
        defer { statement.reset() }
        return try materialize(bound: statement, entity: entity)
    }

    /// A plain fetch's or count's statement (`kind`), bound in the order `plainQuery` lists (the
    /// type filter's names, the predicate's values, the window), straight into the statement.
    private func plainStatement(_ hit: FastHit, _ kind: PlainQueryKind, entity: EntitySchema, limit: Int?, offset: Int?) throws -> any StoreStatement {
        let windowed = limit != nil || offset != nil
        let statement = try connection().readStatement(hit.texts.text(windowed: windowed), id: hit.entry.statementID(kind, windowed: windowed))
        var index: Int32 = 1
        if entity.baseName != nil {
            for name in entity.typeNames {
                statement.bind(.text(name), at: index)
                index += 1
            }
        }
        hit.bind(to: statement, from: &index)
        if windowed {
            statement.bind(limit.map { .integer(Int64($0)) } ?? dialect.noLimit, at: index)
            statement.bind(.integer(Int64(offset ?? 0)), at: index + 1)
        }
        return statement
    }

    #if DEBUG
    /// Debug builds check a plain fetch's or count's (`kind`) entry: its entity is `model`'s, and
    /// its kept text and bindings are the ones the general path (`fetchQuery`, `countQuery`)
    /// builds for the `FetchDescriptor` of `model` at `descriptor`.
    private func checkPlain(_ hit: FastHit, _ kind: PlainQueryKind, at descriptor: UnsafeRawPointer, of model: any PersistentModel.Type,
                            limit: Int?, offset: Int?) throws {
        func check<T: PersistentModel>(_ type: T.Type) throws {
            let entity = hit.entry.entity
            let resolved = try self.entity(for: T.self)
            precondition(resolved === entity, "plain \(kind): the entry's entity \(entity.name) is not \(T.self)'s")
            let kept = plainQuery(hit, entity: entity, limit: limit, offset: offset)
            let typed = descriptor.assumingMemoryBound(to: FetchDescriptor<T>.self).pointee
            let built = kind == .count ? try countQuery(typed, entity: entity) : try fetchQuery(typed, entity: entity, partial: nil)
            precondition(built.sql == kept.sql && built.bindings == kept.bindings, "plain \(kind): kept \(kept) differs from \(built)")
        }
        try check(model)
    }

    /// The text and bindings `plainStatement` runs.
    private func plainQuery(_ hit: FastHit, entity: EntitySchema, limit: Int?, offset: Int?) -> (sql: String, bindings: [SQLValue]) {
        let windowed = limit != nil || offset != nil
        var bindings: [SQLValue] = entity.baseName != nil ? entity.typeNames.map(SQLValue.text) : []
        bindings += hit.bindings
        if windowed {
            bindings.append(limit.map { .integer(Int64($0)) } ?? dialect.noLimit)
            bindings.append(.integer(Int64(offset ?? 0)))
        }
        return (hit.texts.text(windowed: windowed), bindings)
    }
    #endif

    /// Whether `fetch` goes through `fetchPlanned` (something pending, the store's answer alone, or
    /// prefetching) rather than `fetchQuery`.
    @inline(__always) func fetchesThroughPlan<T>(_ descriptor: FetchDescriptor<T>) -> Bool {
        !hasNothingPending || !descriptor.includePendingChanges || !isEmptyArray(descriptor.relationshipKeyPathsForPrefetching)
    }

    /// Whether `list` is empty, read without its element type. In `fetch`, which runs unspecialized
    /// (called from another module), `isEmpty` on `[SortDescriptor<T>]` and `[PartialKeyPath<T>]`
    /// looked the array and element types' metadata and conformances up in the runtime, about
    /// 3.2 k instructions a fetch (docs/Benchmarks.md, "Lookups"); an array's count is in its
    /// buffer whatever its elements.
    @inline(__always) func isEmptyArray<Element>(_ list: [Element]) -> Bool {
        unsafeBitCast(list, to: [AnyObject].self).isEmpty
    }

    /// The select `fetch` runs when nothing is pending (also what `explain` shows).
    func fetchQuery<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: EntitySchema, partial: PartialRow?) throws -> (sql: String, bindings: [SQLValue]) {
        var (sql, bindings) = try query(for: descriptor, entity: entity, select: partial?.selectSQL ?? entity.selectSQL)
        if descriptor.sortBy.isEmpty {
            sql += entity.keyOrderSQL
        } else {
            let order = try SortSQL.orderBy(descriptor.sortBy, entity: entity, schema: schema, dialect: dialect)
            sql += order.sql
            bindings += order.bindings
        }
        appendWindow(of: descriptor, to: &sql, &bindings)
        return (sql, bindings)
    }

    /// The number of models that match `descriptor` (limit and offset apply), with the context's
    /// unsaved changes when `includePendingChanges` (the default).
    ///
    /// - Throws: `ModelStoreError.unsupportedPredicate`; `.invalidFetch` for a negative `fetchLimit`
    ///   or `fetchOffset`; `.unknownEntity`; the store's error.
    @inlinable
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        // Inlined into the caller, as `fetch`: the plain count runs without `T`.
        if let plain = try withUnsafePointer(to: descriptor, { try countIfPlain(UnsafeRawPointer($0), of: T.self) }) { return plain }
        return try countThroughQuery(descriptor)
    }

    /// `fetchCount`'s plain count of the `FetchDescriptor<T>` at `descriptor` (`T` is `model`), as
    /// a plain fetch (`fetchIfPlain`): the store answers alone (nothing pending, or pending changes
    /// left out), and the predicate's entry keeps the statement. Nil when the count is not plain.
    @usableFromInline func countIfPlain(_ descriptor: UnsafeRawPointer, of model: any PersistentModel.Type) throws -> Int? {
        guards.enter()
        defer { guards.leave() }
        let view = descriptor.assumingMemoryBound(to: ErasedFetchDescriptor.self)
        #if DEBUG
        ErasedFetchDescriptor.checkLayout(of: descriptor, model: model)
        #endif
        let limit = view.pointee.fetchLimit, offset = view.pointee.fetchOffset
        try ErasedFetchDescriptor.checkWindow(limit: limit, offset: offset)
        guard hasNothingPending || !view.pointee.includePendingChanges, let predicate = view.pointee.predicate,
              let hit = PredicateSQL.fastHit(model: ObjectIdentifier(model), expression: predicate.expression, root: predicate.root,
                                             cache: predicateCache, dialect: dialect, for: .count,
                                             memo: &fastMemo) else { return nil }
        let entity = hit.entry.entity
        #if DEBUG
        try checkPlain(hit, .count, at: descriptor, of: model, limit: limit, offset: offset)
        #endif
        let statement = try plainStatement(hit, .count, entity: entity, limit: limit, offset: offset)
        defer { statement.reset() }
        return try Self.count(from: statement)
    }

    /// `fetchCount` of a descriptor that is not plain.
    @usableFromInline func countThroughQuery<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        guards.enter()
        defer { guards.leave() }
        let entity = try entity(for: T.self)
        // Pending changes: ModelContext+PendingChanges.swift.
        if descriptor.includePendingChanges && !hasNothingPending, let count = try pendingCount(descriptor, entity: entity) { return count }
        let (sql, bindings) = try countQuery(descriptor, entity: entity)
        let statement = try connection().statement(sql)
        statement.bind(bindings)
        defer { statement.reset() }
        return try Self.count(from: statement)
    }

    /// The statement `fetchCount` runs for `descriptor` when the store answers alone.
    private func countQuery<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: EntitySchema) throws -> (sql: String, bindings: [SQLValue]) {
        var (sql, bindings) = try query(for: descriptor, entity: entity, select: entity.keySelectSQL)
        appendWindow(of: descriptor, to: &sql, &bindings)
        return (EntitySchema.countSQL(around: sql), bindings)
    }

    /// The one value of a count's one row (`EntitySchema.countSQL`), read from its bound statement.
    private static func count(from statement: any StoreStatement) throws -> Int {
        guard try statement.step(), case .integer(let count) = statement.value(at: 0) else { return 0 }
        return Int(count)
    }

    /// The identifiers of the models that match `descriptor`, in its order, read without making
    /// models for stored rows (so a row whose values cannot be read still has its identifier);
    /// pending changes count as in `fetch`.
    ///
    /// - Throws: `ModelStoreError.unsupportedPredicate`; `.invalidFetch` for a negative `fetchLimit`
    ///   or `fetchOffset`; `.unknownEntity`; the store's error.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        guards.enter()
        defer { guards.leave() }
        try descriptor.checkWindow()
        return try identifiers(descriptor, entity: entity(for: T.self))
    }

    /// The model with `identifier`: registered in this context, or read from the store. An
    /// identifier of another store finds nothing, as one of a deleted row (docs/Runtime.md,
    /// "Identifiers").
    public func model(for identifier: PersistentIdentifier) -> (any PersistentModel)? {
        guards.enter()
        defer { guards.leave() }
        guard let entity = schema.entity(named: identifier.entityName),
              identifier.canName(rowOf: container.storeIdentifier) else { return nil }
        guard let rowID = identifier.rowID else {
            return inserted.first { $0.persistentModelID == identifier } as? any PersistentModel
        }
        return resolve(key: rowID, destination: entity.type) as? any PersistentModel
    }

    /// The model with `identifier` if this context has it in memory (none for an identifier of
    /// another store).
    public func registeredModel<T: PersistentModel>(for identifier: PersistentIdentifier) -> T? {
        guards.enter()
        defer { guards.leave() }
        guard identifier.canName(rowOf: container.storeIdentifier) else { return nil }
        guard let rowID = identifier.rowID, let entity = schema.entity(named: identifier.entityName) else {
            return inserted.first { $0.persistentModelID == identifier } as? T
        }
        return registered[entity.hierarchyIndex][rowID] as? T
    }

    // MARK: SQL

    /// `LIMIT ? OFFSET ?` for a descriptor's `fetchLimit` and `fetchOffset`, when it has either.
    private func appendWindow<T>(of descriptor: FetchDescriptor<T>, to sql: inout String, _ bindings: inout [SQLValue]) {
        guard descriptor.fetchLimit != nil || descriptor.fetchOffset != nil else { return }
        sql += dialect.windowClause
        bindings.append(descriptor.fetchLimit.map { .integer(Int64($0)) } ?? dialect.noLimit)
        bindings.append(.integer(Int64(descriptor.fetchOffset ?? 0)))
    }

    /// `SELECT … WHERE type filter AND predicate`.
    private func query<T: PersistentModel>(for descriptor: FetchDescriptor<T>, entity: EntitySchema, select: String) throws -> (String, [SQLValue]) {
        var conditions: [String] = []
        var bindings: [SQLValue] = []
        if entity.baseName != nil {
            conditions.append(dialect.typeFilter(entity.typeNames))
            bindings += entity.typeNames.map(SQLValue.text)
        }
        if let predicate = descriptor.predicate {
            let filter = try PredicateSQL.fastTranslation(of: predicate, entity: entity, schema: schema, dialect: dialect,
                                                          store: container.storeIdentifier, cache: predicateCache).filter
            conditions.append("(\(filter.sql))")
            bindings += filter.bindings
        }
        var sql = select
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        return (sql, bindings)
    }

    // MARK: Rows to models

    /// Runs a select of `entity`'s hierarchy columns (those of `partial`, when given) and returns
    /// its models (models deleted in the context left out, unless `includeDeleted`).
    /// `beforeDecoding` gets the bound statement before its first row is stepped to.
    func materialize(sql: String, bindings: [SQLValue], entity: EntitySchema, includeDeleted: Bool = false,
                     partial: PartialRow? = nil, beforeDecoding: ((any StoreStatement) throws -> Void)? = nil) throws -> [ModelObject] {
        guards.enter()
        defer { guards.leave() }
        let statement = try connection().statement(sql)
        statement.bind(bindings)
        defer { statement.reset() }
        try beforeDecoding?(statement)
        return try materialize(bound: statement, entity: entity, includeDeleted: includeDeleted, partial: partial)
    }

    /// `materialize(sql:…)` of a statement already bound.
    private func materialize(bound statement: any StoreStatement, entity: EntitySchema, includeDeleted: Bool = false,
                             partial: PartialRow? = nil) throws -> [ModelObject] {
        // The loop runs with the store's statement type, so its reads are direct calls in each
        // store's copy of it (docs/Architecture.md, "The storage seam").
        try withConcreteStatement(statement, Materializer(context: self, entity: entity, includeDeleted: includeDeleted, partial: partial))
    }

    /// `materialize` with the statement's concrete type.
    private struct Materializer: StatementVisitor {
        let context: ModelContext
        let entity: EntitySchema
        let includeDeleted: Bool
        let partial: PartialRow?

        func visit<Statement: StoreStatement>(_ statement: Statement) throws -> [ModelObject] {
            try context.materialize(statement, entity: entity, includeDeleted: includeDeleted, partial: partial)
        }
    }

    /// Steps through a select of `entity`'s hierarchy columns, making or refreshing one model per row.
    fileprivate func materialize<Statement: StoreStatement>(_ statement: Statement, entity: EntitySchema, includeDeleted: Bool,
                                                        partial: PartialRow?) throws -> [ModelObject] {
        // What each member entity's rows need, found by the member's index: rows of a hierarchy
        // alternate between its entities, and switching an entity's decoder positions, home and
        // name per row retained and released each of them (8 retains a row). Made once per
        // container (`MemberTables`), but the positions of a partial fetch; the homes once per
        // context (`memberHomes(of:)`): a fetch of one row makes no array but its result.
        // The tables' arrays are read through `tables` (`let` properties of a class the loop
        // holds), not copied into locals: each copy was a retain and a release a fetch (a
        // lookup's: docs/Benchmarks.md, "Lookups"); its two tables read per row stay locals (read
        // through `tables`, each was a retain and a release a row).
        let tables = memberTables[entity.index]
        let reader: RowReader
        if let partial {
            reader = RowReader(statement: statement, tables: tables.members.map { partial.positions[$0.entity.index] ?? $0.entity.attributeResultColumns },
                               entityNames: tables.names)
        } else if let spare = spareReader, spare.reads(statement, with: tables.decoderTables) {
            // Taken out while in use: a fetch nested in this one makes its own.
            spareReader = nil
            spare.restart()
            reader = spare
        } else {
            reader = RowReader(statement: statement, tables: tables.decoderTables)
        }
        // Unretained by the decoder (`RowDecoder`): kept alive here until the loop is done, then
        // kept for the next fetch when it reads full rows.
        defer { if partial == nil { spareReader = reader } else { withExtendedLifetime(reader) {} } }
        let decoder = RowDecoder(reader)
        // A full row's values come from its cells where the store loads them (`StoreCell`): the
        // member's value columns, loaded per row before it is decoded. (A partial fetch's rows
        // are read through the statement.)
        let loadsCells = Statement.loadsCells && partial == nil
        let cellColumns = tables.cellColumns
        let typeNames = tables.typeNames
        let homes = memberHomes(of: entity)
        let unfetched = partial.map { partial in tables.members.map { partial.unfetched[$0.entity.index] } }
        let single = tables.members.count == 1
        var table = 0
        var results: [ModelObject] = []
        var map = IdentityMap()
        swap(&map, &registered[entity.hierarchyIndex])
        defer { swap(&map, &registered[entity.hierarchyIndex]) }
        // A hierarchy with no model in memory yet (a fresh context's first fetch) has nothing to
        // look up: its rows' models are all new, and go into the map in one go after the loop.
        let mapWasEmpty = map.isEmpty
        // Batches (ModelContext+Batches.swift) note the models they register, to let them go after.
        let logging = registrationLog != nil
        var registeredKeys: [Int64] = []
        defer { if logging { registrationLog?.append(RegistrationLog(hierarchy: entity.hierarchyIndex, keys: registeredKeys)) } }
        // Models of an enumeration's batch before, one deallocated before each model made here
        // (taken only when there are some: a lookup's fetch does not swap two arrays).
        var deallocating: [ModelObject] = []
        if !deallocatingWhileReading.isEmpty { swap(&deallocating, &deallocatingWhileReading) }
        defer { if !deallocating.isEmpty { swap(&deallocating, &deallocatingWhileReading) } }
        while try statement.step() {
            let rowID = try statement.integer(at: 0)
            let member = single ? 0 : try typeNames.index(statement)
            if member != table {
                decoder.select(table: member)
                table = member
            }
            if loadsCells {
                let start = cellColumns.starts[member]
                decoder.useCells(statement.loadCells(cellColumns.storage + start, count: cellColumns.starts[member + 1] - start))
            }
            if !mapWasEmpty, let existing = map[rowID] {
                let rowEntity = tables.members[member].entity
                if existing.status == .persisted && !existing.isDirty {
                    try naming(rowID, of: rowEntity, decoder) { try existing._decode(from: decoder) }
                    try refreshKeys(of: existing, entity: rowEntity, statement: statement)
                } else if existing.status == .persisted, let missing = existing.unfetched {
                    // Changed (a relationship), so not refreshed: only its unread attributes are read.
                    let positions = (partial?.positions[rowEntity.index] ?? rowEntity.attributeResultColumns).enumerated().map {
                        missing.contains($0.offset) ? $0.element : -1
                    }
                    try RowReader(statement: statement, positions: positions, entityName: rowEntity.name).withDecoder { missingDecoder in
                        try naming(rowID, of: rowEntity, missingDecoder) { try existing._decode(from: missingDecoder) }
                    }
                }
                if existing.unfetched != nil { existing.unfetched = PartialRow.stillUnfetched(existing.unfetched, after: partial, entity: rowEntity) }
                if existing.status != .deleted || includeDeleted { results.append(existing) }
                continue
            }
            if !deallocating.isEmpty { deallocating.removeLast() }
            let object: ModelObject
            do {
                object = try tables.types[member].init(from: decoder)
            } catch {
                // Named outside the loop's common path: the row's entity is looked up only here.
                object = try naming(rowID, of: tables.members[member].entity, decoder) { throw error }
            }
            if let unfetched, let missing = unfetched[member] { object.unfetched = missing }
            object.rowID = rowID
            object.home = homes[member]
            object.status = .persisted
            // To-many slots start unloaded, which an empty array already means: the array is only
            // made here when the row carries to-one keys.
            if tables.keyed[member] {
                let rowEntity = tables.members[member].entity
                // One to-one key among at most four slots: kept inline in the model, no array
                // (`RelationshipSlots`), unless the key does not fit.
                var inline = false
                if rowEntity.keySlots.count == 1 {
                    let column = rowEntity.keyResultColumns[0]
                    let key: Int64? = statement.isNull(at: column) ? nil : try statement.integer(at: column)
                    if let form = RelationshipSlots.inlineForm(count: rowEntity.relationships.count, slot: rowEntity.keySlots[0], key: key) {
                        object.flags = form.inline
                        object.inlineKey = form.key
                        inline = true
                    }
                }
                if !inline {
                    // Made by appending: `ContiguousArray(repeating:count:)` looks up the storage
                    // class's generic metadata in the runtime each time (5 % of a prefetch's instructions).
                    var slots = ContiguousArray<RelationshipValue>()
                    slots.reserveCapacity(rowEntity.relationships.count)
                    for _ in 0..<rowEntity.relationships.count { slots.append(.unloaded) }
                    for (index, slot) in rowEntity.keySlots.enumerated() {
                        let column = rowEntity.keyResultColumns[index]
                        slots[slot] = .key(statement.isNull(at: column) ? nil : try statement.integer(at: column))
                    }
                    object.slotArray = slots
                }
            }
            if !mapWasEmpty { map[rowID] = object }
            if logging { registeredKeys.append(rowID) }
            // Its last use: handed over without a retain and a release around the append.
            results.append(consume object)
        }
        if mapWasEmpty { map.insertNew(results) }
        return results
    }

    private func refreshKeys<Statement: StoreStatement>(of object: ModelObject, entity: EntitySchema, statement: Statement) throws {
        for (index, slot) in entity.keySlots.enumerated() where slot < object.slotCount {
            let column = entity.keyResultColumns[index]
            let key: Int64? = statement.isNull(at: column) ? nil : try statement.integer(at: column)
            if case .object(let related) = object.slot(slot), related?.rowID == key { continue }
            object.slots[slot] = .key(key)
        }
    }

    struct Member: Sendable {
        let entity: EntitySchema
        let name: [UInt8]
    }

    /// A hierarchy's members (`hierarchyMembers(of:in:)`) and, in their order, the result columns
    /// of their attributes, their names, model types and whether their rows carry to-one keys. A
    /// class: a fetch takes one reference to it (as a struct of seven references, a fetch copied
    /// it out of the container with a retain and a release each: docs/Benchmarks.md, "Lookups").
    final class MemberTables: @unchecked Sendable {
        let members: [Member]
        let names: [String]
        let types: [ModelObject.Type]
        let keyed: [Bool]
        /// The result columns of their attributes and their names, as a decoder takes them (shared
        /// by the fetches' decoders).
        let decoderTables: RowReader.DecoderTables
        /// Their type column's bytes: which member a row is (`TypeNameTable.index(_:)`).
        let typeNames: TypeNameTable
        /// The result columns of their value columns, a full row's cells (`StoreStatement.loadCells`).
        let cellColumns: RowReader.DecoderTables

        init(_ members: [Member]) {
            self.members = members
            names = members.map(\.entity.name)
            types = members.map(\.entity.type)
            keyed = members.map { !$0.entity.keySlots.isEmpty }
            decoderTables = RowReader.DecoderTables(members.map(\.entity.attributeResultColumns), entityNames: names)
            typeNames = TypeNameTable(members.map(\.name))
            cellColumns = RowReader.DecoderTables(members.map(\.entity.valueResultColumns), entityNames: names)
        }
    }

    /// The type column's bytes of a hierarchy's members (in `hierarchyMembers(of:)`'s order), one
    /// after the other in one allocation: a row's member found without the members array
    /// (iterating `[Member]` and comparing each name through `withUnsafeBufferPointer` and
    /// `memcmp`: docs/Benchmarks.md, "Reads"); a name is compared a word at a time, in place.
    final class TypeNameTable: @unchecked Sendable {
        /// The names' bytes (never written after `init`).
        private let bytes: UnsafeMutablePointer<UInt8>
        /// Each name's offset in `bytes`, then the end (never written after `init`).
        private let starts: UnsafeMutablePointer<Int>
        let count: Int

        init(_ names: [[UInt8]]) {
            count = names.count
            starts = .allocate(capacity: names.count + 1)
            starts[0] = 0
            for (index, name) in names.enumerated() { starts[index + 1] = starts[index] + name.count }
            bytes = .allocate(capacity: max(starts[names.count], 1))
            for (index, name) in names.enumerated() {
                name.withUnsafeBufferPointer { buffer in
                    if let base = buffer.baseAddress { (bytes + starts[index]).initialize(from: base, count: buffer.count) }
                }
            }
        }

        deinit {
            bytes.deallocate()
            starts.deallocate()
        }

        /// The position of the member named `name`, if any.
        @inline(__always) func index(of name: UnsafeBufferPointer<UInt8>) -> Int? {
            let length = name.count
            guard let other = name.baseAddress else {
                for index in 0..<count where starts[index + 1] == starts[index] { return index }
                return nil
            }
            for index in 0..<count where starts[index + 1] &- starts[index] == length {
                if Self.equal(bytes + starts[index], other, length) { return index }
            }
            return nil
        }

        /// Whether the `length` bytes at `a` and `b` are equal: a word at a time, the last word
        /// overlapping the one before (a name of 9 to 16 bytes takes two loads a side); a name
        /// shorter than a word byte by byte (nothing is read past either end).
        @inline(__always) private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ length: Int) -> Bool {
            guard length >= 8 else {
                var offset = 0
                while offset < length {
                    if a[offset] != b[offset] { return false }
                    offset += 1
                }
                return true
            }
            var offset = 0
            while offset + 8 < length {
                if UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self) { return false }
                offset += 8
            }
            let last = length - 8
            return UnsafeRawPointer(a + last).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(b + last).loadUnaligned(as: UInt64.self)
        }

        /// The position of the member named by the row's type column (compared as the store's
        /// bytes, without making a String).
        ///
        /// - Throws: `ModelStoreError.unknownEntity` naming the column's text when no member has it.
        @inline(__always) func index<Statement: StoreStatement>(_ statement: Statement) throws -> Int {
            if let name = statement.textBytes(at: 1), let index = index(of: name) { return index }
            throw ModelStoreError.unknownEntity(statement.text(at: 1))
        }
    }

    /// The entities of `entity`'s hierarchy (made once per container: `ModelContainer.memberTables`).
    func hierarchyMembers(of entity: EntitySchema) -> [Member] {
        memberTables[entity.index].members
    }

    /// The entities whose rows `entity`'s table holds, with their type column's bytes.
    static func hierarchyMembers(of entity: EntitySchema, in schema: Schema) -> [Member] {
        let root = entity.baseName.flatMap { schema.entity(named: $0) } ?? entity
        return root.typeNames.compactMap { name in schema.entity(named: name).map { Member(entity: $0, name: Array(name.utf8)) } }
    }

    // MARK: Attributes a fetch did not read

    /// Reads the attributes of `object` that a fetch with `propertiesToFetch` left unread, in one
    /// query; they keep their placeholders if the row is gone (another context deleted it).
    func loadUnfetchedAttributes(of object: ModelObject) {
        guard let missing = object.unfetched?.positions else { return }
        object.unfetched = nil
        guard let entity = object.entity, let rowID = object.rowID, let connection = try? connection() else { return }
        let wanted = Set(missing.sorted.filter { $0 < entity.storedAttributes.count }.map { entity.storedAttributes[$0].name + "@" + entity.storedAttributes[$0].entityName })
        let row = PartialRow.select(entity: entity, schema: schema) { wanted.contains($0.name + "@" + $0.entityName) }
        guard let statement = try? connection.statement(row.sql + " WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?") else { return }
        statement.bind(.integer(rowID), at: 1)
        defer { statement.reset() }
        guard (try? statement.step()) == true else { return }
        do {
            try RowReader(statement: statement, positions: row.positions[entity.index] ?? [], entityName: entity.name).withDecoder { try object._decode(from: $0) }
        } catch {
            deferredError = deferredError ?? error
        }
    }

    // MARK: Relationships

    /// The model of `destination`'s hierarchy with row `key` (registered, or read), nil if gone.
    func resolve(key: Int64, destination: ModelObject.Type) -> ModelObject? {
        guards.enter()
        defer { guards.leave() }
        guard let entity = schema.entity(for: destination) else { return nil }
        if let object = registered[entity.hierarchyIndex][key] { return object.status == .removed ? nil : object }
        let sql = entity.selectSQL + " WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = ?"
        return (try? materialize(sql: sql, bindings: [.integer(key)], entity: entity))?.first
    }

    /// Reads a saved model's to-many relationship from the store.
    func loadToMany(of object: ModelObject, slot: Int) -> [ModelObject] {
        guards.enter()
        defer { guards.leave() }
        guard let entity = object.entity, slot < entity.relationships.count, let rowID = object.rowID else { return [] }
        let relationship = entity.relationships[slot]
        guard let destination = schema.entity(named: relationship.destinationName) else { return [] }
        let pk = SQLQuote.identifier(StorageNames.primaryKey)
        var sql = destination.selectSQL
        switch relationship.storage {
        case .inverseKeyColumn(_, let column):
            sql += " WHERE \(SQLQuote.identifier(column)) = ?"
        case .joinTable(let table, let ownColumn, let otherColumn):
            sql += " WHERE \(pk) IN (SELECT \(SQLQuote.identifier(otherColumn)) FROM \(SQLQuote.identifier(table)) WHERE \(SQLQuote.identifier(ownColumn)) = ?)"
        case .keyColumn:
            return []
        }
        sql += " ORDER BY \(pk)"
        // Models deleted and not saved yet stay in the list, as in a list loaded before their
        // deletion: an unsaved deletion changes no relationship until the save (a rollback that
        // brings them back leaves a list loaded meanwhile right).
        return (try? materialize(sql: sql, bindings: [.integer(rowID)], entity: destination, includeDeleted: true)) ?? []
    }
}
