import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Opening a store written by another schema: inferred changes migrate, others throw (more in
/// InferredMigrationTests).
@Suite struct MigrationTests {
    let store: TemporaryStore

    init() throws {
        store = try TemporaryStore()
        let container = try ModelContainer(for: NoteV1.self, configurations: store.configuration)
        let context = ModelContext(container)
        context.insert(NoteV1(title: "First"))
        try context.save()
    }

    @Test func additiveChangesMigrateAndKeepTheData() throws {
        let container = try ModelContainer(for: NoteV2.self, FolderV2.self, configurations: store.configuration)
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
        let again = ModelContext(try ModelContainer(for: NoteV2.self, FolderV2.self, configurations: store.configuration))
        #expect(try again.fetchCount(FetchDescriptor<NoteV2>()) == 2)
        #expect(try again.fetchCount(FetchDescriptor<FolderV2>()) == 1)
    }

    @Test func incompatibleChangesThrowAnErrorNamingEachDifference() throws {
        do {
            _ = try ModelContainer(for: NoteV3.self, configurations: store.configuration)
            Issue.record("opened an incompatible store")
        } catch let ModelStoreError.incompatibleSchema(differences) {
            #expect(differences.contains("Note.title: type String → Int"))
            #expect(differences.contains("Note.rating: new required property without a default value"))
        }
        // The store is untouched and still opens with its own schema.
        let context = ModelContext(try ModelContainer(for: NoteV1.self, configurations: store.configuration))
        #expect(try context.fetch(FetchDescriptor<NoteV1>()).map(\.title) == ["First"])
    }

    @Test func aRemovedPropertyIsDropped() throws {
        do {
            let context = ModelContext(try ModelContainer(for: NoteV2.self, configurations: store.configuration))
            #expect(try context.fetch(FetchDescriptor<NoteV2>()).map(\.pinned) == [true])
        }
        let context = ModelContext(try ModelContainer(for: NoteV1.self, configurations: store.configuration))
        #expect(try context.fetch(FetchDescriptor<NoteV1>()).map(\.title) == ["First"])
        #expect(!(try store.tableSQL("Note")).contains("pinned"))
    }

    @Test func aRenamedPropertyKeepsItsValues() throws {
        let context = ModelContext(try ModelContainer(for: NoteRenamed.self, configurations: store.configuration))
        #expect(try context.fetch(FetchDescriptor<NoteRenamed>()).map(\.heading) == ["First"])
    }

    @Test func anEntityTheSchemaNoLongerListsIsRemoved() throws {
        let other = try TemporaryStore()
        do {
            let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: other.configuration))
            context.insert(Itinerary(title: "Plan"))
            try context.save()
        }
        // Accommodation brings Trip (its relationship's destination), not Itinerary.
        _ = try ModelContainer(for: Accommodation.self, configurations: other.configuration)
        #expect(!(try other.objectNames(type: "table")).contains("Itinerary"))
        let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: other.configuration))
        #expect(try context.fetchCount(FetchDescriptor<Itinerary>()) == 0)
    }
}
