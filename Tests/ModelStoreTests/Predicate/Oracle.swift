import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// One predicate of the oracle's table.
struct OracleCase<T: PersistentModel> {
    let name: String
    let predicate: Predicate<T>
    /// Whether the data set may leave the predicate matching every row or none.
    var mayBeTrivial = false
}

/// The oracle: for each predicate, the rows the SQL returns must be exactly the models for
/// which `predicate.evaluate(model)` is true, on the same in-memory objects.
enum Oracle {
    /// Runs every case; returns how many were checked.
    @discardableResult
    static func check<T: PersistentModel>(_ cases: [OracleCase<T>], in context: ModelContext,
                                          describe: (T) -> String,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let all = try context.fetch(FetchDescriptor<T>())
        for item in cases {
            let fetched = try context.fetch(FetchDescriptor<T>(predicate: item.predicate))
            let expected = try all.filter { try item.predicate.evaluate($0) }
            let got = Set(fetched.map { ObjectIdentifier($0) })
            let want = Set(expected.map { ObjectIdentifier($0) })
            let extra = fetched.filter { !want.contains(ObjectIdentifier($0)) }.prefix(3).map(describe)
            let missing = expected.filter { !got.contains(ObjectIdentifier($0)) }.prefix(3).map(describe)
            #expect(got == want, "\(item.name): SQL \(got.count) rows, evaluate \(want.count); extra \(extra), missing \(missing)",
                    sourceLocation: sourceLocation)
            #expect(fetched.count == got.count, "\(item.name): duplicate rows", sourceLocation: sourceLocation)
            let count = try context.fetchCount(FetchDescriptor<T>(predicate: item.predicate))
            #expect(count == want.count, "\(item.name): fetchCount \(count), evaluate \(want.count)", sourceLocation: sourceLocation)
            if !item.mayBeTrivial {
                #expect(!want.isEmpty && want.count < all.count,
                        "\(item.name) matches \(want.count) of \(all.count): the data set does not test it",
                        sourceLocation: sourceLocation)
            }
        }
        return cases.count
    }
}

/// A store file filled by `populate`, and a fresh context on it: every model the oracle
/// compares is read back from the store.
struct OracleStore {
    let store: TemporaryStore
    let container: ModelContainer
    let context: ModelContext

    init(_ schema: Schema, populate: (ModelContext) throws -> Void) throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: schema, configurations: store.configuration)
        try populate(ModelContext(container))
        context = ModelContext(container)
    }
}

/// Expects `body` to throw `ModelStoreError.unsupportedPredicate` whose message contains `text`.
func expectUnsupported(_ text: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    #expect(sourceLocation: sourceLocation) {
        try body()
    } throws: { error in
        guard case ModelStoreError.unsupportedPredicate(let message) = error else { return false }
        return message.contains(text)
    }
}
