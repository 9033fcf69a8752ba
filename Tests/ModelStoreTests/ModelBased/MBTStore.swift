import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

// The real side of the model-based tester: the steps run on a store through the generated
// Warehouse classes (Fixtures/Warehouse.model.swift), and what the context shows is written the
// way MBTReference.dump writes its states.

/// The error a throwing transaction block throws.
struct MBTBlockError: Error {}

final class MBTStore {
    let kind: StoreKind
    let knownBugs: MBTKnownBugs
    private let store: TestStore
    private var container: ModelContainer
    private(set) var context: ModelContext
    /// Each saved serial's identifier (as the dump after its last save saw it).
    private var identifiers: [Int: PersistentIdentifier] = [:]
    /// The serial an identifier was last seen with.
    private var serials: [PersistentIdentifier: Int] = [:]
    /// Another store of the same schema with one saved warehouse (issue #26 item 4).
    private var twin: (store: TestStore, container: ModelContainer, identifier: PersistentIdentifier)?

    init(_ kind: StoreKind, knownBugs: MBTKnownBugs) throws {
        self.kind = kind
        self.knownBugs = knownBugs
        store = try TestStore(kind)
        container = try store.container(for: WarehouseStore.schema)
        context = ModelContext(container)
    }

    // MARK: Finding models

    private func one<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, _ serial: Int) throws -> T {
        let found = try context.fetch(descriptor)
        guard found.count == 1 else { throw MBTMismatch("serial \(serial): \(found.count) models found instead of one") }
        return found[0]
    }
    func warehouse(_ s: Int) throws -> Warehouse { try one(FetchDescriptor<Warehouse>(predicate: #Predicate { $0.serial == s }), s) }
    func crate(_ s: Int) throws -> Crate { try one(FetchDescriptor<Crate>(predicate: #Predicate { $0.serial == s }), s) }
    func lamp(_ s: Int) throws -> Lamp { try one(FetchDescriptor<Lamp>(predicate: #Predicate { $0.serial == s }), s) }
    func label(_ s: Int) throws -> Label { try one(FetchDescriptor<Label>(predicate: #Predicate { $0.serial == s }), s) }
    func worker(_ s: Int) throws -> Worker { try one(FetchDescriptor<Worker>(predicate: #Predicate { $0.serial == s }), s) }

    /// The model with this serial, whatever its entity (`kind` from the reference).
    func model(_ serial: Int, _ entity: MBTEntity) throws -> any PersistentModel {
        switch entity {
        case .warehouse: return try warehouse(serial)
        case .crate, .bigCrate: return try crate(serial)
        case .lamp: return try lamp(serial)
        case .label: return try label(serial)
        case .worker: return try worker(serial)
        }
    }

    // MARK: Steps

    /// Runs `step` (one the reference applies); `reference` is the state before it (for entities).
    func perform(_ step: MBTStep, reference: MBTReference) -> MBTOutcome {
        do {
            return try run(step, reference: reference)
        } catch let error as ModelStoreError {
            if case .deleteDenied = error { return .deleteDenied }
            if step.isQuery { return .modelStoreError("\(error)") }
            return .error("\(error)")
        } catch is MBTBlockError {
            return .blockThrew
        } catch let error as MBTMismatch {
            return .error(error.message)
        } catch {
            return .error("\(type(of: error)): \(error)")
        }
    }

    private func run(_ step: MBTStep, reference: MBTReference) throws -> MBTOutcome {
        switch step {
        case let .insertWarehouse(serial, code, score, note):
            let model = Warehouse(serial: serial, code: code, score: score)
            model.note = note
            context.insert(model)
        case let .insertCrate(serial, title, weight, capacity):
            if let capacity {
                context.insert(BigCrate(serial: serial, title: title, weight: weight, capacity: capacity))
            } else {
                context.insert(Crate(serial: serial, title: title, weight: weight))
            }
        case let .insertLamp(serial, watts): context.insert(Lamp(serial: serial, watts: watts))
        case let .insertLabel(serial, text): context.insert(Label(serial: serial, text: text))
        case let .insertWorker(serial, handle, rank): context.insert(Worker(serial: serial, handle: handle, rank: rank))
        case let .delete(serial):
            context.delete(try model(serial, reference.pending.records[serial]!.entity))
        case let .moveCrate(serial, to, fromManySide):
            let crate = try crate(serial)
            if fromManySide {
                if let to { try warehouse(to).crates.append(crate) } else if let old = crate.warehouse { old.crates.removeAll { $0 === crate } }
            } else {
                crate.warehouse = try to.map(warehouse)
            }
        case let .moveLamp(serial, to, fromManySide):
            let lamp = try lamp(serial)
            if fromManySide {
                if let to { try warehouse(to).lamps.append(lamp) } else if let old = lamp.warehouse { old.lamps.removeAll { $0 === lamp } }
            } else {
                lamp.warehouse = try to.map(warehouse)
            }
        case let .stick(serial, on, fromManySide):
            let label = try label(serial)
            if fromManySide {
                if let on { try crate(on).labels.append(label) } else if let old = label.crate { old.labels.removeAll { $0 === label } }
            } else {
                label.crate = try on.map(crate)
            }
        case let .link(crateSerial, workerSerial, fromWorkerSide):
            let (crate, worker) = (try crate(crateSerial), try worker(workerSerial))
            if fromWorkerSide {
                if !worker.crates.contains(where: { $0 === crate }) { worker.crates.append(crate) }
            } else if !crate.workers.contains(where: { $0 === worker }) {
                crate.workers.append(worker)
            }
        case let .unlink(crateSerial, workerSerial, fromWorkerSide):
            let (crate, worker) = (try crate(crateSerial), try worker(workerSerial))
            if fromWorkerSide { worker.crates.removeAll { $0 === crate } } else { crate.workers.removeAll { $0 === worker } }
        case let .change(serial, change):
            switch change {
            case .code(let v): try warehouse(serial).code = v
            case .score(let v): try warehouse(serial).score = v
            case .note(let v): try warehouse(serial).note = v
            case .title(let v): try crate(serial).title = v
            case .weight(let v): try crate(serial).weight = v
            case .fragile(let v): try crate(serial).fragile = v
            case .capacity(let v):
                guard let big = try crate(serial) as? BigCrate else { throw MBTMismatch("serial \(serial) is no BigCrate") }
                big.capacity = v
            case .watts(let v): try lamp(serial).watts = v
            case .text(let v): try label(serial).text = v
            case .handle(let v): try worker(serial).handle = v
            case .rank(let v): try worker(serial).rank = v
            }
        case .save:
            try context.save()
        case .rollback:
            context.rollback()
        case .reopen:
            try reopen()
        case let .transaction(steps, throwing):
            var inner = reference
            var failure: MBTOutcome?
            try context.transaction {
                for step in steps where inner.applies(step) {
                    let outcome = try run(step, reference: inner)
                    if outcome != .done && failure == nil { failure = outcome }
                    _ = inner.apply(step)
                }
                if throwing { throw MBTBlockError() }
            }
            if let failure { return failure }
        case .fetch(let query):
            return try fetch(query).outcome(sorted: !query.sort.isEmpty)
        case .fetchCount(let query):
            return .count(try count(query))
        case let .enumerate(query, batchSize):
            return try enumerate(query, batchSize: batchSize, inserting: nil).outcome(sorted: !query.sort.isEmpty)
        case let .enumerateInserting(query, batchSize, first):
            return try enumerate(query, batchSize: batchSize, inserting: first).outcome(sorted: !query.sort.isEmpty)
        case .history:
            return .history(try history())
        case .fetchByIdentifiers(let serials):
            return .serialSet(try fetch(identifiersOf: serials, reference: reference).sorted())
        case .fetchForeignIdentifier:
            let twin = try twinStore()
            let ids = [twin.identifier]
            var found = try context.fetch(FetchDescriptor<Warehouse>(predicate: #Predicate { ids.contains($0.persistentModelID) })).map(\.serial)
            if let model = context.model(for: twin.identifier) as? Warehouse, !model.isDeleted { found.append(model.serial) }
            return .serialSet(found.sorted())
        }
        return .done
    }

    private func reopen() throws {
        context = ModelContext(try store.container(for: WarehouseStore.schema))
        container = context.container
    }

    // MARK: Queries

    private func fetch(_ q: MBTQuery) throws -> [Int] {
        switch q.entity {
        case .warehouse: return try context.fetch(Self.descriptor(q, Self.warehousePredicate(q.predicate), Self.warehouseSort)).map(\.serial)
        case .crate: return try context.fetch(Self.descriptor(q, Self.cratePredicate(q.predicate), Self.crateSort)).map(\.serial)
        case .bigCrate: return try context.fetch(Self.descriptor(q, Self.bigCratePredicate(q.predicate), Self.bigCrateSort)).map(\.serial)
        case .lamp: return try context.fetch(Self.descriptor(q, Self.lampPredicate(q.predicate), Self.lampSort)).map(\.serial)
        case .label: return try context.fetch(Self.descriptor(q, Self.labelPredicate(q.predicate), Self.labelSort)).map(\.serial)
        case .worker: return try context.fetch(Self.descriptor(q, Self.workerPredicate(q.predicate), Self.workerSort)).map(\.serial)
        }
    }

    private func count(_ q: MBTQuery) throws -> Int {
        switch q.entity {
        case .warehouse: return try context.fetchCount(Self.descriptor(q, Self.warehousePredicate(q.predicate), Self.warehouseSort))
        case .crate: return try context.fetchCount(Self.descriptor(q, Self.cratePredicate(q.predicate), Self.crateSort))
        case .bigCrate: return try context.fetchCount(Self.descriptor(q, Self.bigCratePredicate(q.predicate), Self.bigCrateSort))
        case .lamp: return try context.fetchCount(Self.descriptor(q, Self.lampPredicate(q.predicate), Self.lampSort))
        case .label: return try context.fetchCount(Self.descriptor(q, Self.labelPredicate(q.predicate), Self.labelSort))
        case .worker: return try context.fetchCount(Self.descriptor(q, Self.workerPredicate(q.predicate), Self.workerSort))
        }
    }

    private func enumerate(_ q: MBTQuery, batchSize: Int, inserting first: Int?) throws -> [Int] {
        var visited: [Int] = []
        func visit<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, _ serial: (T) -> Int) throws {
            try context.enumerate(descriptor, batchSize: batchSize) { model in
                visited.append(serial(model))
                if let first {
                    guard visited.count <= 1000 else { throw MBTMismatch("enumerate visited 1,000 models and went on") }
                    context.insert(Crate(serial: first + visited.count - 1, title: "e", weight: 0))
                    try context.save()
                }
            }
        }
        switch q.entity {
        case .warehouse: try visit(Self.descriptor(q, Self.warehousePredicate(q.predicate), Self.warehouseSort), \.serial)
        case .crate: try visit(Self.descriptor(q, Self.cratePredicate(q.predicate), Self.crateSort), \.serial)
        case .bigCrate: try visit(Self.descriptor(q, Self.bigCratePredicate(q.predicate), Self.bigCrateSort), \.serial)
        case .lamp: try visit(Self.descriptor(q, Self.lampPredicate(q.predicate), Self.lampSort), \.serial)
        case .label: try visit(Self.descriptor(q, Self.labelPredicate(q.predicate), Self.labelSort), \.serial)
        case .worker: try visit(Self.descriptor(q, Self.workerPredicate(q.predicate), Self.workerSort), \.serial)
        }
        return visited
    }

    private func fetch(identifiersOf wanted: [Int], reference: MBTReference) throws -> [Int] {
        let ids = wanted.compactMap { identifiers[$0] }
        guard ids.count == wanted.count else { throw MBTMismatch("no identifier kept for one of \(wanted)") }
        var found: [Int] = []
        found += try context.fetch(FetchDescriptor<Warehouse>(predicate: #Predicate { ids.contains($0.persistentModelID) })).map(\.serial)
        found += try context.fetch(FetchDescriptor<Crate>(predicate: #Predicate { ids.contains($0.persistentModelID) })).map(\.serial)
        found += try context.fetch(FetchDescriptor<Lamp>(predicate: #Predicate { ids.contains($0.persistentModelID) })).map(\.serial)
        found += try context.fetch(FetchDescriptor<Label>(predicate: #Predicate { ids.contains($0.persistentModelID) })).map(\.serial)
        found += try context.fetch(FetchDescriptor<Worker>(predicate: #Predicate { ids.contains($0.persistentModelID) })).map(\.serial)
        return found
    }

    private func twinStore() throws -> (store: TestStore, container: ModelContainer, identifier: PersistentIdentifier) {
        if let twin { return twin }
        let store = try TestStore(kind)
        let container = try store.container(for: WarehouseStore.schema)
        let context = ModelContext(container)
        let model = Warehouse(serial: -1, code: "twin", score: 0)
        context.insert(model)
        try context.save()
        twin = (store, container, model.persistentModelID)
        return twin!
    }

    /// Every transaction of the history that inserted or deleted, as the reference logs it.
    private func history() throws -> [String] {
        try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).compactMap { transaction in
            var entries: [String] = []
            for change in transaction.changes {
                let sign: String
                switch change {
                case .insert: sign = "+"
                case .delete: sign = "-"
                case .update: continue
                }
                let id = change.changedPersistentIdentifier
                if knownBugs.sqliteReusesDeletedKeys {
                    guard let serial = serials[id] else { throw MBTMismatch("history names \(id), never seen saved") }
                    entries.append("\(sign)\(id.entityName)#\(serial)")
                } else {
                    entries.append("\(sign)\(id.entityName)")
                }
            }
            let inserts = entries.filter { $0.hasPrefix("+") }.sorted(), deletes = entries.filter { $0.hasPrefix("-") }.sorted()
            return entries.isEmpty ? nil : (inserts + deletes).joined(separator: " ")
        }
    }

    // MARK: Dumps

    /// What `context` shows, one line per model by serial (as `MBTReference.dump`). To-many lists
    /// leave out models marked deleted (an unsaved deletion changes no relationship until save, and
    /// `.noAction` leaves a deleted label in its crate's loaded list).
    func dump(_ context: ModelContext) throws -> [String] {
        var lines: [(Int, String)] = []
        func list(_ serials: [(serial: Int, deleted: Bool)]) -> String { "\(serials.filter { !$0.deleted }.map(\.serial).sorted())" }
        for w in try context.fetch(FetchDescriptor<Warehouse>()) {
            lines.append((w.serial, "Warehouse#\(w.serial) code=\(w.code) score=\(w.score) note=\(w.note ?? "nil") crates=\(list(w.crates.map { ($0.serial, $0.isDeleted) })) lamps=\(list(w.lamps.map { ($0.serial, $0.isDeleted) }))"))
        }
        for c in try context.fetch(FetchDescriptor<Crate>()) {
            let big = (c as? BigCrate).map { " capacity=\($0.capacity)" } ?? ""
            let name = c is BigCrate ? "BigCrate" : "Crate"
            lines.append((c.serial, "\(name)#\(c.serial) title=\(c.title) weight=\(c.weight) fragile=\(c.fragile)\(big) warehouse=\(c.warehouse.map { String($0.serial) } ?? "nil") labels=\(list(c.labels.map { ($0.serial, $0.isDeleted) })) workers=\(list(c.workers.map { ($0.serial, $0.isDeleted) }))"))
        }
        for l in try context.fetch(FetchDescriptor<Lamp>()) {
            lines.append((l.serial, "Lamp#\(l.serial) watts=\(l.watts) warehouse=\(l.warehouse.map { String($0.serial) } ?? "nil")"))
        }
        for l in try context.fetch(FetchDescriptor<Label>()) {
            lines.append((l.serial, "Label#\(l.serial) text=\(l.text) crate=\(l.crate.map { String($0.serial) } ?? "nil")"))
        }
        for w in try context.fetch(FetchDescriptor<Worker>()) {
            lines.append((w.serial, "Worker#\(w.serial) handle=\(w.handle) rank=\(w.rank) crates=\(list(w.crates.map { ($0.serial, $0.isDeleted) }))"))
        }
        return lines.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// What the working context shows.
    func pendingDump() throws -> [String] { try dump(context) }

    /// What the store holds, through a fresh context; notes every saved model's identifier.
    func savedDump() throws -> [String] {
        let fresh = ModelContext(container)
        for model in try fresh.fetch(FetchDescriptor<Warehouse>()) { note(model.serial, model.persistentModelID) }
        for model in try fresh.fetch(FetchDescriptor<Crate>()) { note(model.serial, model.persistentModelID) }
        for model in try fresh.fetch(FetchDescriptor<Lamp>()) { note(model.serial, model.persistentModelID) }
        for model in try fresh.fetch(FetchDescriptor<Label>()) { note(model.serial, model.persistentModelID) }
        for model in try fresh.fetch(FetchDescriptor<Worker>()) { note(model.serial, model.persistentModelID) }
        return try dump(fresh)
    }

    private func note(_ serial: Int, _ id: PersistentIdentifier) {
        identifiers[serial] = id
        serials[id] = serial
    }

    // MARK: Descriptors

    static func descriptor<T: PersistentModel>(_ q: MBTQuery, _ predicate: Predicate<T>?, _ sort: (MBTSort?) -> SortDescriptor<T>?) -> FetchDescriptor<T> {
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        if !q.sort.isEmpty {
            descriptor.sortBy = q.sort.compactMap(sort) + [sort(nil)!]
        }
        descriptor.fetchLimit = q.limit
        descriptor.fetchOffset = q.offset
        return descriptor
    }

    static func warehousePredicate(_ p: MBTPredicate) -> Predicate<Warehouse>? {
        switch p {
        case .scoreAbove(let k): return #Predicate { $0.score > k }
        case .noteIsNil: return #Predicate { $0.note == nil }
        case .noteIs(let s): return #Predicate { $0.note == s }
        case .codeIs(let s): return #Predicate { $0.code == s }
        case .hasLamps: return #Predicate { !$0.lamps.isEmpty }
        case .moreCratesThan(let k): return #Predicate { $0.crates.count > k }
        default: return nil
        }
    }

    static func cratePredicate(_ p: MBTPredicate) -> Predicate<Crate>? {
        switch p {
        case .weightAbove(let k): return #Predicate<Crate> { $0.weight > k }
        case .titleIs(let s): return #Predicate<Crate> { $0.title == s }
        case .isFragile: return #Predicate<Crate> { $0.fragile }
        case .noWarehouse: return #Predicate<Crate> { $0.warehouse == nil }
        case .warehouseScoreAbove(let k): return #Predicate<Crate> { ($0.warehouse?.score ?? -1) > k }
        case .handledByRankAbove(let k): return #Predicate<Crate> { $0.workers.contains { $0.rank > k } }
        case .heavyAndSturdy(let k): return #Predicate<Crate> { $0.weight > k && !$0.fragile }
        case .lightOrTitled(let k, let s): return #Predicate<Crate> { $0.weight <= k || $0.title == s }
        case .titleContains(let s): return #Predicate<Crate> { $0.title.contains(s) }
        default: return nil
        }
    }

    static func bigCratePredicate(_ p: MBTPredicate) -> Predicate<BigCrate>? {
        switch p {
        case .weightAbove(let k): return #Predicate<BigCrate> { $0.weight > k }
        case .titleIs(let s): return #Predicate<BigCrate> { $0.title == s }
        case .isFragile: return #Predicate<BigCrate> { $0.fragile }
        case .noWarehouse: return #Predicate<BigCrate> { $0.warehouse == nil }
        case .warehouseScoreAbove(let k): return #Predicate<BigCrate> { ($0.warehouse?.score ?? -1) > k }
        case .handledByRankAbove(let k): return #Predicate<BigCrate> { $0.workers.contains { $0.rank > k } }
        case .heavyAndSturdy(let k): return #Predicate<BigCrate> { $0.weight > k && !$0.fragile }
        case .lightOrTitled(let k, let s): return #Predicate<BigCrate> { $0.weight <= k || $0.title == s }
        case .titleContains(let s): return #Predicate<BigCrate> { $0.title.contains(s) }
        case .capacityAbove(let k): return #Predicate<BigCrate> { $0.capacity > k }
        default: return nil
        }
    }

    static func lampPredicate(_ p: MBTPredicate) -> Predicate<Lamp>? {
        switch p {
        case .wattsAbove(let k): return #Predicate { $0.watts > k }
        case .inWarehouseCoded(let s): return #Predicate { $0.warehouse?.code == s }
        default: return nil
        }
    }

    static func labelPredicate(_ p: MBTPredicate) -> Predicate<Label>? {
        switch p {
        case .textIs(let s): return #Predicate { $0.text == s }
        case .onCrateHeavierThan(let k): return #Predicate { ($0.crate?.weight ?? -1) > k }
        case .unstuck: return #Predicate { $0.crate == nil }
        default: return nil
        }
    }

    static func workerPredicate(_ p: MBTPredicate) -> Predicate<Worker>? {
        switch p {
        case .rankAbove(let k): return #Predicate { $0.rank > k }
        case .handleIs(let s): return #Predicate { $0.handle == s }
        case .idle: return #Predicate { $0.crates.isEmpty }
        default: return nil
        }
    }

    static func warehouseSort(_ s: MBTSort?) -> SortDescriptor<Warehouse>? {
        guard let s else { return SortDescriptor(\.serial) }
        let order: SortOrder = s.reverse ? .reverse : .forward
        switch s.key {
        case .code: return SortDescriptor(\.code, order: order)
        case .score: return SortDescriptor(\.score, order: order)
        case .note: return SortDescriptor(\.note, order: order)
        default: return nil
        }
    }

    static func crateSort(_ s: MBTSort?) -> SortDescriptor<Crate>? {
        guard let s else { return SortDescriptor(\Crate.serial) }
        let order: SortOrder = s.reverse ? .reverse : .forward
        switch s.key {
        case .title: return SortDescriptor(\Crate.title, order: order)
        case .weight: return SortDescriptor(\Crate.weight, order: order)
        case .warehouseScore: return SortDescriptor(\Crate.warehouse?.score, order: order)
        case .warehouseCode: return SortDescriptor(\Crate.warehouse?.code, order: order)
        default: return nil
        }
    }

    static func bigCrateSort(_ s: MBTSort?) -> SortDescriptor<BigCrate>? {
        guard let s else { return SortDescriptor(\BigCrate.serial) }
        let order: SortOrder = s.reverse ? .reverse : .forward
        switch s.key {
        case .title: return SortDescriptor(\BigCrate.title, order: order)
        case .weight: return SortDescriptor(\BigCrate.weight, order: order)
        case .warehouseScore: return SortDescriptor(\BigCrate.warehouse?.score, order: order)
        case .warehouseCode: return SortDescriptor(\BigCrate.warehouse?.code, order: order)
        case .capacity: return SortDescriptor(\BigCrate.capacity, order: order)
        default: return nil
        }
    }

    static func lampSort(_ s: MBTSort?) -> SortDescriptor<Lamp>? {
        guard let s else { return SortDescriptor(\.serial) }
        let order: SortOrder = s.reverse ? .reverse : .forward
        switch s.key {
        case .watts: return SortDescriptor(\.watts, order: order)
        case .warehouseCode: return SortDescriptor(\.warehouse?.code, order: order)
        default: return nil
        }
    }

    static func labelSort(_ s: MBTSort?) -> SortDescriptor<Label>? {
        guard let s else { return SortDescriptor(\.serial) }
        let order: SortOrder = s.reverse ? .reverse : .forward
        switch s.key {
        case .text: return SortDescriptor(\.text, order: order)
        case .crateTitle: return SortDescriptor(\.crate?.title, order: order)
        default: return nil
        }
    }

    static func workerSort(_ s: MBTSort?) -> SortDescriptor<Worker>? {
        guard let s else { return SortDescriptor(\.serial) }
        let order: SortOrder = s.reverse ? .reverse : .forward
        switch s.key {
        case .handle: return SortDescriptor(\.handle, order: order)
        case .rank: return SortDescriptor(\.rank, order: order)
        default: return nil
        }
    }
}

/// A difference the tester noticed itself (not an error of the store).
struct MBTMismatch: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

extension MBTStep {
    /// Steps that only read.
    var isQuery: Bool {
        switch self {
        case .fetch, .fetchCount, .enumerate, .fetchByIdentifiers, .fetchForeignIdentifier, .history: return true
        default: return false
        }
    }
}

extension Array where Element == Int {
    func outcome(sorted: Bool) -> MBTOutcome { sorted ? .serials(self) : .serialSet(self.sorted()) }
}

