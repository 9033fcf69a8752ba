import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Opening a store written by another schema: inferred changes migrate, others throw (more in
/// InferredMigrationTests).
@Suite struct MigrationTests {
    /// A store holding one note, written under `NoteV1`.
    static func store(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: Schema([NoteV1.self])))
        context.insert(NoteV1(title: "First"))
        try context.save()
        return store
    }

    @Test(arguments: StoreKind.persistent) func additiveChangesMigrateAndKeepTheData(_ kind: StoreKind) throws {
        let store = try Self.store(kind)
        let container = try store.container(for: Schema([NoteV2.self, FolderV2.self]))
        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<NoteV2>())
        #expect(notes.map(\.title) == ["First"])
        #expect(notes.first?.body == nil)
        #expect(notes.first?.pinned == true, "the new column is filled with the default")
        context.insert(FolderV2(name: "Inbox"))
        let second = NoteV2(title: "Second")
        second.body = "text"
        context.insert(second)
        try context.save()
        // Reopening with the same schema changes nothing.
        let again = ModelContext(try store.container(for: Schema([NoteV2.self, FolderV2.self])))
        #expect(try again.fetchCount(FetchDescriptor<NoteV2>()) == 2)
        #expect(try again.fetchCount(FetchDescriptor<FolderV2>()) == 1)
    }

    @Test(arguments: StoreKind.persistent) func incompatibleChangesThrowAnErrorNamingEachDifference(_ kind: StoreKind) throws {
        let store = try Self.store(kind)
        do {
            _ = try store.container(for: Schema([NoteV3.self]))
            Issue.record("opened an incompatible store")
        } catch let ModelStoreError.incompatibleSchema(differences) {
            #expect(differences.contains("Note.title: type String → Int"))
            #expect(differences.contains("Note.rating: new required property without a default value"))
        }
        // The store is untouched and still opens with its own schema.
        let context = ModelContext(try store.container(for: Schema([NoteV1.self])))
        #expect(try context.fetch(FetchDescriptor<NoteV1>()).map(\.title) == ["First"])
    }

    @Test(arguments: StoreKind.persistent) func aRemovedPropertyIsDropped(_ kind: StoreKind) throws {
        let store = try Self.store(kind)
        do {
            let context = ModelContext(try store.container(for: Schema([NoteV2.self])))
            #expect(try context.fetch(FetchDescriptor<NoteV2>()).map(\.pinned) == [true])
        }
        let context = ModelContext(try store.container(for: Schema([NoteV1.self])))
        #expect(try context.fetch(FetchDescriptor<NoteV1>()).map(\.title) == ["First"])
        #expect(!(try store.tableSQL("Note")).contains("pinned"))
    }

    @Test(arguments: StoreKind.persistent) func aRenamedPropertyKeepsItsValues(_ kind: StoreKind) throws {
        let store = try Self.store(kind)
        let context = ModelContext(try store.container(for: Schema([NoteRenamed.self])))
        #expect(try context.fetch(FetchDescriptor<NoteRenamed>()).map(\.heading) == ["First"])
    }

    @Test(arguments: StoreKind.persistent) func anEntityTheSchemaNoLongerListsIsRemoved(_ kind: StoreKind) throws {
        let other = try TestStore(kind)
        do {
            let context = ModelContext(try other.container(for: TripStore.schema))
            context.insert(Itinerary(title: "Plan"))
            try context.save()
        }
        // Accommodation brings Trip (its relationship's destination), not Itinerary.
        _ = try other.container(for: Schema([Accommodation.self]))
        #expect(!(try other.objectNames(type: "table")).contains("Itinerary"))
        let context = ModelContext(try other.container(for: TripStore.schema))
        #expect(try context.fetchCount(FetchDescriptor<Itinerary>()) == 0)
    }
}
