import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `FetchDescriptor.propertiesToFetch` (#13, docs/Runtime.md): only the named attributes (and the to-one
/// keys) are read; the others hold a placeholder until first accessed, which loads them.
@Suite struct PropertiesToFetchTests {
    let store: TestStore
    let container: ModelContainer
    /// 4 MB: reading it costs what a partial fetch is meant to save.
    static let huge = Data(repeating: 0xAB, count: 4 << 20)

    /// A fresh store of `kind` (SQLite file, SQLite in memory, PostgreSQL); each test runs on every kind.
    init(_ kind: StoreKind) throws {
        store = try TestStore(kind)
        container = try store.container(for: SpecAllTypesStore.schema)
        let seed = ModelContext(container)
        seed.insert(SpecEverything(string: "first", data: Self.huge, url: URL(string: "https://example.com/1")!, code: "one"))
        seed.insert(SpecEverything(string: "second", data: Data([1, 2, 3]), url: URL(string: "https://example.com/2")!, code: "two"))
        try seed.save()
    }

    private func partialFetch(_ context: ModelContext) throws -> [SpecEverything] {
        var descriptor = FetchDescriptor<SpecEverything>(sortBy: [SortDescriptor(\.code, order: .reverse)])
        descriptor.propertiesToFetch = [\.string, \.code]
        return try context.fetch(descriptor)
    }

    /// Rewrites the data column behind the context's back.
    private func replaceStoredData(code: String, with data: Data) throws {
        let writer = ModelContext(container)
        let model = try #require(writer.fetch(FetchDescriptor<SpecEverything>(predicate: #Predicate { $0.code == code })).first)
        model.data = data
        try writer.save()
    }

    @Test("The unnamed columns are not read: a value stored after the fetch is what the first access loads", arguments: StoreKind.allCases)
    static func unfetchedColumnsAreNotRead(_ kind: StoreKind) throws {
        try Self(kind).unfetchedColumnsAreNotRead()
    }

    func unfetchedColumnsAreNotRead() throws {
        let context = ModelContext(container)
        let models = try partialFetch(context)
        #expect(models.map(\.code) == ["two", "one"])
        let first = models[1]
        #expect(first.string == "first")
        let dataIndex = try #require(first.entity?.storedAttributes.firstIndex { $0.name == "data" })
        #expect(first.unfetched?.contains(dataIndex) == true, "data was read by the fetch")
        // Had the fetch read the 4 MB, the model would hold them; it holds the placeholder instead.
        try replaceStoredData(code: "one", with: Data([9]))
        #expect(first.data == Data([9]), "the first access did not load the stored value")
        #expect(first.unfetched == nil)
        #expect(first.url == URL(string: "https://example.com/1")!)
        #expect(!first.hasChanges)
    }

    @Test("Loading on first access fills every unread attribute with its stored value", arguments: StoreKind.allCases)
    static func lateLoadIsComplete(_ kind: StoreKind) throws {
        try Self(kind).lateLoadIsComplete()
    }

    func lateLoadIsComplete() throws {
        let context = ModelContext(container)
        let first = try partialFetch(context)[1]
        #expect(first.data == Self.huge)
        #expect(first.mood == .calm && first.level == .high && first.decimal == Decimal(string: "12.25")!)
        #expect(first.optionalString == "maybe" && first.strings == ["a", "b"] && first.ints == [1, -2])
    }

    @Test("A full fetch afterwards completes the model without a late load", arguments: StoreKind.allCases)
    static func fullFetchCompletesTheModel(_ kind: StoreKind) throws {
        try Self(kind).fullFetchCompletesTheModel()
    }

    func fullFetchCompletesTheModel() throws {
        let context = ModelContext(container)
        let first = try partialFetch(context)[1]
        #expect(first.unfetched != nil)
        let again = try context.fetch(FetchDescriptor<SpecEverything>(predicate: #Predicate { $0.code == "one" }))
        #expect(again.first === first)
        #expect(first.unfetched == nil)
        #expect(first.data == Self.huge)
    }

    @Test("Setting an unread attribute first loads it: change tracking and rollback see the stored value", arguments: StoreKind.allCases)
    static func settingAnUnreadAttribute(_ kind: StoreKind) throws {
        try Self(kind).settingAnUnreadAttribute()
    }

    func settingAnUnreadAttribute() throws {
        let context = ModelContext(container)
        let second = try partialFetch(context)[0]
        second.url = URL(string: "https://example.com/changed")!
        #expect(second.unfetched == nil)
        #expect(second.changes?.savedValues == [.text("https://example.com/2")])
        context.rollback()
        #expect(second.url == URL(string: "https://example.com/2")!)
        #expect(second.data == Data([1, 2, 3]))
        second.data = Data([7])
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<SpecEverything>(predicate: #Predicate { $0.code == "two" }))
        #expect(stored.first?.data == Data([7]) && stored.first?.url == URL(string: "https://example.com/2")!)
    }

    @Test("Observation sees a read of an unread attribute, and its change", arguments: StoreKind.allCases)
    static func observationIsUnaffected(_ kind: StoreKind) throws {
        try Self(kind).observationIsUnaffected()
    }

    func observationIsUnaffected() throws {
        let context = ModelContext(container)
        let second = try partialFetch(context)[0]
        final class Count: @unchecked Sendable { var value = 0 }
        let count = Count()
        withObservationTracking { _ = second.data } onChange: { count.value += 1 }
        second.data = Data([4])
        #expect(count.value == 1)
        #expect(second.hasChanges)
    }
}
