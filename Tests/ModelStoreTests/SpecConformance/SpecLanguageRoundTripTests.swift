import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The language additions of `Generated/SpecAllTypes.model.swift` (made by ModelGenKitTests'
/// `AllTypesGoldenTests`), compiled and run against every store.
@Suite struct SpecLanguageRoundTripTests {
    /// `tier: SpecTier? = .none` where `SpecTier` has a case `none`: the default is the case, not nil,
    /// in the property, the init's defaults, the struct's fields and the stored column's default
    /// (what a migration fills existing rows with).
    @Test(arguments: StoreKind.allCases) func aCaseNamedNoneIsTheCaseNotNil(_ kind: StoreKind) throws {
        let made = SpecTierHolder()
        #expect(made.tier == .some(SpecTier.none))
        #expect(made.plain == SpecTier.none && made.tiers == [SpecTier.none])
        #expect(made.box.tier == .some(SpecTier.none) && made.box.tiers == [SpecTier.none, .gold])
        #expect(SpecTierBox().tier == .some(SpecTier.none))

        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: SpecLanguageStore.schema))
        context.insert(made)
        let empty = SpecTierHolder()
        empty.tier = nil
        context.insert(empty)
        try context.save()
        let read = ModelContext(try store.container(for: SpecLanguageStore.schema))
        let tiers = try read.fetch(FetchDescriptor<SpecTierHolder>()).map(\.tier)
        #expect(tiers.count == 2 && tiers.contains(.some(SpecTier.none)) && tiers.contains(nil))
        let none: SpecTier? = SpecTier.none
        let noneCount = try read.fetchCount(FetchDescriptor<SpecTierHolder>(predicate: #Predicate { $0.tier == none }))
        #expect(noneCount == 1)
        // The column's default (what `ADD COLUMN` gives the rows a store already holds) is the case's raw value.
        let table = try store.tableSQL("SpecTierHolder")
        let tierColumn = try #require(table.split(separator: ",").first { $0.contains("\"tier\"") })
        #expect(tierColumn.contains("DEFAULT 'none'"), "\(table)")
    }
}

/// The struct's static member the model's `frame: SpecRect = .zero` names (the app's own Swift).
extension SpecRect {
    static let zero = SpecRect(id: 0, width: 0)
}

/// The generated `@ModelActor` actor's methods, written in an extension as SwiftData apps write them.
extension SpecImporter {
    func addFolders(_ names: [String]) throws -> [PersistentIdentifier] {
        let folders = names.map { SpecFolder(name: $0) }
        for folder in folders { modelContext.insert(folder) }
        try modelContext.save()
        return folders.map(\.persistentModelID)
    }

    func providerNames() throws -> [String] {
        try modelContext.fetch(FetchDescriptor<SpecFolder>(sortBy: [SortDescriptor(\.name)])).map { "\($0.provider)" }
    }
}

extension SpecLanguageRoundTripTests {
    /// A plain enum (no raw type) is stored by case name: equal in SQL, round-tripped, its `Codable`
    /// form Swift's own.
    @Test(arguments: StoreKind.allCases) func aPlainEnumIsStoredByCaseName(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: SpecLanguageStore.schema))
        for (name, provider) in [("a", SpecProvider.ollama), ("b", .openAI), ("c", .anthropic), ("d", .openAI)] {
            let folder = SpecFolder(name: name)
            folder.provider = provider
            context.insert(folder)
        }
        try context.save()
        let read = ModelContext(try store.container(for: SpecLanguageStore.schema))
        let wanted = SpecProvider.openAI
        let openAI = try read.fetch(FetchDescriptor<SpecFolder>(predicate: #Predicate { $0.provider == wanted },
                                                              sortBy: [SortDescriptor(\.name)]))
        #expect(openAI.map(\.name) == ["b", "d"])
        #expect(try read.fetch(FetchDescriptor<SpecFolder>(sortBy: [SortDescriptor(\.name)])).map(\.provider) == [.ollama, .openAI, .anthropic, .openAI])
        let column = try store.rawConnection().rows("SELECT \(SQLQuote.identifier("provider")) FROM \(SQLQuote.identifier("SpecFolder"))")
        let stored = column.compactMap { row -> String? in if case .text(let name)? = row.first { name } else { nil } }
        #expect(stored.sorted() == ["anthropic", "ollama", "openAI", "openAI"])
        // Codable stays Swift's synthesized form for an enum without raw type.
        #expect(String(decoding: try JSONEncoder().encode(SpecProvider.ollama), as: UTF8.self) == #"{"ollama":{}}"#)
        #expect(SpecProvider.ollama < .anthropic)  // Comparable passed through (declaration order)
    }

    /// `CGFloat` is stored as a Double; an init's default arguments are the model's.
    @Test(arguments: StoreKind.allCases) func cgFloatAndInitDefaults(_ kind: StoreKind) throws {
        let folder = SpecFolder(name: "f")
        #expect(folder.width == 3 && folder.provider == .anthropic && folder.backup == nil)  // the init's defaults
        #expect(folder.frame == SpecRect.zero && folder.widths.isEmpty)
        folder.widths = [1.25, -2]
        folder.frame = SpecRect(id: 7, width: 0.5)
        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: SpecLanguageStore.schema))
        context.insert(folder)
        context.insert(SpecFolder(name: "g", width: 10))
        try context.save()
        let read = ModelContext(try store.container(for: SpecLanguageStore.schema))
        let wide = try read.fetch(FetchDescriptor<SpecFolder>(predicate: #Predicate { $0.width > 5 }))
        #expect(wide.map(\.name) == ["g"])
        let byWidth = try read.fetch(FetchDescriptor<SpecFolder>(sortBy: [SortDescriptor(\.width, order: .reverse)]))
        #expect(byWidth.map(\.width) == [10, 3])
        let f = try #require(byWidth.last)
        #expect(f.widths == [1.25, -2] && f.frame == SpecRect(id: 7, width: 0.5))
    }

    /// An optional to-many (`[SpecNote]? = []`): nil and `[]` are stored alike (no related models),
    /// and a read gives `[]` then, as SwiftData gives a saved model's.
    @Test(arguments: StoreKind.allCases) func anOptionalToMany(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: SpecLanguageStore.schema))
        let full = SpecFolder(name: "full")
        let empty = SpecFolder(name: "empty")
        let cleared = SpecFolder(name: "cleared")
        for folder in [full, empty, cleared] { context.insert(folder) }
        let notes = [SpecNote(title: "one"), SpecNote(title: "two")]
        full.notes = notes
        cleared.notes = [SpecNote(title: "gone")]
        #expect(notes.allSatisfy { $0.folder === full })  // the inverse follows
        cleared.notes = nil
        #expect(cleared.notes == [] && empty.notes == [])
        try context.save()
        let read = ModelContext(try store.container(for: SpecLanguageStore.schema))
        let folders = try read.fetch(FetchDescriptor<SpecFolder>(sortBy: [SortDescriptor(\.name)]))
        #expect(folders.map(\.name) == ["cleared", "empty", "full"])
        #expect(folders.map { $0.notes?.count } == [0, 0, 2])
        #expect(Set(folders[2].notes?.map(\.title) ?? []) == ["one", "two"])
        // The delete rule applies: deleting the folder deletes its notes.
        read.delete(folders[2])
        try read.save()
        #expect(try read.fetch(FetchDescriptor<SpecNote>()).map(\.title) == ["gone"])
    }

    /// `@ModelActor actor SpecImporter` in the model: SwiftData's expansion, used from another task.
    @Test(arguments: StoreKind.allCases) func aModelActorDeclaredInTheModel(_ kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let container = try store.container(for: SpecLanguageStore.schema)
        let importer = SpecImporter(modelContainer: container)
        let ids = try await importer.addFolders(["x", "y"])
        #expect(ids.count == 2)
        #expect(try await importer.providerNames() == ["anthropic", "anthropic"])
        #expect(importer.modelContainer === container)
        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<SpecFolder>()) == 2)
    }
}
