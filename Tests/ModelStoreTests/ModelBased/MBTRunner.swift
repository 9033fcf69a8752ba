import Foundation
import Testing
@testable import ModelStore

// Generation, execution and shrinking of the model-based tester's sequences
// (docs/Reliability.md, "Model-based testing of the runtime").

/// Random steps that fit the reference's current state (serials it holds, sometimes others).
struct MBTGenerator {
    var random: ReliabilityRandom
    let knownBugs: MBTKnownBugs
    private var nextSerial = 1
    private var fresh = 0

    init(seed: UInt64, knownBugs: MBTKnownBugs) {
        random = ReliabilityRandom(seed: seed)
        self.knownBugs = knownBugs
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0...items.count - 1)] }

    static let codes = ["w0", "w1", "w2", "w3"]
    static let handles = ["h0", "h1", "h2", "h3"]
    static let titles = ["t0", "t1", "T1", "té", ""]
    static let notes: [String?] = [nil, "n0", "n1", ""]
    static let texts = ["x0", "x1", "x2"]

    mutating func serial() -> Int {
        defer { nextSerial += 1 }
        return nextSerial
    }

    /// A value no model has had (unique attributes are changed only to these: two stored models
    /// never collide on an update; new models collide on purpose, from the small pools above).
    mutating func freshText(_ prefix: String) -> String {
        fresh += 1
        return "\(prefix)-\(fresh)"
    }

    func live(_ reference: MBTReference, _ test: (MBTRecord) -> Bool) -> [Int] {
        reference.liveSerials.filter { test(reference.pending.records[$0]!) }
    }

    mutating func insert() -> MBTStep {
        switch int(0...4) {
        case 0: return .insertWarehouse(serial: serial(), code: pick(Self.codes)!, score: int(-1...5), note: pick(Self.notes)!)
        case 1: return .insertCrate(serial: serial(), title: pick(Self.titles)!, weight: int(0...6), capacity: chance(0.35) ? int(0...9) : nil)
        case 2: return .insertLamp(serial: serial(), watts: int(0...4) * 25)
        case 3: return .insertLabel(serial: serial(), text: pick(Self.texts)!)
        default: return .insertWorker(serial: serial(), handle: pick(Self.handles)!, rank: int(0...5))
        }
    }

    /// A step that changes the context (what a transaction's block does).
    mutating func mutation(_ reference: MBTReference) -> MBTStep {
        let warehouses = live(reference) { $0.entity == .warehouse }
        let crates = live(reference) { $0.isCrate }
        let lamps = live(reference) { $0.entity == .lamp }
        let labels = live(reference) { $0.entity == .label }
        let workers = live(reference) { $0.entity == .worker }
        let all = reference.liveSerials
        let roll = int(0...99)
        // Keep the store small: when it holds many models, delete more.
        let deleteShare = all.count > 30 ? 40 : 12
        if roll < 30 || all.isEmpty { return insert() }
        if roll < 30 + deleteShare, let victim = pick(all) { return .delete(serial: victim) }
        switch int(0...9) {
        case 0, 1:
            if let crate = pick(crates) { return .moveCrate(serial: crate, to: chance(0.8) ? pick(warehouses) : nil, fromManySide: chance(0.5)) }
        case 2:
            if let lamp = pick(lamps) { return .moveLamp(serial: lamp, to: chance(0.7) ? pick(warehouses) : nil, fromManySide: chance(0.5)) }
        case 3:
            if let label = pick(labels) { return .stick(label: label, on: chance(0.8) ? pick(crates) : nil, fromManySide: chance(0.5)) }
        case 4, 5:
            if let crate = pick(crates), let worker = pick(workers) {
                return chance(0.7) ? .link(crate: crate, worker: worker, fromWorkerSide: chance(0.5))
                    : .unlink(crate: crate, worker: worker, fromWorkerSide: chance(0.5))
            }
        default:
            if let target = pick(all) { return .change(serial: target, change(for: reference.pending.records[target]!)) }
        }
        return insert()
    }

    mutating func change(for record: MBTRecord) -> MBTChange {
        switch record.entity {
        case .warehouse:
            switch int(0...2) {
            case 0: return .code(freshText("c"))
            case 1: return .score(int(-1...5))
            default: return .note(pick(Self.notes)!)
            }
        case .crate, .bigCrate:
            switch int(0...(record.entity == .bigCrate ? 3 : 2)) {
            case 0: return .title(pick(Self.titles)!)
            case 1: return .weight(int(0...6))
            case 2: return .fragile(chance(0.5))
            default: return .capacity(int(0...9))
            }
        case .lamp: return .watts(int(0...4) * 25)
        case .label: return .text(pick(Self.texts)!)
        case .worker: return chance(0.5) ? .handle(freshText("k")) : .rank(int(0...5))
        }
    }

    mutating func query() -> MBTQuery {
        let entity = pick(MBTEntity.allCases)!
        var query = MBTQuery(entity)
        if chance(0.8) {
            query.predicate = predicate(for: entity)
        }
        if chance(0.7) {
            let keys: [MBTSortKey] = [.code, .score, .note, .title, .weight, .capacity, .watts, .text, .handle, .rank,
                                      .warehouseScore, .warehouseCode, .crateTitle].filter { $0.entities.contains(entity) }
            for _ in 0..<int(1...2) {
                if let key = pick(keys) { query.sort.append(MBTSort(key, reverse: chance(0.4))) }
            }
            if chance(0.5) { query.limit = int(1...4) }
            if chance(0.4) { query.offset = int(0...3) }
            if knownBugs.negativeLimitOffset && chance(0.05) {
                if chance(0.5) { query.limit = -int(1...2) } else { query.offset = -int(1...2) }
            }
        }
        return query
    }

    mutating func predicate(for entity: MBTEntity) -> MBTPredicate {
        let k = int(-1...5), text: () -> String = { "" }
        _ = text
        let candidates: [MBTPredicate]
        switch entity {
        case .warehouse:
            candidates = [.scoreAbove(k), .noteIsNil, .noteIs(pick(Self.notes)! ?? "n0"), .codeIs(pick(Self.codes)!), .hasLamps, .moreCratesThan(int(0...2))]
        case .crate, .bigCrate:
            var list: [MBTPredicate] = [.weightAbove(k), .titleIs(pick(Self.titles)!), .isFragile, .noWarehouse, .warehouseScoreAbove(k),
                                        .handledByRankAbove(k), .heavyAndSturdy(k), .lightOrTitled(k, pick(Self.titles)!), .titleContains(chance(0.5) ? "t" : "1")]
            if entity == .bigCrate { list.append(.capacityAbove(int(0...9))) }
            candidates = list
        case .lamp: candidates = [.wattsAbove(int(0...4) * 25), .inWarehouseCoded(pick(Self.codes)!)]
        case .label: candidates = [.textIs(pick(Self.texts)!), .onCrateHeavierThan(k), .unstuck]
        case .worker: candidates = [.rankAbove(k), .handleIs(pick(Self.handles)!), .idle]
        }
        return pick(candidates)!
    }

    /// The next step of a sequence.
    mutating func step(_ reference: MBTReference) -> MBTStep {
        let roll = int(0...99)
        switch roll {
        case 0..<55: return mutation(reference)
        case 55..<66: return .save
        case 66..<69: return .rollback
        case 69..<71: return .reopen
        case 71..<77:
            var inner: [MBTStep] = []
            var scratch = reference
            for _ in 0..<int(1...4) {
                let step = mutation(scratch)
                inner.append(step)
                if scratch.applies(step) { _ = scratch.apply(step) }
            }
            return .transaction(inner, throwing: chance(0.3))
        case 77..<88: return .fetch(query())
        case 88..<92: return .fetchCount(query())
        case 92..<96: return .enumerate(query(), batchSize: int(1...4))
        case 96: return .history
        case 97:
            let saved = Array(reference.saved.records.keys).sorted()
            var wanted = (0..<int(1...3)).compactMap { _ in pick(saved) }
            if knownBugs.sqliteReusesDeletedKeys, let dead = pick(Array(reference.gone).sorted()) { wanted.append(dead) }
            return wanted.isEmpty ? .history : .fetchByIdentifiers(serials: Array(Set(wanted)).sorted())
        case 98:
            if knownBugs.enumerateVisitsInsertedRows {
                let first = nextSerial
                nextSerial += 1000
                return .enumerateInserting(MBTQuery(.crate), batchSize: int(1...3), firstSerial: first)
            }
            return .save
        default:
            return knownBugs.identifiersWithoutStore ? .fetchForeignIdentifier : .fetch(query())
        }
    }
}

/// Where a sequence and the reference parted.
struct MBTFailure: Error, CustomStringConvertible {
    /// The steps run (the failing one last).
    var steps: [MBTStep]
    var message: String
    var description: String { message }
}

enum MBTRunner {
    /// Runs `steps` on a fresh store of `kind`, checking each against the reference; nil when
    /// every step gave what the reference states.
    static func execute(_ steps: [MBTStep], on kind: StoreKind, knownBugs: MBTKnownBugs) throws -> MBTFailure? {
        var run = try Run(kind, knownBugs: knownBugs)
        for step in steps {
            if let failure = try run.step(step) { return failure }
        }
        return nil
    }

    /// One sequence as it runs.
    struct Run {
        var reference: MBTReference
        let store: MBTStore
        var done: [MBTStep] = []
        /// Steps the reference applied (a skipped step is not counted).
        var applied = 0

        init(_ kind: StoreKind, knownBugs: MBTKnownBugs) throws {
            reference = MBTReference(knownBugs: knownBugs)
            store = try MBTStore(kind, knownBugs: knownBugs)
        }

        mutating func step(_ step: MBTStep) throws -> MBTFailure? {
            guard reference.applies(step) else { return nil }
            done.append(step)
            applied += 1
            let before = reference
            let expected = reference.apply(step)
            let observed = store.perform(step, reference: before)
            if observed != expected {
                return MBTFailure(steps: done, message: "step \(done.count), \(step):\n  expected \(expected)\n  got      \(observed)")
            }
            if let difference = Self.compare(expected: reference.pendingDump, observed: try? store.pendingDump(), what: "the context") {
                return MBTFailure(steps: done, message: "after step \(done.count), \(step): \(difference)")
            }
            switch step {
            case .save, .transaction, .reopen, .rollback, .enumerateInserting:
                if let difference = Self.compare(expected: reference.savedDump, observed: try? store.savedDump(), what: "the store") {
                    return MBTFailure(steps: done, message: "after step \(done.count), \(step): \(difference)")
                }
            default:
                break
            }
            return nil
        }

        static func compare(expected: [String], observed: [String]?, what: String) -> String? {
            guard let observed else { return "\(what) could not be read" }
            if expected == observed { return nil }
            let missing = expected.filter { !observed.contains($0) }, extra = observed.filter { !expected.contains($0) }
            return "\(what) differs from the reference:\n  expected, not found: \(missing)\n  found, not expected: \(extra)"
        }
    }

    /// A random sequence of `count` steps from `seed`, generated as it runs; the failure if any.
    static func random(seed: UInt64, count: Int, on kind: StoreKind, knownBugs: MBTKnownBugs) throws -> (failure: MBTFailure?, applied: Int) {
        var generator = MBTGenerator(seed: seed, knownBugs: knownBugs)
        var run = try Run(kind, knownBugs: knownBugs)
        for _ in 0..<count {
            let step = generator.step(run.reference)
            if let failure = try run.step(step) { return (failure, run.applied) }
        }
        return (nil, run.applied)
    }

    /// The smallest sequence found that still fails (delta debugging over the steps, then over
    /// each transaction's block), with its failure.
    static func shrink(_ failure: MBTFailure, on kind: StoreKind, knownBugs: MBTKnownBugs) throws -> MBTFailure {
        var best = failure
        func fails(_ steps: [MBTStep]) throws -> Bool {
            guard let found = try execute(steps, on: kind, knownBugs: knownBugs) else { return false }
            best = found
            return true
        }
        var steps = failure.steps
        var chunks = 2
        while steps.count >= 2 {
            let size = (steps.count + chunks - 1) / chunks
            var reduced = false
            for start in stride(from: 0, to: steps.count, by: size) {
                var candidate = steps
                candidate.removeSubrange(start..<min(start + size, steps.count))
                if try fails(candidate) {
                    steps = best.steps
                    chunks = max(chunks - 1, 2)
                    reduced = true
                    break
                }
            }
            if !reduced {
                if size == 1 { break }
                chunks = min(chunks * 2, steps.count)
            }
        }
        // Each transaction's block, one step at a time; a throwing one without its throw.
        var index = 0
        while index < steps.count {
            if case let .transaction(inner, throwing) = steps[index] {
                var shorter = false
                for drop in inner.indices {
                    var candidate = steps
                    var block = inner
                    block.remove(at: drop)
                    candidate[index] = .transaction(block, throwing: throwing)
                    if try fails(candidate) { steps = best.steps; shorter = true; break }
                }
                if shorter { continue }
            }
            index += 1
        }
        _ = try fails(steps)
        return best
    }

    /// The failure as a Swift Testing test to paste into ModelBasedTests.
    static func testSource(_ failure: MBTFailure, name: String) -> String {
        var lines = ["@Test(arguments: StoreKind.allCases) func \(name)(_ kind: StoreKind) throws {",
                     "    // \(failure.message.split(separator: "\n").first ?? "")",
                     "    try Self.replay(["]
        lines += failure.steps.map { "        \($0)," }
        lines += ["    ], on: kind)", "}"]
        return lines.joined(separator: "\n")
    }
}
