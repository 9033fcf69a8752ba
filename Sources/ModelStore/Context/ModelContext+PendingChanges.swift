import Foundation

// Fetches that see the context's unsaved inserts, changes and deletions
// (`FetchDescriptor.includePendingChanges`, true by default). See docs/Runtime.md, "Pending
// changes in fetches".
//
// - Nothing pending that the fetch can see: the stored query alone, unchanged (no extra query,
//   no per-row work). What a fetch can see: inserted models of the fetched entity (or its
//   subclasses), and changed, deleted or relinked saved models of the fetched hierarchy and of the
//   hierarchies its predicate and sort reach through relationships.
// - Otherwise some stored rows are *judged in memory*: the changed and deleted models of the
//   fetched hierarchy, and the stored rows whose predicate or sort value goes through a changed
//   related model (found by following the predicate's and the sort's relationships backwards, in
//   SQL, from the changed models' keys). Their SQL answer is ignored; instead the models (and the
//   inserted ones) are filtered with `predicate.evaluate` and ordered with the descriptors'
//   `compare` — Foundation's own answer, which the SQL of every other row agrees with (the
//   predicate and sort oracles). Deleted models are left out.
// - The stored query then streams keys (and sort values, when something matched in memory) in its
//   order, skipping the judged rows, and the matches are merged in: a match goes before a stored
//   row that sorts after it, ties broken by row key, and models not saved yet (no key) after every
//   stored row that ties with them, in insertion order. So the merged order is exactly what
//   `sorted(using:)` gives over the stored models in key order followed by the inserted ones.
//   Offset and limit apply to the merged list; the stored query reads at most
//   `offset + limit + judged rows` rows.

/// The context's unsaved state, by hierarchy (`EntitySchema.hierarchyIndex`).
struct PendingState {
    /// Keys of saved models that are changed (attributes, to-one keys, to-many relationships or
    /// many-to-many links) or deleted.
    var changedKeys: [Int: Set<Int64>] = [:]
    /// Models inserted and not saved, in insertion order.
    var inserted: [Int: [ModelObject]] = [:]
}

/// What pending changes do to one fetch.
struct PendingView {
    /// Stored rows of the fetched hierarchy judged in memory: the stored query skips them.
    var judgedKeys: Set<Int64> = []
    /// The models (saved and not) that match in memory, in the fetch's order.
    var matches: [ModelObject] = []
    /// The matches' sort values in stored form (one per sort term), when the fetch sorts.
    var matchValues: [[SQLValue]] = []
}

/// A fetch's result as row keys: stored rows by key, models not saved yet by position.
struct ResultKeys {
    /// Row keys in result order (0 at the positions of `pending`).
    var keys: [Int64] = []
    /// Each position's entity, as an index into the hierarchy's type names, when asked for.
    var types: [Int32] = []
    /// Models not saved yet (and saved models judged in memory), by position.
    var pending: [Int: ModelObject] = [:]

    var count: Int { keys.count }
}

extension ModelContext {
    /// Whether the context has no unsaved insert, delete, change or link at all.
    var hasNothingPending: Bool {
        unsaved.isEmpty
    }

    /// The unsaved state by hierarchy.
    func pendingState() -> PendingState {
        var state = PendingState()
        for object in inserted where object.status == .inserted {
            guard let entity = object.entity else { continue }
            state.inserted[entity.hierarchyIndex, default: []].append(object)
        }
        func note(_ object: ModelObject) {
            guard let entity = object.entity, let rowID = object.rowID,
                  object.status == .persisted || object.status == .deleted else { return }
            state.changedKeys[entity.hierarchyIndex, default: []].insert(rowID)
        }
        for object in dirty { note(object) }
        for object in deleted { note(object) }
        for object in touched.values { note(object) }
        for change in linkChanges.values {
            note(change.source)
            note(change.target)
        }
        return state
    }

    /// What pending changes do to a fetch of `plan` (with `predicate`, which `plan` translates);
    /// nil when they cannot change its answer (then the stored query alone answers it).
    func pendingView<T: PersistentModel>(_ plan: FetchPlan, predicate: Predicate<T>?) throws -> PendingView? {
        if hasNothingPending { return nil }
        let entity = plan.entity
        let state = pendingState()
        var reached: Set<Int> = [entity.hierarchyIndex]
        for relationship in plan.followed {
            for name in [relationship.entityName, relationship.destinationName] {
                if let other = schema.entity(named: name) { reached.insert(other.hierarchyIndex) }
            }
        }
        let typeNames = Set(entity.typeNames)
        let inserted = (state.inserted[entity.hierarchyIndex] ?? []).filter { $0.entity.map { typeNames.contains($0.name) } ?? false }
        let changed = state.changedKeys.filter { reached.contains($0.key) && !$0.value.isEmpty }
        if inserted.isEmpty && changed.isEmpty { return nil }

        var view = PendingView()
        view.judgedKeys = try influencedKeys(from: changed, through: plan.followed)[entity.hierarchyIndex] ?? []
        var candidates: [(model: T, tie: (Int, Int64))] = []
        for object in try judgedModels(view.judgedKeys, entity: entity) where object.status == .persisted {
            if let model = object as? T, let rowID = object.rowID { candidates.append((model, (0, rowID))) }
        }
        for (position, object) in inserted.enumerated() {
            if let model = object as? T { candidates.append((model, (1, Int64(position)))) }
        }
        if let predicate {
            candidates = try candidates.filter { try predicate.evaluate($0.model) }
        }
        guard !plan.terms.isEmpty else {
            // No sort: saved models by key, then new ones in insertion order.
            view.matches = candidates.sorted { $0.tie < $1.tie }.map { $0.model._$modelObject }
            return view
        }
        // Foundation's order (`SortValueOrder` on the values' stored forms gives it, as the sort
        // oracle checks), then the merge's tie order: saved models by key, new ones after, in
        // insertion order.
        var ranked = candidates.map { candidate in
            (object: candidate.model._$modelObject, tie: candidate.tie,
             values: plan.terms.map { term in candidate.model[keyPath: term.keyPath].flatMap(CapturedValue.sqlValue(of:)) ?? .null })
        }
        ranked.sort { left, right in
            switch SortValueOrder.compare(left.values, right.values, terms: plan.terms) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return left.tie < right.tie
            }
        }
        view.matches = ranked.map(\.object)
        view.matchValues = ranked.map(\.values)
        return view
    }

    /// The stored rows whose answer to a predicate or sort following `followed` may differ from
    /// the store's because of the changed models `changed` (keys by hierarchy): those models, and
    /// every row that reaches one of them through the followed relationships (in stored links; a
    /// row whose own links changed in memory is changed itself). One relationship step per use.
    func influencedKeys(from changed: [Int: Set<Int64>], through followed: [RelationshipSchema]) throws -> [Int: Set<Int64>] {
        var influenced = changed
        var frontier = changed
        for _ in followed.indices {
            var next: [Int: Set<Int64>] = [:]
            for relationship in followed {
                guard let source = schema.entity(named: relationship.entityName),
                      let destination = schema.entity(named: relationship.destinationName),
                      let keys = frontier[destination.hierarchyIndex], !keys.isEmpty else { continue }
                for key in try sourceKeys(of: relationship, source: source, reaching: keys)
                where influenced[source.hierarchyIndex, default: []].insert(key).inserted {
                    next[source.hierarchyIndex, default: []].insert(key)
                }
            }
            if next.isEmpty { break }
            frontier = next
        }
        return influenced
    }

    /// Keys of stored rows of `source`'s table whose `relationship` links to one of `keys`.
    private func sourceKeys(of relationship: RelationshipSchema, source: EntitySchema, reaching keys: Set<Int64>) throws -> [Int64] {
        let pk = SQLQuote.identifier(StorageNames.primaryKey)
        var found: [Int64] = []
        for chunk in KeyList.chunks(keys) {
            let query: SQLFragment
            switch relationship.storage {
            case .keyColumn(let column):
                query = "SELECT \(raw: pk) FROM \(identifier: source.tableName) WHERE \(KeyList.membership(SQLQuote.identifier(column), chunk, dialect))"
            case .inverseKeyColumn(let table, let column):
                query = "SELECT \(identifier: column) FROM \(identifier: table) WHERE \(KeyList.membership(pk, chunk, dialect)) AND \(identifier: column) IS NOT NULL"
            case .joinTable(let table, let ownColumn, let otherColumn):
                query = "SELECT \(identifier: ownColumn) FROM \(identifier: table) WHERE \(KeyList.membership(SQLQuote.identifier(otherColumn), chunk, dialect))"
            }
            for row in try connection().rows(query.sql, query.bindings) {
                if case .integer(let key)? = row.first { found.append(key) }
            }
        }
        return found
    }

    /// The models of the judged keys: registered models with unsaved changes as they are in
    /// memory, the others read (or refreshed) from the store.
    private func judgedModels(_ keys: Set<Int64>, entity: EntitySchema) throws -> [ModelObject] {
        var result: [ModelObject] = []
        var read: [Int64] = []
        for key in keys {
            if let object = registered[entity.hierarchyIndex][key], object.hasChanges {
                result.append(object)
            } else {
                read.append(key)
            }
        }
        return result + (try models(forKeys: read, entity: entity).values)
    }

    /// The models of `entity`'s hierarchy with the given keys, read in chunks (registered models
    /// are refreshed from their rows as any fetch does), by key; rows that are gone, and models
    /// deleted in the context (unless `includeDeleted`), are left out.
    func models<C: Collection<Int64>>(forKeys keys: C, entity: EntitySchema, includeDeleted: Bool = false) throws -> [Int64: ModelObject] {
        var result: [Int64: ModelObject] = [:]
        let pk = SQLQuote.identifier(StorageNames.primaryKey)
        for chunk in KeyList.chunks(keys) {
            let filter = KeyList.membership(pk, chunk, dialect)
            for object in try materialize(sql: entity.selectSQL + " WHERE " + filter.sql, bindings: filter.bindings, entity: entity,
                                          includeDeleted: includeDeleted) {
                if let rowID = object.rowID { result[rowID] = object }
            }
        }
        return result
    }

    // MARK: Merging

    /// The result of `plan` as keys: the stored query's rows in its order, with `view`'s matches
    /// merged in and its judged rows skipped, and the window applied. With `types`, each row's
    /// entity too (an index into the hierarchy root's `typeNames`).
    func resultKeys(_ plan: FetchPlan, view: PendingView?, types: Bool) throws -> ResultKeys {
        let entity = plan.entity
        let root = schema.entity(named: entity.baseName ?? entity.name) ?? entity
        let view = view ?? PendingView()
        let merging = !view.judgedKeys.isEmpty || !view.matches.isEmpty
        let values = !view.matches.isEmpty && !plan.terms.isEmpty
        var select = "SELECT \(plan.keyColumn)"
        if types { select += ", \(plan.table).\(SQLQuote.identifier(StorageNames.type))" }
        var query: SQLFragment = "\(raw: select)"
        if values { query = "\(query), \(SQLFragment.joined(plan.terms.map(\.value), separator: ", "))" }
        query = "\(query) FROM \(raw: plan.table)\(plan.whereClause())\(plan.orderBy)"
        if merging {
            // The judged rows may take places in the stored order: read enough past the window.
            if let limit = plan.limit {
                query = "\(query) LIMIT \(SQLFragment.parameter(.integer(Int64(plan.offset + limit + view.judgedKeys.count))))"
            }
        } else {
            query = "\(query)\(plan.window(dialect))"
        }
        let statement = try connection().statement(query.sql)
        statement.bind(query.bindings)
        defer { statement.reset() }

        var result = ResultKeys()
        // Without merging the query applied the window itself.
        var toSkip = merging ? plan.offset : 0
        let limit = merging ? plan.limit ?? Int.max : Int.max
        var next = 0
        let valueColumn: Int32 = types ? 2 : 1
        func emit(key: Int64, type: Int32, pending: ModelObject?) -> Bool {
            if toSkip > 0 {
                toSkip -= 1
                return true
            }
            if let pending { result.pending[result.keys.count] = pending }
            result.keys.append(key)
            if types { result.types.append(type) }
            return result.keys.count < limit
        }
        func typeIndex(of object: ModelObject) -> Int32 {
            Int32(object.entity.flatMap { root.typeNames.firstIndex(of: $0.name) } ?? 0)
        }
        var open = limit > 0
        while open, try statement.step() {
            let key = try statement.integer(at: 0)
            if merging && view.judgedKeys.contains(key) { continue }
            let type = types ? try rowType(statement, root) : 0
            if next < view.matches.count {
                let stored = values ? (0..<Int32(plan.terms.count)).map { statement.value(at: valueColumn + $0) } : []
                while open, next < view.matches.count,
                      goesBefore(view.matches[next], values ? view.matchValues[next] : [], stored: key, stored, plan.terms) {
                    let match = view.matches[next]
                    open = emit(key: match.rowID ?? 0, type: typeIndex(of: match), pending: match)
                    next += 1
                }
            }
            if open { open = emit(key: key, type: type, pending: nil) }
        }
        while open, next < view.matches.count {
            let match = view.matches[next]
            open = emit(key: match.rowID ?? 0, type: typeIndex(of: match), pending: match)
            next += 1
        }
        return result
    }

    /// The position of the row's type name in `root.typeNames`.
    private func rowType(_ statement: any StoreStatement, _ root: EntitySchema) throws -> Int32 {
        let name = statement.text(at: 1)
        guard let index = root.typeNames.firstIndex(of: name) else { throw ModelStoreError.unknownEntity(name) }
        return Int32(index)
    }

    /// Whether the in-memory match goes before the stored row (`key`, sort values `stored`).
    private func goesBefore(_ match: ModelObject, _ matchValues: [SQLValue], stored key: Int64, _ stored: [SQLValue], _ terms: [SortSQL.Term]) -> Bool {
        switch SortValueOrder.compare(matchValues, stored, terms: terms) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame:
            // Ties: by row key; a model not saved yet after every stored row.
            guard let rowID = match.rowID else { return false }
            return rowID < key
        }
    }

    // MARK: Counting

    /// `fetchCount` with pending changes: the stored count, less the judged rows SQL counted, plus
    /// the in-memory matches, then the window.
    func pendingCount(_ plan: FetchPlan, view: PendingView) throws -> Int {
        let pk = plan.keyColumn
        func count(_ extra: SQLFragment?) throws -> Int {
            let query: SQLFragment = "SELECT count(*) FROM \(raw: plan.table)\(plan.whereClause(and: extra))"
            guard case .integer(let count)? = try connection().rows(query.sql, query.bindings).first?.first else { return 0 }
            return Int(count)
        }
        var total = try count(nil)
        for chunk in KeyList.chunks(view.judgedKeys) {
            total -= try count(KeyList.membership(pk, chunk, dialect))
        }
        total += view.matches.count
        return min(max(0, total - plan.offset), plan.limit ?? Int.max)
    }
}

/// The order of sort values in their stored form, as the fetch's `ORDER BY` (and Foundation)
/// gives it: used to place in-memory matches among stored rows.
enum SortValueOrder {
    /// Compares two rows' values, term by term.
    static func compare(_ lhs: [SQLValue], _ rhs: [SQLValue], terms: [SortSQL.Term]) -> ComparisonResult {
        for (index, term) in terms.enumerated() where index < lhs.count && index < rhs.count {
            let left = lhs[index], right = rhs[index]
            switch (left.isNull, right.isNull) {
            case (true, true):
                continue
            case (true, false):
                return term.comparison.nilOrder == .forward ? .orderedAscending : .orderedDescending
            case (false, true):
                return term.comparison.nilOrder == .forward ? .orderedDescending : .orderedAscending
            case (false, false):
                let result = compareValues(left, right, term)
                if result == .orderedSame { continue }
                if term.comparison.valueOrder == .forward { return result }
                return result == .orderedAscending ? .orderedDescending : .orderedAscending
            }
        }
        return .orderedSame
    }

    /// Two non-NULL values of one term, forward.
    private static func compareValues(_ left: SQLValue, _ right: SQLValue, _ term: SortSQL.Term) -> ComparisonResult {
        switch (left, right) {
        case (.text(let a), .text(let b)):
            switch term.kind {
            case .decimal:
                return result(PredicateFunctions.compareDecimalTexts(a, b))
            case .string, .plain:
                // The order the collation of the fetch's `ORDER BY` runs (docs/Predicates.md, "Sorting").
                return (term.stringOrder ?? .lexical).compare(a, b)
            }
        case (.integer(let a), .integer(let b)):
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.real(let a), .real(let b)):
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.integer(let a), .real(let b)):
            return compareNumbers(Double(a), b)
        case (.real(let a), .integer(let b)):
            return compareNumbers(a, Double(b))
        case (.blob(let a), .blob(let b)):
            for (x, y) in zip(a, b) where x != y { return x < y ? .orderedAscending : .orderedDescending }
            return a.count == b.count ? .orderedSame : (a.count < b.count ? .orderedAscending : .orderedDescending)
        default:
            // Different storage classes: SQLite orders numbers, then text, then blobs.
            return rank(left) == rank(right) ? .orderedSame : (rank(left) < rank(right) ? .orderedAscending : .orderedDescending)
        }
    }

    private static func compareNumbers(_ a: Double, _ b: Double) -> ComparisonResult {
        a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }

    private static func result(_ order: Int32) -> ComparisonResult {
        order == 0 ? .orderedSame : (order < 0 ? .orderedAscending : .orderedDescending)
    }

    private static func rank(_ value: SQLValue) -> Int {
        switch value {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }
}

// MARK: The public fetches' planned paths

extension ModelContext {
    /// Translates `descriptor` and works out what pending changes do to it (when it includes them).
    func planned<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: EntitySchema) throws -> PlannedFetch {
        let plan = try plan(descriptor, entity: entity)
        let prefetching = try prefetchRelationships(descriptor.relationshipKeyPathsForPrefetching, entity: entity)
        let view = descriptor.includePendingChanges ? try pendingView(plan, predicate: descriptor.predicate) : nil
        return PlannedFetch(entity: entity, plan: plan, prefetching: prefetching, view: view)
    }

    /// `fetch` when something is pending, when the store's answer alone is asked for, or with
    /// prefetching.
    func fetchPlanned<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: EntitySchema, partial: PartialRow? = nil) throws -> [T] {
        let fetch = try planned(descriptor, entity: entity)
        let objects: [ModelObject]
        let owners: PrefetchOwners
        if fetch.merges {
            objects = try models(in: resultKeys(fetch.plan, view: fetch.view, types: false), entity: entity).compactMap { $0 }
            owners = .keys(objects.compactMap { $0.status == .inserted ? nil : $0.rowID })
        } else {
            let plan = fetch.plan
            let query = plan.rowsQuery(select: partial?.selectSQL ?? entity.selectSQL, dialect: dialect)
            objects = try materialize(sql: query.sql, bindings: query.bindings, entity: entity, includeDeleted: !descriptor.includePendingChanges,
                                      partial: partial)
            owners = .query(plan)
        }
        try prefetch(fetch.prefetching, of: objects, owners: owners)
        return objects.reinterpreted(as: T.self)
    }

    /// The models at the positions of `keys` (all, or those in `range`), stored rows read by key
    /// in chunks. A row deleted since the keys were read has no model: nil at its position.
    func models(in keys: ResultKeys, range: Range<Int>? = nil, entity: EntitySchema, includeDeleted: Bool = false) throws -> [ModelObject?] {
        let range = range ?? keys.keys.indices
        let wanted = range.lazy.filter { keys.pending[$0] == nil }.map { keys.keys[$0] }
        let stored = try models(forKeys: wanted, entity: entity, includeDeleted: includeDeleted)
        return range.map { keys.pending[$0] ?? stored[keys.keys[$0]] }
    }

    /// `fetchCount` with something pending: nil when nothing pending changes the stored count.
    func pendingCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: EntitySchema) throws -> Int? {
        var unsorted = descriptor
        unsorted.sortBy = []
        let plan = try plan(unsorted, entity: entity)
        guard let view = try pendingView(plan, predicate: descriptor.predicate),
              !view.judgedKeys.isEmpty || !view.matches.isEmpty else { return nil }
        return try pendingCount(plan, view: view)
    }

    /// `fetchIdentifiers`: keys and types from the stored query, pending changes merged in.
    func identifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: EntitySchema) throws -> [PersistentIdentifier] {
        let fetch = try planned(descriptor, entity: entity)
        let keys = try resultKeys(fetch.plan, view: fetch.view, types: true)
        let root = schema.entity(named: entity.baseName ?? entity.name) ?? entity
        // Each type's names interned once (interning takes a lock and hashes the names).
        var names = [IdentifierNames?](repeating: nil, count: root.typeNames.count)
        return keys.keys.indices.map { position in
            if let object = keys.pending[position] { return object.persistentModelID }
            let type = Int(keys.types[position])
            let typeNames = names[type] ?? IdentifierNames.interned(store: container.storeIdentifier, entityName: root.typeNames[type])
            names[type] = typeNames
            return PersistentIdentifier(names: typeNames, rowID: keys.keys[position])
        }
    }
}

/// A fetch descriptor planned: its SQL, its prefetched relationships, and what the context's
/// pending changes do to it.
struct PlannedFetch {
    let entity: EntitySchema
    let plan: FetchPlan
    let prefetching: [(relationship: RelationshipSchema, slot: Int)]
    /// Nil when pending changes are not included or cannot change the answer.
    let view: PendingView?

    /// Whether pending changes must be merged into the stored query's answer.
    var merges: Bool { view.map { !$0.judgedKeys.isEmpty || !$0.matches.isEmpty } ?? false }
}
