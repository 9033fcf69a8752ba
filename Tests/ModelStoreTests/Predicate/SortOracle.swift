import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A key the sort oracle can sort on, and the ways a `SortDescriptor` can be made for it.
struct SortKey<T> {
    let name: String
    /// Makes a descriptor with the given variant.
    let make: (SortVariant) -> SortDescriptor<T>

    /// `SortDescriptor(keyPath, order:)` on a `Comparable` value (a `String` too: on Linux that
    /// is what `SortDescriptor(\.name)` is).
    static func value<V: Comparable>(_ name: String, _ keyPath: KeyPath<T, V> & Sendable) -> SortKey {
        SortKey(name: name) { variant in
            variant.apply(SortDescriptor(keyPath, order: variant.initialOrder))
        }
    }

    /// `SortDescriptor(keyPath, order:)` on an optional `Comparable` value.
    static func optional<V: Comparable>(_ name: String, _ keyPath: KeyPath<T, V?> & Sendable) -> SortKey {
        SortKey(name: name) { variant in
            variant.apply(SortDescriptor(keyPath, order: variant.initialOrder))
        }
    }

    /// A `String` key: `SortDescriptor(keyPath, order:)` (SwiftData's `.localizedStandard`), or
    /// with `comparator:` `.lexical`, `.localizedStandard` or `.localized` (the order given to the
    /// descriptor or carried by the comparator).
    static func string(_ name: String, _ keyPath: KeyPath<T, String> & Sendable) -> SortKey {
        SortKey(name: name) { variant in
            guard let comparator = variant.comparator else { return variant.apply(SortDescriptor(keyPath, order: variant.initialOrder)) }
            if variant.orderInComparator {
                return variant.apply(SortDescriptor(keyPath, comparator: String.StandardComparator(comparator, order: variant.initialOrder)))
            }
            return variant.apply(SortDescriptor(keyPath, comparator: comparator, order: variant.initialOrder))
        }
    }

    /// A `String?` key, in the same forms as `string`.
    static func optionalString(_ name: String, _ keyPath: KeyPath<T, String?> & Sendable) -> SortKey {
        SortKey(name: name) { variant in
            guard let comparator = variant.comparator else { return variant.apply(SortDescriptor(keyPath, order: variant.initialOrder)) }
            if variant.orderInComparator {
                return variant.apply(SortDescriptor(keyPath, comparator: String.StandardComparator(comparator, order: variant.initialOrder)))
            }
            return variant.apply(SortDescriptor(keyPath, comparator: comparator, order: variant.initialOrder))
        }
    }
}

/// How one descriptor of a generated case is made.
struct SortVariant: CustomStringConvertible {
    /// The order passed when the descriptor is made.
    var initialOrder: SortOrder
    /// An order set on `descriptor.order` afterwards (Foundation keeps comparing in the initial one).
    var changedOrder: SortOrder?
    /// For strings: 0 no comparator, 1 `comparator: .lexical, order:`, 2 `.lexical` carrying the
    /// order, 3 and 4 `.localizedStandard` (`order:`, carried), 5 and 6 `.localized`.
    var stringForm: Int

    /// The comparator of a string form (nil: none).
    var comparator: String.StandardComparator? {
        switch stringForm {
        case 1, 2: return .lexical
        case 3, 4: return .localizedStandard
        case 5, 6: return .localized
        default: return nil
        }
    }

    /// Whether the comparator carries the order (else it is passed as `order:`).
    var orderInComparator: Bool { stringForm > 0 && stringForm % 2 == 0 }

    func apply<T>(_ descriptor: SortDescriptor<T>) -> SortDescriptor<T> {
        var descriptor = descriptor
        if let changedOrder { descriptor.order = changedOrder }
        return descriptor
    }

    var description: String {
        var text = initialOrder == .forward ? "fwd" : "rev"
        if let changedOrder { text += changedOrder == .forward ? "→fwd" : "→rev" }
        if let comparator { text += " \(comparator == .lexical ? "lexical" : comparator == .localized ? "localized" : "localizedStandard")\(orderInComparator ? "-carried" : "")" }
        return text
    }

    static func random(using random: inout SeededGenerator) -> SortVariant {
        let initial: SortOrder = Bool.random(using: &random) ? .forward : .reverse
        // One descriptor in eight has its order changed after it was made.
        let changed: SortOrder? = Int.random(in: 0..<8, using: &random) == 0 ? (Bool.random(using: &random) ? .forward : .reverse) : nil
        return SortVariant(initialOrder: initial, changedOrder: changed, stringForm: Int.random(in: 0..<7, using: &random))
    }
}

/// One fetch the sort oracle checks.
struct SortCase<T: PersistentModel> {
    var name: String
    let descriptors: [SortDescriptor<T>]
    var predicate: Predicate<T>?
    var limit: Int?
    var offset: Int?
}

/// The sort oracle: the fetched order must equal, element for element, the order SwiftData's
/// `sorted(using:)` gives on Apple platforms (`AppleSortOrder`) to the same in-memory models (read in store order, the order Foundation's
/// stable sort keeps for ties), after the same predicate, offset and limit.
enum SortOracle {
    /// `count` cases of 1 to 3 keys each, with random orders, comparator forms, predicates,
    /// limits and offsets.
    static func generate<T: PersistentModel>(_ keys: [SortKey<T>], count: Int, rows: Int, predicates: [(String, Predicate<T>)] = [],
                            seed: UInt64) -> [SortCase<T>] {
        var random = SeededGenerator(seed: seed)
        var cases: [SortCase<T>] = []
        for _ in 0..<count {
            var chosen: [(SortKey<T>, SortVariant)] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                chosen.append((keys.randomElement(using: &random)!, .random(using: &random)))
            }
            var sortCase = SortCase<T>(name: chosen.map { "\($0.0.name) \($0.1)" }.joined(separator: ", "),
                                       descriptors: chosen.map { $0.0.make($0.1) })
            if !predicates.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
                let (name, predicate) = predicates.randomElement(using: &random)!
                sortCase.predicate = predicate
                sortCase.name += " where \(name)"
            }
            if Bool.random(using: &random) {
                let limit = Int.random(in: 0...40, using: &random)
                sortCase.limit = limit
                sortCase.name += " limit \(limit)"
            }
            if Bool.random(using: &random) {
                let offset = Int.random(in: 0...(rows + 10), using: &random)
                sortCase.offset = offset
                sortCase.name += " offset \(offset)"
            }
            cases.append(sortCase)
        }
        return cases
    }

    /// Checks every case; returns how many fetches had ties and nils their sort had to order
    /// (so a caller can require that the data set exercises them).
    @discardableResult
    static func check<T: PersistentModel>(_ cases: [SortCase<T>], in context: ModelContext, describe: (T) -> String,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        // Store order, by row key (not by the order a fetch gives, which is under test).
        let all = try context.fetch(FetchDescriptor<T>()).sorted { $0.persistentModelID.rowID! < $1.persistentModelID.rowID! }
        var tied = 0
        for item in AppleSortOrder.checkable(cases, in: context) {
            var descriptor = FetchDescriptor<T>(predicate: item.predicate, sortBy: item.descriptors)
            descriptor.fetchLimit = item.limit
            descriptor.fetchOffset = item.offset
            let fetched = try context.fetch(descriptor)
            let matching = try item.predicate.map { predicate in try all.filter { try predicate.evaluate($0) } } ?? all
            let sorted = AppleSortOrder.sorted(matching, using: item.descriptors)
            let expected = Array(sorted.dropFirst(item.offset ?? 0).prefix(item.limit ?? Int.max))
            if zip(sorted, sorted.dropFirst()).contains(where: { AppleSortOrder.compare(item.descriptors, $0, $1) == .orderedSame }) { tied += 1 }
            let got = fetched.map(ObjectIdentifier.init)
            let want = expected.map(ObjectIdentifier.init)
            if got != want {
                let index = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
                let gotText = index < fetched.count ? describe(fetched[index]) : "end"
                let wantText = index < expected.count ? describe(expected[index]) : "end"
                Issue.record("\(item.name): \(fetched.count) rows, Foundation \(expected.count); first difference at \(index): SQL \(gotText), Foundation \(wantText)",
                             sourceLocation: sourceLocation)
            }
        }
        return tied
    }
}

/// `sorted(using:)` as it orders on Apple platforms, where a `String` descriptor made without a
/// comparator holds `.localizedStandard` and the localized comparators run Foundation's localized
/// comparisons: those `String` descriptors compare with `localizedStandardCompare` and
/// `localizedCompare` themselves (the oracle), every other descriptor with its own `compare`. On
/// Linux Foundation's `sorted(using:)` orders such strings otherwise (docs/Predicates.md, "Sorting").
enum AppleSortOrder {
    /// A stable sort of `models` (ties keep their order).
    static func sorted<T>(_ models: [T], using descriptors: [SortDescriptor<T>]) -> [T] {
        models.enumerated().sorted { lhs, rhs in
            let result = compare(descriptors, lhs.element, rhs.element)
            return result == .orderedSame ? lhs.offset < rhs.offset : result == .orderedAscending
        }.map(\.element)
    }

    /// The cases a store can be held to exactly: on PostgreSQL, whose localized string orders are
    /// ICU's (the closest, not Foundation's: docs/PostgreSQL.md, "Sort order"), those without a
    /// localized `String` descriptor. `LocalizedStandardOrderTests` checks PostgreSQL's on its own.
    static func checkable<T>(_ cases: [SortCase<T>], in context: ModelContext) -> [SortCase<T>] {
        guard context.container.driver.dialect is PostgresDialect else { return cases }
        return cases.filter { item in
            !item.descriptors.contains { descriptor in
                guard let keyPath = descriptor.keyPath else { return false }
                let valueType = type(of: keyPath).valueType
                guard valueType == String.self || valueType == String?.self else { return false }
                return descriptor.stringComparator.map { String.StandardComparator($0, order: .forward) != .lexical } ?? true
            }
        }
    }

    /// The first descriptor's result that is not `.orderedSame`.
    static func compare<T>(_ descriptors: [SortDescriptor<T>], _ lhs: T, _ rhs: T) -> ComparisonResult {
        for descriptor in descriptors {
            let result = compare(descriptor, lhs, rhs)
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }

    static func compare<T>(_ descriptor: SortDescriptor<T>, _ lhs: T, _ rhs: T) -> ComparisonResult {
        guard let keyPath = descriptor.keyPath else { return descriptor.compare(lhs, rhs) }
        let valueType = type(of: keyPath).valueType
        guard valueType == String.self || valueType == String?.self else { return descriptor.compare(lhs, rhs) }
        let comparison = SortComparison(descriptor)
        let localized: (String, String) -> ComparisonResult
        switch descriptor.stringComparator.map({ String.StandardComparator($0, order: .forward) }) {
        case nil, .localizedStandard?: localized = { $0.localizedStandardCompare($1) }
        case .localized?: localized = { $0.localizedCompare($1) }
        default: return descriptor.compare(lhs, rhs)
        }
        let left = lhs[keyPath: keyPath] as? String, right = rhs[keyPath: keyPath] as? String
        switch (left, right) {
        case (nil, nil): return .orderedSame
        case (nil, _): return comparison.nilOrder == .forward ? .orderedAscending : .orderedDescending
        case (_, nil): return comparison.nilOrder == .forward ? .orderedDescending : .orderedAscending
        case (let left?, let right?):
            let result = localized(left, right)
            guard comparison.valueOrder == .reverse, result != .orderedSame else { return result }
            return result == .orderedAscending ? .orderedDescending : .orderedAscending
        }
    }
}
