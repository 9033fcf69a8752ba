import Foundation

// The steps of the model-based tester (docs/Reliability.md, "Model-based testing of the runtime"):
// what a sequence does to a store of the Warehouse model (Fixtures/Warehouse.model). Models are
// named by their `serial`; a step naming a serial the reference does not hold (live) is skipped,
// by the reference and by the store alike, so any part of a sequence is a sequence too (what the
// shrinker needs). `description` is the step as Swift source, so a shrunk sequence prints as a
// ready-to-paste test.

/// An entity of the Warehouse model as a query names it (`crate` includes big crates).
enum MBTEntity: String, CaseIterable, Sendable {
    case warehouse, crate, bigCrate, lamp, label, worker
}

/// A change of one attribute (the attribute says which entity it belongs to).
enum MBTChange: Equatable, Sendable {
    case code(String), score(Int), note(String?)
    case title(String), weight(Int), fragile(Bool), capacity(Int)
    case watts(Int)
    case text(String)
    case handle(String), rank(Int)
}

/// A predicate of a query: each case is one `#Predicate` (MBTStore builds it) and one closure over
/// the reference's records (MBTReference evaluates it).
enum MBTPredicate: Equatable, Sendable {
    case all
    // Warehouse
    case scoreAbove(Int), noteIsNil, noteIs(String), codeIs(String), hasLamps, moreCratesThan(Int)
    // Crate (and BigCrate)
    case weightAbove(Int), titleIs(String), isFragile, noWarehouse, warehouseScoreAbove(Int)
    case handledByRankAbove(Int), heavyAndSturdy(Int), lightOrTitled(Int, String), titleContains(String)
    // BigCrate
    case capacityAbove(Int)
    // Lamp
    case wattsAbove(Int), inWarehouseCoded(String)
    // Label
    case textIs(String), onCrateHeavierThan(Int), unstuck
    // Worker
    case rankAbove(Int), handleIs(String), idle

    /// The entities the predicate is written for.
    var entities: [MBTEntity] {
        switch self {
        case .all: return MBTEntity.allCases
        case .scoreAbove, .noteIsNil, .noteIs, .codeIs, .hasLamps, .moreCratesThan: return [.warehouse]
        case .weightAbove, .titleIs, .isFragile, .noWarehouse, .warehouseScoreAbove, .handledByRankAbove,
             .heavyAndSturdy, .lightOrTitled, .titleContains: return [.crate, .bigCrate]
        case .capacityAbove: return [.bigCrate]
        case .wattsAbove, .inWarehouseCoded: return [.lamp]
        case .textIs, .onCrateHeavierThan, .unstuck: return [.label]
        case .rankAbove, .handleIs, .idle: return [.worker]
        }
    }
}

/// A sort key (then `serial`, always, so every order is total).
enum MBTSortKey: Equatable, Sendable {
    case code, score, note, title, weight, capacity, watts, text, handle, rank, warehouseScore, warehouseCode, crateTitle

    var entities: [MBTEntity] {
        switch self {
        case .code, .score, .note: return [.warehouse]
        case .title, .weight: return [.crate, .bigCrate]
        case .capacity: return [.bigCrate]
        case .warehouseScore: return [.crate, .bigCrate]
        case .warehouseCode: return [.crate, .bigCrate, .lamp]
        case .watts: return [.lamp]
        case .text: return [.label]
        case .crateTitle: return [.label]
        case .handle, .rank: return [.worker]
        }
    }
}

struct MBTSort: Equatable, Sendable, CustomStringConvertible {
    var key: MBTSortKey
    var reverse: Bool

    init(_ key: MBTSortKey, reverse: Bool = false) {
        self.key = key
        self.reverse = reverse
    }

    var description: String { reverse ? ".init(.\(key), reverse: true)" : ".init(.\(key))" }
}

/// A fetch: entity, predicate, sort (empty: unsorted, compared as a set), limit and offset (only
/// with a sort).
struct MBTQuery: Equatable, Sendable, CustomStringConvertible {
    var entity: MBTEntity
    var predicate: MBTPredicate = .all
    var sort: [MBTSort] = []
    var limit: Int?
    var offset: Int?

    init(_ entity: MBTEntity, predicate: MBTPredicate = .all, sort: [MBTSort] = [], limit: Int? = nil, offset: Int? = nil) {
        self.entity = entity
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    var description: String {
        var parts = [".\(entity)"]
        if predicate != .all { parts.append("predicate: \(swiftLiteral(predicate))") }
        if !sort.isEmpty { parts.append("sort: [\(sort.map(\.description).joined(separator: ", "))]") }
        if let limit { parts.append("limit: \(limit)") }
        if let offset { parts.append("offset: \(offset)") }
        return ".init(\(parts.joined(separator: ", ")))"
    }
}

/// One step of a sequence.
indirect enum MBTStep: Equatable, Sendable, CustomStringConvertible {
    case insertWarehouse(serial: Int, code: String, score: Int, note: String?)
    /// A `BigCrate` when `capacity` is not nil.
    case insertCrate(serial: Int, title: String, weight: Int, capacity: Int?)
    case insertLamp(serial: Int, watts: Int)
    case insertLabel(serial: Int, text: String)
    case insertWorker(serial: Int, handle: String, rank: Int)
    /// `context.delete` (the delete rules run at save: Warehouse.crates .cascade, Warehouse.lamps
    /// .deny, Label.crate .noAction, the others .nullify).
    case delete(serial: Int)
    /// `crate.warehouse = …` (to-one side) or `warehouse.crates.append(crate)` / removal (to-many side).
    case moveCrate(serial: Int, to: Int?, fromManySide: Bool)
    /// `lamp.warehouse = …`, or through `warehouse.lamps`.
    case moveLamp(serial: Int, to: Int?, fromManySide: Bool)
    /// `label.crate = …`, or through `crate.labels`.
    case stick(label: Int, on: Int?, fromManySide: Bool)
    /// Many-to-many: `crate.workers` or `worker.crates` gains (or loses) the other.
    case link(crate: Int, worker: Int, fromWorkerSide: Bool)
    case unlink(crate: Int, worker: Int, fromWorkerSide: Bool)
    case change(serial: Int, MBTChange)
    case save
    case rollback
    /// `context.transaction { steps; if throwing { throw } }`.
    case transaction([MBTStep], throwing: Bool)
    case fetch(MBTQuery)
    case fetchCount(MBTQuery)
    case enumerate(MBTQuery, batchSize: Int)
    /// Known bug, issue #26 item 2: an unsorted `enumerate` whose block inserts a crate (serials
    /// from `firstSerial`) and saves, once per visit.
    case enumerateInserting(MBTQuery, batchSize: Int, firstSerial: Int)
    /// `fetchHistory`: every transaction, compared by what each inserted and deleted.
    case history
    /// The identifiers of these serials (taken when each was last saved), in `ids.contains($0.persistentModelID)`.
    /// Deleted ones find nothing (issue #26 item 3 when a key was reused).
    case fetchByIdentifiers(serials: [Int])
    /// Known bug, issue #26 item 4: the identifier of a row of another store of this schema finds nothing here.
    case fetchForeignIdentifier
    /// Drops the context and the container and opens the store again (unsaved changes are gone).
    case reopen

    var description: String {
        switch self {
        case let .insertWarehouse(serial, code, score, note):
            return ".insertWarehouse(serial: \(serial), code: \(swiftLiteral(code)), score: \(score), note: \(swiftLiteral(note)))"
        case let .insertCrate(serial, title, weight, capacity):
            return ".insertCrate(serial: \(serial), title: \(swiftLiteral(title)), weight: \(weight), capacity: \(capacity.map(String.init) ?? "nil"))"
        case let .insertLamp(serial, watts): return ".insertLamp(serial: \(serial), watts: \(watts))"
        case let .insertLabel(serial, text): return ".insertLabel(serial: \(serial), text: \(swiftLiteral(text)))"
        case let .insertWorker(serial, handle, rank):
            return ".insertWorker(serial: \(serial), handle: \(swiftLiteral(handle)), rank: \(rank))"
        case let .delete(serial): return ".delete(serial: \(serial))"
        case let .moveCrate(serial, to, many): return ".moveCrate(serial: \(serial), to: \(to.map(String.init) ?? "nil"), fromManySide: \(many))"
        case let .moveLamp(serial, to, many): return ".moveLamp(serial: \(serial), to: \(to.map(String.init) ?? "nil"), fromManySide: \(many))"
        case let .stick(label, on, many): return ".stick(label: \(label), on: \(on.map(String.init) ?? "nil"), fromManySide: \(many))"
        case let .link(crate, worker, side): return ".link(crate: \(crate), worker: \(worker), fromWorkerSide: \(side))"
        case let .unlink(crate, worker, side): return ".unlink(crate: \(crate), worker: \(worker), fromWorkerSide: \(side))"
        case let .change(serial, change): return ".change(serial: \(serial), \(swiftLiteral(change)))"
        case .save: return ".save"
        case .rollback: return ".rollback"
        case let .transaction(steps, throwing):
            return ".transaction([\(steps.map(\.description).joined(separator: ", "))], throwing: \(throwing))"
        case let .fetch(query): return ".fetch(\(query))"
        case let .fetchCount(query): return ".fetchCount(\(query))"
        case let .enumerate(query, batchSize): return ".enumerate(\(query), batchSize: \(batchSize))"
        case let .enumerateInserting(query, batchSize, first):
            return ".enumerateInserting(\(query), batchSize: \(batchSize), firstSerial: \(first))"
        case .history: return ".history"
        case let .fetchByIdentifiers(serials): return ".fetchByIdentifiers(serials: \(serials))"
        case .fetchForeignIdentifier: return ".fetchForeignIdentifier"
        case .reopen: return ".reopen"
        }
    }
}

/// A string as a Swift literal.
func swiftLiteral(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case _ where scalar.value < 0x20 || scalar.value > 0x7E: result += "\\u{\(String(scalar.value, radix: 16))}"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

func swiftLiteral(_ text: String?) -> String { text.map { swiftLiteral($0) } ?? "nil" }

/// An enum value with its payload as Swift source (`.noteIs("n1")`, `.lightOrTitled(2, "t0")`).
func swiftLiteral<T>(_ value: T) -> String {
    let mirror = Mirror(reflecting: value)
    guard let child = mirror.children.first, let label = child.label else { return ".\(value)" }
    let payload = Mirror(reflecting: child.value)
    func literal(_ any: Any) -> String {
        if let text = any as? String { return swiftLiteral(text) }
        if let optional = any as? String? { return swiftLiteral(optional) }
        return "\(any)"
    }
    if payload.displayStyle == .tuple {
        return ".\(label)(\(payload.children.map { literal($0.value) }.joined(separator: ", ")))"
    }
    if payload.displayStyle == .optional {
        if let inner = payload.children.first { return ".\(label)(\(literal(inner.value)))" }
        return ".\(label)(nil)"
    }
    return ".\(label)(\(literal(child.value)))"
}
