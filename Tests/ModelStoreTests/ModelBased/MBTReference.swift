import Foundation

// The reference of the model-based tester: the Warehouse model as plain values, stating what every
// step must give (docs/Reliability.md, "Model-based testing of the runtime"). Two states: `saved`
// (what the store holds) and `pending` (what the context shows: saved plus unsaved inserts, changes
// and deletions). Relationships are kept on one side (to-one pointers, many-to-many pairs); the
// to-many sides are derived.

/// The bugs of issue #26 the tester can exercise but does not by default (their fixes come from
/// other work): each switch names its item. `MODELSTORE_MBT_KNOWN_BUGS=1,2,3,4,12` (or `all`)
/// turns them on.
struct MBTKnownBugs: Equatable, Sendable {
    /// Item 1: a throwing `transaction` block rolls back changes made before it. Off: a throwing
    /// transaction is only tried with nothing pending.
    var transactionRollsBackEarlierChanges = false
    /// Item 2: `enumerate` without a sort visits rows inserted (and saved) during it. Off: no
    /// `enumerateInserting` step.
    var enumerateVisitsInsertedRows = false
    /// Item 3 (fixed): SQLite reused the largest deleted key. Off: `fetchByIdentifiers` asks only
    /// for live serials, and history is compared by counts (an identifier may name two rows in turn).
    var sqliteReusesDeletedKeys = false
    /// Item 4 (fixed): identifiers carried no store identity. Off: no `fetchForeignIdentifier` step.
    var identifiersWithoutStore = false
    /// Item 12: negative `fetchLimit`/`fetchOffset`. Off: never negative.
    var negativeLimitOffset = false
    /// Found by this tester, fixed (ModelBasedTests.deleteAndReinsertOfAUniqueValue): a stored
    /// model deleted and a new one with its unique value inserted in the same save lost the new
    /// one (the insert upserted onto the old row, which the save then deleted). Off: no such pair
    /// in one save. `MODELSTORE_MBT_KNOWN_BUGS=reinsert` turns it on.
    var deleteAndReinsertLosesTheNewModel = false

    static let none = MBTKnownBugs()
    static let all = MBTKnownBugs(transactionRollsBackEarlierChanges: true, enumerateVisitsInsertedRows: true,
                                  sqliteReusesDeletedKeys: true, identifiersWithoutStore: true, negativeLimitOffset: true,
                                  deleteAndReinsertLosesTheNewModel: true)

    /// The steps exercised when nothing is asked for: those of the fixed items 1, 2, 3, 4 and 12
    /// and of the delete-and-reinsert finding (the switches name the bug each step used to find).
    static let fixed = MBTKnownBugs(transactionRollsBackEarlierChanges: true, enumerateVisitsInsertedRows: true,
                                    sqliteReusesDeletedKeys: true, identifiersWithoutStore: true, negativeLimitOffset: true,
                                    deleteAndReinsertLosesTheNewModel: true)

    /// From `MODELSTORE_MBT_KNOWN_BUGS` (item numbers, comma-separated, or `all`); `fixed` when unset.
    static func fromEnvironment() -> MBTKnownBugs {
        guard let text = ProcessInfo.processInfo.environment["MODELSTORE_MBT_KNOWN_BUGS"] else { return .fixed }
        if text == "all" { return .all }
        let words = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let items = Set(words.compactMap { Int($0) })
        return MBTKnownBugs(transactionRollsBackEarlierChanges: items.contains(1), enumerateVisitsInsertedRows: items.contains(2),
                            sqliteReusesDeletedKeys: items.contains(3), identifiersWithoutStore: items.contains(4),
                            negativeLimitOffset: items.contains(12), deleteAndReinsertLosesTheNewModel: words.contains("reinsert"))
    }
}

/// One model as values (the fields of its entity are used, the others stay at their defaults).
struct MBTRecord: Equatable, Sendable {
    var entity: MBTEntity
    var serial: Int
    var code = "", score = 0, note: String? = nil
    var title = "", weight = 0, fragile = false, capacity = 0
    var watts = 0
    var text = ""
    var handle = "", rank = 0
    /// Crate.warehouse, Lamp.warehouse.
    var warehouse: Int? = nil
    /// Label.crate.
    var crate: Int? = nil

    var isCrate: Bool { entity == .crate || entity == .bigCrate }

    /// The entity's name in the schema (as identifiers and history name it).
    var entityName: String {
        switch entity {
        case .warehouse: return "Warehouse"
        case .crate: return "Crate"
        case .bigCrate: return "BigCrate"
        case .lamp: return "Lamp"
        case .label: return "Label"
        case .worker: return "Worker"
        }
    }

    /// Whether a query of `entity` returns this model.
    func isFound(by entity: MBTEntity) -> Bool {
        entity == self.entity || (entity == .crate && self.entity == .bigCrate)
    }
}

/// A many-to-many pair (Crate.workers / Worker.crates).
struct MBTLink: Hashable, Sendable {
    var crate: Int
    var worker: Int
}

struct MBTState: Equatable, Sendable {
    var records: [Int: MBTRecord] = [:]
    var links: Set<MBTLink> = []
}

/// What a step gives: the reference's expectation, or what the store did.
enum MBTOutcome: Equatable, Sendable, CustomStringConvertible {
    static func == (a: MBTOutcome, b: MBTOutcome) -> Bool {
        switch (a, b) {
        case (.modelStoreError, .modelStoreError): return true
        case (.done, .done), (.deleteDenied, .deleteDenied), (.blockThrew, .blockThrew): return true
        case let (.serials(x), .serials(y)), let (.serialSet(x), .serialSet(y)): return x == y
        case let (.count(x), .count(y)): return x == y
        case let (.history(x), .history(y)): return x == y
        case let (.error(x), .error(y)): return x == y
        default: return false
        }
    }

    case done
    /// `save` (or a transaction's) threw `deleteDenied`.
    case deleteDenied
    /// The transaction's block threw (the tester's own error came out).
    case blockThrew
    /// Models in order (a sorted fetch).
    case serials([Int])
    /// Models in no particular order (an unsorted fetch), sorted here.
    case serialSet([Int])
    case count(Int)
    /// History: per transaction, its inserts and deletes.
    case history([String])
    /// The call threw a `ModelStoreError` (a negative limit, issue #26 item 12); which one is
    /// shown, not compared.
    case modelStoreError(String)
    /// Anything else the store threw.
    case error(String)

    var description: String {
        switch self {
        case .done: return "done"
        case .deleteDenied: return "deleteDenied"
        case .blockThrew: return "the block's error"
        case .serials(let s): return "serials \(s)"
        case .serialSet(let s): return "serials (any order) \(s)"
        case .count(let n): return "count \(n)"
        case .history(let h): return "history \(h)"
        case .modelStoreError(let e): return "a ModelStoreError \(e)"
        case .error(let e): return "error: \(e)"
        }
    }
}

struct MBTReference {
    let knownBugs: MBTKnownBugs
    var saved = MBTState()
    var pending = MBTState()
    /// Unsaved inserts, in insertion order.
    var inserted: [Int] = []
    /// Unsaved deletions.
    var deleted: Set<Int> = []
    /// Per save that inserted or deleted: "+Crate#3 -Lamp#5" (serial mode) or "+Crate -Lamp" (counts).
    var log: [String] = []
    /// Serials that were saved and later deleted (their identifiers find nothing).
    var gone: Set<Int> = []
    /// Stored models whose row a new model took over (an upsert), by the serial that took it:
    /// the row keeps its key, so the stored model's identifier names the row, now the winner's.
    var takenOverBy: [Int: Int] = [:]

    /// The serial whose row `serial`'s identifier names now (itself, unless its row was taken over).
    func rowOwner(_ serial: Int) -> Int {
        var current = serial
        while let next = takenOverBy[current], next != current { current = next }
        return current
    }

    init(knownBugs: MBTKnownBugs) { self.knownBugs = knownBugs }

    // MARK: Views

    func isLive(_ serial: Int?) -> Bool {
        guard let serial else { return true }
        return pending.records[serial] != nil && !deleted.contains(serial)
    }

    func live(_ serial: Int, _ test: (MBTRecord) -> Bool) -> Bool {
        guard let record = pending.records[serial], !deleted.contains(serial) else { return false }
        return test(record)
    }

    /// Whether the context has nothing unsaved (as the reference sees it).
    var isClean: Bool { inserted.isEmpty && deleted.isEmpty && pending == saved }

    /// Live serials in the pending view, sorted.
    var liveSerials: [Int] { pending.records.keys.filter { !deleted.contains($0) }.sorted() }

    /// The to-many sides, derived (pending-deleted models included: until save, a deletion changes
    /// no relationship).
    func crates(of warehouse: Int, in state: MBTState) -> [Int] {
        state.records.values.filter { $0.isCrate && $0.warehouse == warehouse }.map(\.serial).sorted()
    }
    func lamps(of warehouse: Int, in state: MBTState) -> [Int] {
        state.records.values.filter { $0.entity == .lamp && $0.warehouse == warehouse }.map(\.serial).sorted()
    }
    func labels(of crate: Int, in state: MBTState) -> [Int] {
        state.records.values.filter { $0.entity == .label && $0.crate == crate }.map(\.serial).sorted()
    }
    func workers(of crate: Int, in state: MBTState) -> [Int] {
        state.links.filter { $0.crate == crate }.map(\.worker).sorted()
    }
    func crates(ofWorker worker: Int, in state: MBTState) -> [Int] {
        state.links.filter { $0.worker == worker }.map(\.crate).sorted()
    }

    /// The dump of a state, as `MBTStore.dump` writes it: one line per model, by serial; to-many
    /// lists leave out models deleted (and not yet saved).
    func dump(_ state: MBTState, excluding deleted: Set<Int> = []) -> [String] {
        func list(_ serials: [Int]) -> String { "\(serials.filter { !deleted.contains($0) })" }
        return state.records.keys.filter { !deleted.contains($0) }.sorted().map { serial in
            let r = state.records[serial]!
            switch r.entity {
            case .warehouse:
                return "Warehouse#\(serial) code=\(r.code) score=\(r.score) note=\(r.note ?? "nil") crates=\(list(crates(of: serial, in: state))) lamps=\(list(lamps(of: serial, in: state)))"
            case .crate, .bigCrate:
                let big = r.entity == .bigCrate ? " capacity=\(r.capacity)" : ""
                return "\(r.entityName)#\(serial) title=\(r.title) weight=\(r.weight) fragile=\(r.fragile)\(big) warehouse=\(r.warehouse.map(String.init) ?? "nil") labels=\(list(labels(of: serial, in: state))) workers=\(list(workers(of: serial, in: state)))"
            case .lamp:
                return "Lamp#\(serial) watts=\(r.watts) warehouse=\(r.warehouse.map(String.init) ?? "nil")"
            case .label:
                return "Label#\(serial) text=\(r.text) crate=\(r.crate.map(String.init) ?? "nil")"
            case .worker:
                return "Worker#\(serial) handle=\(r.handle) rank=\(r.rank) crates=\(list(crates(ofWorker: serial, in: state)))"
            }
        }
    }

    var pendingDump: [String] { dump(pending, excluding: deleted) }
    var savedDump: [String] { dump(saved) }

    // MARK: Queries

    func matches(_ predicate: MBTPredicate, _ r: MBTRecord) -> Bool {
        let state = pending
        func warehouse() -> MBTRecord? { r.warehouse.flatMap { state.records[$0] } }
        switch predicate {
        case .all: return true
        case .scoreAbove(let k): return r.score > k
        case .noteIsNil: return r.note == nil
        case .noteIs(let s): return r.note == s
        case .codeIs(let s): return r.code == s
        case .hasLamps: return !lamps(of: r.serial, in: state).isEmpty
        case .moreCratesThan(let k): return crates(of: r.serial, in: state).count > k
        case .weightAbove(let k): return r.weight > k
        case .titleIs(let s): return r.title == s
        case .isFragile: return r.fragile
        case .noWarehouse: return r.warehouse == nil
        case .warehouseScoreAbove(let k): return (warehouse()?.score ?? -1) > k
        case .handledByRankAbove(let k): return workers(of: r.serial, in: state).contains { state.records[$0]!.rank > k }
        case .heavyAndSturdy(let k): return r.weight > k && !r.fragile
        case .lightOrTitled(let k, let s): return r.weight <= k || r.title == s
        case .titleContains(let s): return r.title.contains(s)
        case .capacityAbove(let k): return r.capacity > k
        case .wattsAbove(let k): return r.watts > k
        case .inWarehouseCoded(let s): return warehouse()?.code == s
        case .textIs(let s): return r.text == s
        case .onCrateHeavierThan(let k): return (r.crate.flatMap { state.records[$0] }?.weight ?? -1) > k
        case .unstuck: return r.crate == nil
        case .rankAbove(let k): return r.rank > k
        case .handleIs(let s): return r.handle == s
        case .idle: return crates(ofWorker: r.serial, in: state).isEmpty
        }
    }

    /// A sort key's value: nil sorts first in forward order (as the store's `SortDescriptor`s do).
    /// Text orders as SwiftData's `SortDescriptor` on a `String` without comparator does:
    /// `localizedStandardCompare` (docs/Predicates.md, "Sorting").
    enum Key: Equatable {
        case int(Int), text(String)

        static func < (lhs: Key, rhs: Key) -> Bool {
            switch (lhs, rhs) {
            case let (.int(x), .int(y)): return x < y
            case let (.text(x), .text(y)): return x.localizedStandardCompare(y) == .orderedAscending
            case (.int, .text): return true
            case (.text, .int): return false
            }
        }
    }
    func key(_ sort: MBTSortKey, _ r: MBTRecord) -> Key? {
        let state = pending
        switch sort {
        case .code: return .text(r.code)
        case .score: return .int(r.score)
        case .note: return r.note.map(Key.text)
        case .title: return .text(r.title)
        case .weight: return .int(r.weight)
        case .capacity: return .int(r.capacity)
        case .watts: return .int(r.watts)
        case .text: return .text(r.text)
        case .handle: return .text(r.handle)
        case .rank: return .int(r.rank)
        case .warehouseScore: return r.warehouse.flatMap { state.records[$0] }.map { .int($0.score) }
        case .warehouseCode: return r.warehouse.flatMap { state.records[$0] }.map { .text($0.code) }
        case .crateTitle: return r.crate.flatMap { state.records[$0] }.map { .text($0.title) }
        }
    }

    /// The query's result over the pending view.
    func result(_ query: MBTQuery) -> MBTOutcome {
        var found = pending.records.values.filter { !deleted.contains($0.serial) && $0.isFound(by: query.entity) && matches(query.predicate, $0) }
        if query.sort.isEmpty { return .serialSet(found.map(\.serial).sorted()) }
        if (query.limit ?? 0) < 0 || (query.offset ?? 0) < 0 { return .modelStoreError("") }
        found.sort { a, b in
            for sort in query.sort {
                let (x, y) = (key(sort.key, a), key(sort.key, b))
                if x == y { continue }
                let less: Bool
                switch (x, y) {
                case (nil, _): less = true
                case (_, nil): less = false
                case let (x?, y?): less = x < y
                }
                return sort.reverse ? !less : less
            }
            return a.serial < b.serial
        }
        var serials = found.map(\.serial)
        if let offset = query.offset { serials = Array(serials.dropFirst(offset)) }
        if let limit = query.limit { serials = Array(serials.prefix(limit)) }
        return .serials(serials)
    }

    // MARK: Steps

    /// The unique value of a warehouse or worker (nil for the other entities).
    static func uniqueValue(_ r: MBTRecord) -> String? {
        switch r.entity {
        case .warehouse: return "w:" + r.code
        case .worker: return "k:" + r.handle
        default: return nil
        }
    }

    /// Whether a saved model deleted in this save holds `value` (see `deleteAndReinsertLosesTheNewModel`).
    func deletedHolds(_ value: String) -> Bool {
        deleted.contains { serial in saved.records[serial].map(Self.uniqueValue) == value }
    }

    /// Whether a model inserted in this save holds the stored unique value of `serial`.
    func insertClaims(_ serial: Int) -> Bool {
        guard let value = saved.records[serial].flatMap(Self.uniqueValue) else { return false }
        return inserted.contains { pending.records[$0].flatMap(Self.uniqueValue) == value }
    }

    /// Whether `step` applies now (a skipped step changes nothing, on either side).
    func applies(_ step: MBTStep) -> Bool {
        let isNew = { (serial: Int) in pending.records[serial] == nil && saved.records[serial] == nil && !gone.contains(serial) }
        let reinsert = knownBugs.deleteAndReinsertLosesTheNewModel
        switch step {
        case let .insertWarehouse(serial, code, _, _):
            return isNew(serial) && (reinsert || !deletedHolds("w:" + code))
        case let .insertWorker(serial, handle, _):
            return isNew(serial) && (reinsert || !deletedHolds("k:" + handle))
        case let .insertCrate(serial, _, _, _), let .insertLamp(serial, _), let .insertLabel(serial, _):
            return isNew(serial)
        case let .delete(serial): return isLive(serial) && (reinsert || !insertClaims(serial))
        case let .moveCrate(serial, to, _):
            return live(serial) { $0.isCrate } && (to == nil || live(to!) { $0.entity == .warehouse })
                && (to != nil || pending.records[serial]?.warehouse.map { isLive($0) } ?? true)
        case let .moveLamp(serial, to, _):
            return live(serial) { $0.entity == .lamp } && (to == nil || live(to!) { $0.entity == .warehouse })
                && (to != nil || pending.records[serial]?.warehouse.map { isLive($0) } ?? true)
        case let .stick(label, on, _):
            return live(label) { $0.entity == .label } && (on == nil || live(on!) { $0.isCrate })
                && (on != nil || pending.records[label]?.crate.map { isLive($0) } ?? true)
        case let .link(crate, worker, _), let .unlink(crate, worker, _):
            return live(crate) { $0.isCrate } && live(worker) { $0.entity == .worker }
        case let .change(serial, change):
            guard let record = pending.records[serial], isLive(serial) else { return false }
            switch change {
            case .code, .score, .note: return record.entity == .warehouse
            case .title, .weight, .fragile: return record.isCrate
            case .capacity: return record.entity == .bigCrate
            case .watts: return record.entity == .lamp
            case .text: return record.entity == .label
            case .handle, .rank: return record.entity == .worker
            }
        case .save, .rollback, .history, .reopen, .fetch, .fetchCount, .enumerate: return true
        case let .transaction(_, throwing):
            return !throwing || knownBugs.transactionRollsBackEarlierChanges || isClean
        case let .enumerateInserting(_, _, first):
            return knownBugs.enumerateVisitsInsertedRows && isClean && (first..<first + 1000).allSatisfy(isNew)
        case .fetchByIdentifiers(let serials):
            return !serials.isEmpty && serials.allSatisfy { saved.records[$0] != nil || (knownBugs.sqliteReusesDeletedKeys && gone.contains($0)) }
        case .fetchForeignIdentifier: return knownBugs.identifiersWithoutStore
        }
    }

    /// Applies `step` (which applies) and states its outcome.
    mutating func apply(_ step: MBTStep) -> MBTOutcome {
        switch step {
        case let .insertWarehouse(serial, code, score, note):
            insert(MBTRecord(entity: .warehouse, serial: serial, code: code, score: score, note: note))
        case let .insertCrate(serial, title, weight, capacity):
            insert(MBTRecord(entity: capacity == nil ? .crate : .bigCrate, serial: serial, title: title, weight: weight, capacity: capacity ?? 0))
        case let .insertLamp(serial, watts): insert(MBTRecord(entity: .lamp, serial: serial, watts: watts))
        case let .insertLabel(serial, text): insert(MBTRecord(entity: .label, serial: serial, text: text))
        case let .insertWorker(serial, handle, rank): insert(MBTRecord(entity: .worker, serial: serial, handle: handle, rank: rank))
        case let .delete(serial):
            if let index = inserted.firstIndex(of: serial) {
                // A model inserted and deleted before a save is forgotten at once: no delete rule
                // runs (nothing was stored), and what pointed at it reads nil (docs/Reliability.md).
                inserted.remove(at: index)
                pending.records[serial] = nil
                for other in Array(pending.records.keys) {
                    if pending.records[other]!.warehouse == serial { pending.records[other]!.warehouse = nil }
                    if pending.records[other]!.crate == serial { pending.records[other]!.crate = nil }
                }
                pending.links = pending.links.filter { $0.crate != serial && $0.worker != serial }
            } else {
                deleted.insert(serial)
            }
        case let .moveCrate(serial, to, _), let .moveLamp(serial, to, _): pending.records[serial]!.warehouse = to
        case let .stick(label, on, _): pending.records[label]!.crate = on
        case let .link(crate, worker, _): pending.links.insert(MBTLink(crate: crate, worker: worker))
        case let .unlink(crate, worker, _): pending.links.remove(MBTLink(crate: crate, worker: worker))
        case let .change(serial, change):
            var r = pending.records[serial]!
            switch change {
            case .code(let v): r.code = v
            case .score(let v): r.score = v
            case .note(let v): r.note = v
            case .title(let v): r.title = v
            case .weight(let v): r.weight = v
            case .fragile(let v): r.fragile = v
            case .capacity(let v): r.capacity = v
            case .watts(let v): r.watts = v
            case .text(let v): r.text = v
            case .handle(let v): r.handle = v
            case .rank(let v): r.rank = v
            }
            pending.records[serial] = r
        case .save: return save()
        case .rollback: discardPending()
        case .reopen: discardPending()
        case let .transaction(steps, throwing):
            let before = (pending, inserted, deleted)
            for inner in steps where applies(inner) { _ = apply(inner) }
            if throwing {
                (pending, inserted, deleted) = before
                return .blockThrew
            }
            return save()
        case .fetch(let query): return result(query)
        case .fetchCount(let query):
            if case .serials(let s) = result(query) { return .count(s.count) }
            if case .serialSet(let s) = result(query) { return .count(s.count) }
            return result(query)
        case let .enumerate(query, _): return result(query)
        case let .enumerateInserting(query, _, first):
            let visits = result(query)
            guard case .serialSet(let serials) = visits else { return visits }
            for index in serials.indices {
                insert(MBTRecord(entity: .crate, serial: first + index, title: "e", weight: 0))
                _ = save()
            }
            return visits
        case .history: return .history(log)
        case .fetchByIdentifiers(let serials):
            // Unsaved deletions are left out, as by every fetch. An upsert is an update of the
            // stored row: the identifier of a stored model whose row a new model took finds the
            // row, now the new model's (docs/Reliability.md, "Model-based testing").
            return .serialSet(Set(serials.map(rowOwner).filter { saved.records[$0] != nil && isLive($0) }).sorted())
        case .fetchForeignIdentifier: return .serialSet([])
        }
        return .done
    }

    mutating func insert(_ record: MBTRecord) {
        pending.records[record.serial] = record
        inserted.append(record.serial)
    }

    mutating func discardPending() {
        pending = saved
        inserted = []
        deleted = []
    }

    /// `save()`: delete rules (cascade, deny), upserts on unique values, nullify, then the new saved state.
    mutating func save() -> MBTOutcome {
        var state = pending
        // Deleted: the deleted models, and what cascades from them (Warehouse.crates).
        var removed = deleted
        for serial in deleted where state.records[serial]?.entity == .warehouse {
            for crate in crates(of: serial, in: state) { removed.insert(crate) }
        }
        // Warehouse.lamps is .deny: a lamp (not deleted) hanging in a deleted warehouse stops the save.
        if state.records.values.contains(where: { $0.entity == .lamp && !removed.contains($0.serial) && $0.warehouse.map(removed.contains) == true }) {
            return .deleteDenied
        }
        // Upserts: a new model whose unique value is another's (a stored one, or a new one inserted
        // before it) takes that one's row; what pointed at the other now points at it.
        var takenOver: [Int: Int] = [:]  // loser → winner
        let newModels = inserted.filter { !removed.contains($0) }
        for entity in [MBTEntity.warehouse, .worker] {
            func value(_ r: MBTRecord) -> String { entity == .warehouse ? r.code : r.handle }
            var winners: [String: Int] = [:]
            for serial in newModels where state.records[serial]!.entity == entity { winners[value(state.records[serial]!)] = serial }
            for (unique, winner) in winners {
                let losers = state.records.values.filter {
                    $0.entity == entity && $0.serial != winner && !removed.contains($0.serial) && value($0) == unique
                }.map(\.serial)
                for loser in losers { takenOver[loser] = winner }
            }
        }
        for (loser, winner) in takenOver {
            // The row (and so its identifier, which history names) is now the winner's.
            if knownBugs.sqliteReusesDeletedKeys {
                log = log.map { entry in
                    let tokens = entry.split(separator: " ").map { token -> String in
                        token.hasSuffix("#\(loser)") ? String(token.dropLast("\(loser)".count)) + "\(winner)" : String(token)
                    }
                    return (tokens.filter { $0.hasPrefix("+") }.sorted() + tokens.filter { $0.hasPrefix("-") }.sorted()).joined(separator: " ")
                }
            }
            for serial in Array(state.records.keys) where state.records[serial]!.warehouse == loser { state.records[serial]!.warehouse = winner }
            state.links = Set(state.links.map { $0.worker == loser ? MBTLink(crate: $0.crate, worker: winner) : $0 })
            state.records[loser] = nil
        }
        // Nullify what pointed at a deleted model (Crate.warehouse, Lamp.warehouse, Label.crate, the pairs).
        for serial in Array(state.records.keys) {
            if let target = state.records[serial]!.warehouse, removed.contains(target) { state.records[serial]!.warehouse = nil }
            if let target = state.records[serial]!.crate, removed.contains(target) { state.records[serial]!.crate = nil }
        }
        state.links = state.links.filter { !removed.contains($0.crate) && !removed.contains($0.worker) }
        for serial in removed { state.records[serial] = nil }
        // History.
        let insertedNames = newModels.filter { takenOver[$0] == nil }.map { entry("+", pending.records[$0]!) }
        let deletedNames = removed.filter { saved.records[$0] != nil }.sorted().map { entry("-", saved.records[$0]!) }
        if !insertedNames.isEmpty || !deletedNames.isEmpty {
            log.append((insertedNames.sorted() + deletedNames.sorted()).joined(separator: " "))
        }
        for serial in removed where saved.records[serial] != nil { gone.insert(serial) }
        for (serial, winner) in takenOver where saved.records[serial] != nil {
            gone.insert(serial)
            takenOverBy[serial] = winner
        }
        saved = state
        discardPending()
        return .done
    }

    func entry(_ sign: String, _ r: MBTRecord) -> String {
        knownBugs.sqliteReusesDeletedKeys ? "\(sign)\(r.entityName)#\(r.serial)" : "\(sign)\(r.entityName)"
    }
}
