import Foundation

// Large results a batch at a time: `enumerate(_:batchSize:allowEscapingMutations:_:)` and
// `fetch(_:batchSize:)` (a lazy `FetchResultsCollection`). See docs/Runtime.md, "Batches".
//
// Memory stays flat: the models a batch registers in the identity map are let go of after the
// batch when nothing else holds them (no other reference, no unsaved change). Such a model is
// unreachable, so dropping it keeps "one instance per row per context": a later fetch of the row
// makes a new one, which nobody can compare with the old.

/// Keys of models a fetch registered in one hierarchy.
struct RegistrationLog {
    let hierarchy: Int
    let keys: [Int64]
}

extension ModelContext {
    /// Runs `block` on every model that matches `descriptor`, in its order, reading `batchSize`
    /// models at a time (SwiftData's `enumerate`). Pending changes count as in `fetch`, taken
    /// when the enumeration starts. After each batch, the models it read are released unless
    /// something else holds them or they have unsaved changes; their memory goes back while the
    /// next batch is read, their registrars during its block calls.
    ///
    /// With `allowEscapingMutations` false (the default) the block must not leave the context
    /// with new unsaved changes: insert, delete or change models and `save()` inside the block,
    /// or pass true (changed models then stay in memory until saved).
    ///
    /// Without a sort and with nothing pending to merge, each batch is one query that starts after
    /// the last key of the batch before, so nothing grows with the result. Otherwise the keys of
    /// the result are read first (one integer per row), then the models a batch at a time.
    ///
    /// - Throws: `ModelStoreError.escapingMutations` when the block leaves unsaved changes and
    ///   `allowEscapingMutations` is false (the changes stay pending); `.invalidFetch` for a batch
    ///   size below 1, a negative `fetchLimit` or `fetchOffset`, or a prefetch key path that is not a
    ///   relationship; what `fetch` throws; what `block` throws (the enumeration stops there).
    public func enumerate<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
                                              _ block: (T) throws -> Void) throws {
        let fetch = try plannedBatches(descriptor, batchSize: batchSize)
        let entity = fetch.entity, plan = fetch.plan
        var watch = MutationWatch(self, allowed: allowEscapingMutations)
        let outerLog = registrationLog
        registrationLog = []
        defer { registrationLog = outerLog }

        // The models the batch before released, deallocated while the next batch is read, one
        // before each model it makes; their registrars, taken out of them first, destroyed during
        // the next batch's block calls, one after each call, as the block makes the new models'
        // registrars. Each burst of allocations so reuses memory of its own kind just freed
        // (docs/Runtime.md, "Batches").
        var released: [ModelObject]? = []
        var registrars: [RegistrarStorage] = []
        defer {
            released = nil
            for index in registrars.indices { registrars[index].destroy() }
        }
        /// Reads a batch (`read`) while the batch before's models are deallocated.
        func reading(_ read: () throws -> [ModelObject]) rethrows -> [ModelObject] {
            deallocatingWhileReading = released ?? []
            released = nil
            defer { deallocatingWhileReading = [] }
            return try read()
        }

        func run(_ batch: [ModelObject]) throws {
            if !fetch.prefetching.isEmpty {
                try prefetch(fetch.prefetching, of: batch, owners: .keys(batch.compactMap { $0.status == .inserted ? nil : $0.rowID }))
            }
            // The batch holds its models while the block runs: the block gets each one borrowed,
            // without a retain and a release around the call. The batch's storage is read as
            // `Unmanaged` references: a model loaded as a strong reference from the buffer was
            // copied (retained and released around the call, the block being opaque to the compiler).
            // Local while the block runs: the captured list is checked for exclusive access at
            // run time at each use.
            var dying: [RegistrarStorage] = []
            swap(&dying, &registrars)
            defer {
                dying.removeAll(keepingCapacity: true)
                swap(&dying, &registrars)
            }
            try dying.withUnsafeMutableBufferPointer { dying in
                var left = dying.count
                defer { while left > 0 { left -= 1; dying[left].destroy() } }
                try batch.withUnsafeBufferPointer { models in
                    try models.withMemoryRebound(to: Unmanaged<ModelObject>.self) { references in
                        for reference in references {
                            try reference._withUnsafeGuaranteedRef { try block(unsafeDowncast($0, to: T.self)) }
                            if left > 0 { left -= 1; dying[left].destroy() }
                            try watch.check(self)
                        }
                    }
                }
            }
        }
        /// Lets go of the batch's models (`releaseBatch`), keeping those released for the next
        /// batch's read when there is one (`more`), their registrars taken out.
        func release(more: Bool) {
            released = more ? [] : nil
            releaseBatch(keeping: &released)
            guard let models = released else { return }
            var taken: [RegistrarStorage] = []
            swap(&taken, &registrars)
            defer { swap(&taken, &registrars) }
            taken.reserveCapacity(models.count)
            models.withUnsafeBufferPointer { models in
                models.withMemoryRebound(to: Unmanaged<ModelObject>.self) { references in
                    for reference in references {
                        if let registrar = reference._withUnsafeGuaranteedRef({ $0.takeRegistrar() }) { taken.append(registrar) }
                    }
                }
            }
        }

        if plan.terms.isEmpty && !fetch.merges {
            // Key order: each batch is the rows after the last key of the one before, up to the
            // largest key stored when the enumeration starts, so rows the block inserts (and saves)
            // are not visited and the enumeration ends (#26, item 2; docs/Runtime.md, "Batches").
            // That bound is checked here, not in the SQL: a row past it ends the enumeration, and
            // the store does not compare every row's key with it (docs/Benchmarks.md, "Enumerate
            // and observation").
            guard let last = try largestKey(of: entity) else { return }
            /// The batch of at most `size` rows after the key `after` (from the start: nil),
            /// skipping `skip` rows.
            func batchQuery(after: Int64?, size: Int, skip: Int) -> SQLFragment {
                let next: SQLFragment? = after.map { "\(raw: plan.keyColumn) > \(SQLFragment.parameter(.integer($0)))" }
                let query: SQLFragment = "\(raw: entity.selectSQL)\(plan.whereClause(and: next))\(plan.orderBy) LIMIT \(SQLFragment.parameter(.integer(Int64(size))))"
                return skip > 0 ? "\(query) OFFSET \(SQLFragment.parameter(.integer(Int64(skip))))" : query
            }
            let store = try connection()
            // A batch's query is sent as soon as the store has the batch before, so a server store
            // runs it while that batch's models are made and the block runs (docs/Runtime.md,
            // "Batches"); one not taken is dropped.
            defer { store.dropReadAhead() }
            var remaining = plan.limit ?? Int.max
            var size = min(batchSize, remaining)
            var query = batchQuery(after: nil, size: size, skip: plan.offset)
            /// The query and size of the batch after this one, of `read` rows ending with the key
            /// `lastKey`; nil when this one is the last: not full, reaching the start's largest
            /// key (rows past it were stored since the start: they come last in key order), or
            /// ending the window.
            func batchAfter(read: Int, lastKey: Int64?) -> (query: SQLFragment, size: Int)? {
                guard read == size, let lastKey, lastKey < last, remaining > read else { return nil }
                let nextSize = min(batchSize, remaining - read)
                return (batchQuery(after: lastKey, size: nextSize, skip: 0), nextSize)
            }
            while remaining > 0 {
                // A store that reads the whole result at once tells its row count and last key
                // before the models are made: the next batch is sent then (and not again).
                var sentAhead: (query: SQLFragment, size: Int)?
                // Deleted models are read too (the block may delete some): rows read decide the end.
                var batch = try reading {
                    try materialize(sql: query.sql, bindings: query.bindings, entity: entity, includeDeleted: true) { statement in
                        guard let result = try store.wholeResult(of: statement, integerAt: 0),
                              let next = batchAfter(read: result.rows, lastKey: result.last) else { return }
                        store.readAhead(next.query.sql, next.query.bindings)
                        sentAhead = next
                    }
                }
                // The rows read are the rows the store had: the same decision, taken once.
                let next = sentAhead ?? batchAfter(read: batch.count, lastKey: batch.last?.rowID)
                // Rows stored since the start are dropped (and end the enumeration).
                if let key = batch.last?.rowID, key > last, let past = batch.firstIndex(where: { ($0.rowID ?? last) > last }) {
                    batch.removeSubrange(past...)
                }
                remaining -= batch.count
                if let next {
                    size = next.size
                    query = next.query
                    if sentAhead == nil { store.readAhead(query.sql, query.bindings) }
                }
                if descriptor.includePendingChanges { batch.removeAll { $0.status == .deleted } }
                try run(batch)
                batch = []
                release(more: next != nil)
                if next == nil { break }
            }
        } else {
            // The order needs the whole result: its keys first, then the models a batch at a time.
            let keys = try resultKeys(plan, view: fetch.view, types: false)
            var start = 0
            while start < keys.count {
                let range = start..<min(start + batchSize, keys.count)
                var batch = try reading {
                    try models(in: keys, range: range, entity: entity, includeDeleted: !descriptor.includePendingChanges).compactMap { $0 }
                }
                if descriptor.includePendingChanges { batch.removeAll { $0.status == .deleted || $0.status == .removed } }
                try run(batch)
                batch = []
                release(more: range.upperBound < keys.count)
                start = range.upperBound
            }
        }
    }

    /// The largest row key of `entity`'s table (nil: the table is empty): one step to the end of
    /// the key's index.
    private func largestKey(of entity: EntitySchema) throws -> Int64? {
        let key = SQLQuote.identifier(StorageNames.primaryKey)
        let rows = try connection().rows("SELECT max(\(key)) FROM \(SQLQuote.identifier(entity.tableName))")
        guard case .integer(let last)? = rows.first?.first else { return nil }
        return last
    }

    /// `enumerate` with SwiftData's label for the block.
    @_disfavoredOverload
    public func enumerate<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
                                              block: (T) throws -> Void) throws {
        try enumerate(descriptor, batchSize: batchSize, allowEscapingMutations: allowEscapingMutations, block)
    }

    /// The models that match `descriptor`, as a collection that reads them `batchSize` at a time
    /// when they are accessed (SwiftData's `fetch(_:batchSize:)`). The result (which rows, in
    /// which order, with the pending changes of this moment) is read now, as row keys (one
    /// integer per row); the models of one batch are read on first access to any of them, and
    /// those of the batch before are released unless something else holds them.
    ///
    /// A model whose row is deleted from the store after this call (by this context's save or
    /// by another one) cannot be read back: accessing its position stops the program with a
    /// message, as a fault that cannot be fulfilled does in SwiftData.
    ///
    /// - Throws: `ModelStoreError.invalidFetch` for a batch size below 1, a negative `fetchLimit` or
    ///   `fetchOffset`, or a prefetch key path that is not a relationship; what `fetch` throws.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T> {
        let fetch = try plannedBatches(descriptor, batchSize: batchSize)
        let keys = try resultKeys(fetch.plan, view: fetch.view, types: false)
        return FetchResultsCollection(storage: FetchResultsStorage(context: self, entity: fetch.entity, keys: keys, batchSize: batchSize,
                                                                   prefetching: fetch.prefetching))
    }

    /// The plan of a batched fetch, after checking the batch size.
    private func plannedBatches<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> PlannedFetch {
        guard batchSize > 0 else { throw ModelStoreError.invalidFetch("batchSize \(batchSize): a batch holds at least one model") }
        try descriptor.checkWindow()
        return try planned(descriptor, entity: entity(for: T.self))
    }

    // MARK: Releasing a batch's models

    /// Lets go of the models registered since the log was started (and starts it again): those
    /// released are appended to `kept` when it is not nil (`releaseUnreferenced(_:keeping:)`).
    func releaseBatch(keeping kept: inout [ModelObject]?) {
        let log = registrationLog ?? []
        registrationLog = []
        releaseUnreferenced(log, keeping: &kept)
    }

    /// Removes from the identity map the logged models that nothing else holds and that have no
    /// unsaved change. A model held only by another released model goes in a later pass.
    func releaseUnreferenced(_ log: [RegistrationLog]) {
        var dropped: [ModelObject]? = nil
        releaseUnreferenced(log, keeping: &dropped)
    }

    /// `releaseUnreferenced(_:)`; the models released are appended to `kept` (when not nil) to be
    /// deallocated later, unless a later pass is needed: a model held only by a released one is
    /// released once that one is gone, so `kept` lets go of them then, and is made nil.
    func releaseUnreferenced(_ log: [RegistrationLog], keeping kept: inout [ModelObject]?) {
        var waiting = log
        for _ in 0..<3 where !waiting.isEmpty {
            var held: [RegistrationLog] = []
            var released = false
            for entry in waiting {
                var keys: [Int64] = []
                if registered[entry.hierarchy].releaseUnreferenced(entry.keys, held: &keys, keeping: &kept) { released = true }
                if !keys.isEmpty { held.append(RegistrationLog(hierarchy: entry.hierarchy, keys: keys)) }
            }
            if !released { break }
            if !held.isEmpty { kept = nil }
            waiting = held
        }
    }
}

/// Whether an `enumerate` block left new unsaved changes in its context.
private struct MutationWatch {
    let allowed: Bool
    private var counts: Counts

    /// The sizes of the context's pending lists.
    private struct Counts {
        var inserted, deleted, dirty, touched, links: Int

        init(_ context: ModelContext) {
            inserted = context.inserted.count
            deleted = context.deleted.count
            dirty = context.dirty.count
            touched = context.touched.count
            links = context.linkChanges.count
        }

        func exceeds(_ other: Counts) -> Bool {
            inserted > other.inserted || deleted > other.deleted || dirty > other.dirty || touched > other.touched || links > other.links
        }
    }

    init(_ context: ModelContext, allowed: Bool) {
        self.allowed = allowed
        counts = Counts(context)
    }

    /// Throws `escapingMutations` when the context holds more pending inserts, deletes, changes
    /// or links than the fewest seen so far (a save inside the block lowers that).
    mutating func check(_ context: ModelContext) throws {
        guard !allowed else { return }
        let now = Counts(context)
        if now.exceeds(counts) { throw ModelStoreError.escapingMutations }
        counts = now
    }
}

/// The models of a fetch, read a batch at a time on access (SwiftData's `FetchResultsCollection`,
/// returned by `ModelContext.fetch(_:batchSize:)`). Like the context it comes from, it belongs to
/// one task or thread at a time.
public struct FetchResultsCollection<Element: PersistentModel>: RandomAccessCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    let storage: FetchResultsStorage

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.keys.count }

    /// The model at `position`; its batch is read from the store on first access.
    public subscript(position: Int) -> Element {
        unsafeDowncast(storage.model(at: position), to: Element.self)
    }
}

/// The row keys of a `FetchResultsCollection` and the batch of models read last.
final class FetchResultsStorage {
    let context: ModelContext
    let entity: EntitySchema
    let keys: ResultKeys
    let batchSize: Int
    let prefetching: [(relationship: RelationshipSchema, slot: Int)]
    private var batchStart = -1
    private var batch: [ModelObject] = []
    private var batchLog: [RegistrationLog] = []

    init(context: ModelContext, entity: EntitySchema, keys: ResultKeys, batchSize: Int, prefetching: [(relationship: RelationshipSchema, slot: Int)]) {
        self.context = context
        self.entity = entity
        self.keys = keys
        self.batchSize = batchSize
        self.prefetching = prefetching
    }

    func model(at position: Int) -> ModelObject {
        precondition(position >= 0 && position < keys.count, "FetchResultsCollection: index \(position) out of range 0..<\(keys.count)")
        let start = position / batchSize * batchSize
        if start != batchStart { load(start) }
        return batch[position - start]
    }

    /// Reads the batch starting at `start`, after releasing the one before.
    private func load(_ start: Int) {
        batch = []
        batchStart = -1
        context.releaseUnreferenced(batchLog)
        let outerLog = context.registrationLog
        context.registrationLog = []
        defer {
            batchLog = context.registrationLog ?? []
            context.registrationLog = outerLog
        }
        let range = start..<min(start + batchSize, keys.count)
        let objects: [ModelObject?]
        do {
            objects = try context.models(in: keys, range: range, entity: entity, includeDeleted: true)
        } catch {
            fatalError("FetchResultsCollection: reading the models at positions \(range) failed: \(error)")
        }
        let loaded = objects.compactMap { $0 }
        guard loaded.count == objects.count else {
            let missing = zip(range, objects).filter { $0.1 == nil }.map { "\(entity.name)/\(keys.keys[$0.0])" }
            fatalError("FetchResultsCollection: the rows of \(missing.prefix(5).joined(separator: ", ")) were deleted from the store after the fetch")
        }
        do {
            try context.prefetch(prefetching, of: loaded, owners: .keys(loaded.compactMap { $0.status == .inserted ? nil : $0.rowID }))
        } catch {
            fatalError("FetchResultsCollection: prefetching the relationships of positions \(range) failed: \(error)")
        }
        batch = loaded
        batchStart = start
    }
}
