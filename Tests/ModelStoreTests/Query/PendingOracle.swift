import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The models of one context as Foundation sees them in memory: the saved models (read before
/// any change, kept here, in key order) and the models inserted since (in insertion order).
/// Deleted ones drop out of `view`.
final class ContextView {
    let context: ModelContext
    private(set) var stored: [ModelObject] = []
    private(set) var inserted: [ModelObject] = []

    init(_ context: ModelContext) {
        self.context = context
    }

    /// Reads every saved model of `T`'s hierarchy (before any change is made).
    func load<T: PersistentModel>(_ type: T.Type) throws {
        let models = try context.fetch(FetchDescriptor<T>()).map(\._$modelObject)
        stored = (stored + models).sorted { ($0.rowID ?? 0, $0.entity?.hierarchyIndex ?? 0) < ($1.rowID ?? 0, $1.entity?.hierarchyIndex ?? 0) }
    }

    /// Inserts `model` into the context and the view.
    func insert<T: PersistentModel>(_ model: T) {
        context.insert(model)
        inserted.append(model._$modelObject)
    }

    /// The models of `T` the context holds now: saved ones in key order, then new ones in
    /// insertion order (the order `sorted(using:)` keeps for ties), deleted ones left out.
    func view<T: PersistentModel>(_ type: T.Type) -> [T] {
        let saved = stored.compactMap { $0 as? T }.filter { !$0.isDeleted }
        let new = inserted.compactMap { $0 as? T }.filter { !$0.isDeleted }
        return saved + new
    }
}

/// The pending-changes oracle: with unsaved inserts, changes and deletions in the context, every
/// way of fetching (`fetch`, `fetchCount`, `fetchIdentifiers`, `enumerate`, `fetch(_:batchSize:)`)
/// must give, element for element, what `predicate.evaluate` and `sorted(using:)` give over the
/// context's current view of the models, after the same offset and limit.
enum PendingOracle {
    /// Checks every case; returns how many had in-memory models among their results (so a caller
    /// can require that the changes reach the fetches).
    @discardableResult
    static func check<T: PersistentModel>(_ cases: [SortCase<T>], _ view: ContextView, seed: UInt64, describe: (T) -> String,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        var random = SeededGenerator(seed: seed)
        let context = view.context
        var touched = 0
        for item in AppleSortOrder.checkable(cases, in: context) {
            var descriptor = FetchDescriptor<T>(predicate: item.predicate, sortBy: item.descriptors)
            descriptor.fetchLimit = item.limit
            descriptor.fetchOffset = item.offset
            let all = view.view(T.self)
            let matching = try item.predicate.map { predicate in try all.filter { try predicate.evaluate($0) } } ?? all
            let expected = Array(AppleSortOrder.sorted(matching, using: item.descriptors).dropFirst(item.offset ?? 0).prefix(item.limit ?? Int.max))
            if expected.contains(where: { $0.hasChanges }) { touched += 1 }
            let want = expected.map(ObjectIdentifier.init)

            func compare(_ what: String, _ got: [T]) {
                let ids = got.map(ObjectIdentifier.init)
                guard ids != want else { return }
                let index = zip(ids, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ids.count, want.count)
                let gotText = index < got.count ? describe(got[index]) : "end"
                let wantText = index < expected.count ? describe(expected[index]) : "end"
                Issue.record("\(what) \(item.name): \(got.count) models, Foundation \(expected.count); first difference at \(index): got \(gotText), Foundation \(wantText)",
                             sourceLocation: sourceLocation)
            }
            compare("fetch", try context.fetch(descriptor))
            let count = try context.fetchCount(descriptor)
            #expect(count == expected.count, "fetchCount \(item.name): \(count), Foundation \(expected.count)", sourceLocation: sourceLocation)
            let identifiers = try context.fetchIdentifiers(descriptor)
            #expect(identifiers == expected.map(\.persistentModelID), "fetchIdentifiers \(item.name)", sourceLocation: sourceLocation)
            let batchSize = Int.random(in: 1...40, using: &random)
            var enumerated: [T] = []
            try context.enumerate(descriptor, batchSize: batchSize) { enumerated.append($0) }
            compare("enumerate (batch \(batchSize))", enumerated)
            compare("fetch(batchSize: \(batchSize))", Array(try context.fetch(descriptor, batchSize: batchSize)))
        }
        return touched
    }

    /// `delete(model:where:)` removes exactly the models `predicate.evaluate` accepts in the view.
    static func checkDelete<T: PersistentModel>(_ name: String, _ predicate: Predicate<T>, _ view: ContextView, describe: (T) -> String,
                                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = view.view(T.self)
        let doomed = Set(try before.filter { try predicate.evaluate($0) }.map(ObjectIdentifier.init))
        try view.context.delete(model: T.self, where: predicate)
        let gone = before.filter(\.isDeleted)
        let wrong = gone.filter { !doomed.contains(ObjectIdentifier($0)) }.prefix(3).map(describe)
        let kept = before.filter { doomed.contains(ObjectIdentifier($0)) && !$0.isDeleted }.prefix(3).map(describe)
        #expect(gone.count == doomed.count && wrong.isEmpty && kept.isEmpty,
                "delete(model:where: \(name)): deleted \(gone.count), Foundation \(doomed.count); wrongly \(wrong), kept \(kept)",
                sourceLocation: sourceLocation)
    }
}
