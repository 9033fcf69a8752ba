import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Each change docs/Migrations.md lists as inferred: a store written with data under the old model, read back
/// under the new one, with no migration code. And what cannot be inferred fails, the file untouched.
@Suite struct InferredMigrationTests {
    // MARK: Entities and subclasses

    @Test(arguments: StoreKind.persistent) func entitiesAndSubclassesAddedAndRemoved(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.write(Schema([EntitiesV1.Trip.self, EntitiesV1.Accommodation.self, EntitiesV1.Note.self])) { context in
            let business = EntitiesV1.BusinessTrip(name: "Offsite", company: "Acme")
            let personal = EntitiesV1.PersonalTrip(name: "Beach", reason: "rest")
            let hotel = EntitiesV1.Accommodation(name: "Hotel")
            let inn = EntitiesV1.Accommodation(name: "Inn")
            hotel.trip = personal
            inn.trip = business
            for model in [business, personal, EntitiesV1.Trip(name: "Plain")] as [EntitiesV1.Trip] { context.insert(model) }
            context.insert(hotel)
            context.insert(inn)
            context.insert(EntitiesV1.Note(text: "gone soon"))
        }

        let container = try store.container(for: Schema([EntitiesV2.Trip.self, EntitiesV2.Accommodation.self, EntitiesV2.Tag.self]))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<EntitiesV2.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Offsite", "Plain"], "the removed subclass's rows are removed")
        #expect((trips.first as? EntitiesV2.BusinessTrip)?.company == "Acme")
        let accommodations = try context.fetch(FetchDescriptor<EntitiesV2.Accommodation>(sortBy: [SortDescriptor(\.name)]))
        #expect(accommodations.map(\.name) == ["Hotel", "Inn"])
        #expect(accommodations[0].trip == nil, "a reference to a removed row is set to nil")
        #expect(accommodations[1].trip?.name == "Offsite")

        let tables = try store.objectNames(type: "table")
        #expect(!tables.contains("Note"), "the removed entity's table is dropped")
        #expect(tables.contains("Tag"))
        #expect(!(try store.tableSQL("Trip")).contains("PersonalTrip.reason"))

        // The new subclass (a required property without default) and the new entity work.
        context.insert(EntitiesV2.TeamTrip(name: "Hackathon", teamSize: 5))
        context.insert(EntitiesV2.Tag(label: "work"))
        try context.save()
        let again = ModelContext(container)
        #expect(try again.fetch(FetchDescriptor<EntitiesV2.TeamTrip>()).map(\.teamSize) == [5])
        #expect(try again.fetchCount(FetchDescriptor<EntitiesV2.Tag>()) == 1)
        let health = try store.health()
        #expect(health.foreignKeys.isEmpty)
        #expect(health.integrity == ["ok"])
    }

    // MARK: Attributes

    private func writeItems(_ store: TestStore) throws {
        try store.write(Schema([AttributesV1.Item.self])) { context in
            context.insert(AttributesV1.Item(name: "a", count: .max, small: .min, level: 255, ratio: 1.5, note: nil,
                                             legacy: "L", code: "C", scores: [1, .max]))
            context.insert(AttributesV1.Item(name: "b", count: -3, small: 7, level: 0, ratio: 0.25, note: "n",
                                             legacy: "", code: "D", scores: []))
        }
    }

    private func expectMigratedItems(_ store: TestStore) throws {
        let container = try ModelContainer(for: AttributesV2.Item.self, configurations: store.configuration)
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<AttributesV2.Item>(sortBy: [SortDescriptor(\.name)]))
        #expect(items.map(\.name) == ["a", "b"])
        #expect(items.map(\.count) == [Int(Int32.max), -3], "Int32 → Int")
        #expect(items.map(\.small) == [-128, 7], "Int8 → Int16")
        #expect(items.map(\.level) == [255, 0], "UInt8 → Int64")
        #expect(items.map(\.ratio) == [1.5, 0.25], "Float → Double")
        #expect(items.map(\.note) == ["none", "n"], "optional → required: NULL takes the default")
        #expect(items.map(\.code) == ["C", "D"])
        #expect(items.map(\.scores) == [[1, Int(Int32.max)], []], "[Int32] → [Int]")
        #expect(items.map(\.added) == [7, 7], "an added property takes its default")
        #expect(items.map(\.extra) == [nil, nil])
        #expect(!(try store.tableSQL("Item")).contains("legacy"), "a removed property's column is dropped")

        // Required → optional: nil can now be stored.
        items[0].code = nil
        try context.save()
        let again = ModelContext(container)
        #expect(try again.fetch(FetchDescriptor<AttributesV2.Item>(sortBy: [SortDescriptor(\.name)])).map(\.code) == [nil, "D"])
        #expect(try store.health().integrity == ["ok"])
    }

    @Test(arguments: StoreKind.persistent) func attributesWidenTakeDefaultsAndRelax(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writeItems(store)
        try expectMigratedItems(store)
        let stored = try #require(try store.storedSchema())
        #expect(stored.format == 2)
        #expect(stored.entity(named: "Item")?.property(named: "count")?.type == "Int")
    }

    @Test(arguments: StoreKind.persistent) func aStoreOfFormat1MigratesAndIsRecordedAgainInFormat2(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writeItems(store)
        // What the runtime wrote before schema evolution: tables only, format ("version") 1.
        let stored = try #require(try store.storedSchema())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let tablesJSON = String(decoding: try encoder.encode(stored.tables), as: UTF8.self)
        try store.replaceStoredSchema(json: "{\"tables\":\(tablesJSON),\"version\":1}")
        let legacy = try #require(try store.storedSchema())
        #expect(legacy.format == 1 && legacy.entities.isEmpty && legacy.schemaVersion == nil)

        try expectMigratedItems(store)
        let upgraded = try #require(try store.storedSchema())
        #expect(upgraded.format == 2)
        #expect(upgraded == Schema([AttributesV2.Item.self]).storage)
    }

    @Test(arguments: StoreKind.persistent) func aStoreOfFormat1WithTheSameTablesOnlyGetsItsDescriptionRewritten(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writeItems(store)
        let stored = try #require(try store.storedSchema())
        let tablesJSON = String(decoding: try JSONEncoder().encode(stored.tables), as: UTF8.self)
        try store.replaceStoredSchema(json: "{\"tables\":\(tablesJSON),\"version\":1}")
        let before = try store.dump().filter { $0.key != "$metadata" }
        _ = try store.container(for: Schema([AttributesV1.Item.self]))
        #expect(try store.dump().filter { $0.key != "$metadata" } == before)
        #expect(try store.storedSchema() == stored)
    }

    // MARK: Renames

    /// How the renames test opens the store.
    enum RenamePath: CaseIterable {
        /// Written and opened without a plan: the stored schema against the new one, inferred.
        case inferred
        /// Written at version 31.0.0 through the generated plan, opened through its lightweight stage.
        case plan
        /// Written without a plan (no version recorded), opened through the plan.
        case planOnAStoreWithoutVersion
    }

    @Test(arguments: StoreKind.persistent, RenamePath.allCases)
    func entitiesPropertiesAndRelationshipsRenamedWithOriginalName(_ kind: StoreKind, path: RenamePath) throws {
        let store = try TestStore(kind)
        let openingPlan: (any SchemaMigrationPlan.Type)? = path == .inferred ? nil : RenamesStoreMigrationPlan.self
        let writingPlan = path == .plan ? openingPlan : nil
        let oldSchema = path == .plan ? Schema(versionedSchema: RenamesV1.self) : Schema([RenamesV1.Voyage.self, RenamesV1.Cabin.self, RenamesV1.Port.self])
        let newSchema = path == .inferred ? Schema([RenamesV2.Trip.self, RenamesV2.Cabin.self, RenamesV2.Wharf.self]) : Schema(versionedSchema: RenamesV2.self)
        try store.write(oldSchema, plan: writingPlan) { context in
            let med = RenamesV1.Cruise(title: "Med", days: 7, ship: "Aurora")
            let lake = RenamesV1.Voyage(title: "Lake", days: 2)
            let gone = RenamesV1.Voyage(title: "Gone", days: 1)
            let nice = RenamesV1.Port(city: "Nice")
            let genoa = RenamesV1.Port(city: "Genoa")
            for number in [1, 2] {
                let cabin = RenamesV1.Cabin(number: number)
                cabin.voyage = med
                context.insert(cabin)
            }
            nice.voyages = [med, lake]
            genoa.voyages = [med]
            for model in [med, lake, gone] as [RenamesV1.Voyage] { context.insert(model) }
            context.insert(nice)
            context.insert(genoa)
            try context.save()
            context.delete(gone)  // leaves a tombstone of entity "Voyage" with its title
        }

        let container = try store.container(for: newSchema, migrationPlan: openingPlan)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<RenamesV2.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Lake", "Med"])
        #expect(trips.map(\.days) == [2, 7])
        let med = try #require(trips.last as? RenamesV2.CruiseTrip, "the subclass is renamed too")
        #expect(med.shipName == "Aurora")
        #expect(med.persistentModelID.entityName == "CruiseTrip")
        #expect(med.cabins.map(\.number).sorted() == [1, 2])
        #expect(med.harbors.map(\.city).sorted() == ["Genoa", "Nice"])
        #expect(trips[0].harbors.map(\.city) == ["Nice"])
        let wharves = try context.fetch(FetchDescriptor<RenamesV2.Wharf>(sortBy: [SortDescriptor(\.city)]))
        #expect(wharves.map { $0.visits.map(\.name).sorted() } == [["Med"], ["Lake", "Med"]])
        #expect(try context.fetch(FetchDescriptor<RenamesV2.Cabin>()).allSatisfy { $0.trip === med })

        let deletes = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).flatMap(\.changes)
            .compactMap { change -> DefaultHistoryDelete<RenamesV2.Trip>? in
                if case .delete(let delete as DefaultHistoryDelete<RenamesV2.Trip>) = change { return delete }
                return nil
            }
        #expect(deletes.count == 1)
        #expect(deletes.first?.changedPersistentIdentifier.entityName == "Trip")
        #expect(deletes.first?.tombstone[\.name] as? String == "Gone", "tombstones follow the entity and attribute renames")

        let tables = try store.objectNames(type: "table")
        #expect(tables.isSuperset(of: ["Trip", "Cabin", "Wharf", "Trip.harbors"]))
        #expect(tables.isDisjoint(with: ["Voyage", "Port", "Port.voyages"]))
        #expect(try store.objectNames(type: "index").contains("Trip.index(name)"))
        let health = try store.health()
        #expect(health.foreignKeys.isEmpty)
        #expect(health.integrity == ["ok"])
    }

    // MARK: Delete rules, unique constraints, indexes

    private func writePeople(_ store: TestStore, emails: [(String, String)]) throws {
        try store.write(Schema([ConstraintsV1.Person.self, ConstraintsV1.Pet.self])) { context in
            for (email, city) in emails {
                let person = ConstraintsV1.Person(email: email, city: city)
                let pet = ConstraintsV1.Pet(name: "pet of " + email + " in " + city)
                pet.owner = person
                context.insert(person)
                context.insert(pet)
            }
        }
    }

    @Test(arguments: StoreKind.persistent) func aUniqueConstraintIndexesAndADeleteRuleChange(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writePeople(store, emails: [("a@x", "Paris"), ("b@x", "Rome")])
        let container = try store.container(for: Schema([ConstraintsV2.Person.self]))
        let indexes = try store.objectNames(type: "index")
        #expect(indexes.contains("Person.unique(email)"))
        #expect(indexes.contains("Person.index(email,city)"))
        #expect(!indexes.contains("Person.index(city)"))

        let context = ModelContext(container)
        context.insert(ConstraintsV2.Person(email: "a@x", city: "Lyon"))
        try context.save()
        let people = try context.fetch(FetchDescriptor<ConstraintsV2.Person>(sortBy: [SortDescriptor(\.email)]))
        #expect(people.map(\.city) == ["Lyon", "Rome"], "the new unique constraint makes the insert an upsert")
        // The delete rule is now .cascade.
        context.delete(people[1])
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<ConstraintsV2.Pet>()).map(\.name) == ["pet of a@x in Paris"])
    }

    @Test(arguments: StoreKind.persistent) func aNewUniqueConstraintThatStoredRowsViolateFailsNamingTheDuplicates(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writePeople(store, emails: [("a@x", "Paris"), ("a@x", "Rome"), ("b@x", "Oslo"), ("b@x", "Oslo"), ("b@x", "Oslo"), ("c@x", "Nice")])
        let before = try store.snapshot()
        #expect(!store.hasWriteAheadLog)
        let messages = incompatibilities {
            _ = try store.container(for: Schema([ConstraintsV2.Person.self]))
        }
        #expect(messages == [#"Person.email: stored rows violate the new unique constraint: "b@x" in 3 rows, "a@x" in 2 rows"#])
        #expect(try store.snapshot() == before, "the file is untouched")
        // A #Unique group: two rows share ("b@x", "Oslo").
        #expect(incompatibilities {
            _ = try store.container(for: Schema([ConstraintsV3.Person.self]))
        } == [#"Person (email, city): stored rows violate the new unique constraint: ("b@x", "Oslo") in 3 rows"#])
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: StoreKind.persistent) func aDeleteRuleThatRemovesAForeignKeyRebuildsTheTableWithItsRows(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writePeople(store, emails: [("a@x", "Paris"), ("b@x", "Rome")])
        #expect(try store.tableSQL("Pet").contains("REFERENCES"))
        let container = try store.container(for: Schema([ConstraintsV3.Person.self]))
        #expect(!(try store.tableSQL("Pet")).contains("REFERENCES"), ".noAction: the key may dangle")
        #expect(try store.objectNames(type: "index").isSuperset(of: ["Person.unique(email,city)", "Pet.index(owner)"]))
        let context = ModelContext(container)
        let pets = try context.fetch(FetchDescriptor<ConstraintsV3.Pet>(sortBy: [SortDescriptor(\.name)]))
        #expect(pets.map { $0.owner?.email } == ["a@x", "b@x"])
        #expect(try store.health().integrity == ["ok"])
    }

    // MARK: To-one → to-many

    @Test(arguments: StoreKind.persistent) func toOneRelationshipsBecomeToMany(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.write(Schema([ToManyV1.Author.self, ToManyV1.Person.self, ToManyV1.Song.self])) { context in
            let ann = ToManyV1.Author(name: "Ann")
            let bob = ToManyV1.Author(name: "Bob")
            for (title, author) in [("b1", ann), ("b2", ann), ("b3", bob), ("b4", nil)] as [(String, ToManyV1.Author?)] {
                let book = ToManyV1.Book(title: title)
                book.author = author
                context.insert(book)
            }
            let holder = ToManyV1.Person(name: "P1")
            holder.passport = ToManyV1.Passport(number: "X")
            context.insert(holder)
            context.insert(ToManyV1.Person(name: "P2"))
            let first = ToManyV1.Song(title: "s1")
            let second = ToManyV1.Song(title: "s2")
            first.related = second
            second.related = first
            context.insert(first)
            context.insert(ToManyV1.Song(title: "s3"))
        }

        let container = try store.container(for: Schema([ToManyV2.Author.self, ToManyV2.Person.self, ToManyV2.Song.self]))
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<ToManyV2.Book>(sortBy: [SortDescriptor(\.title)]))
        #expect(books.map { $0.authors.map(\.name) } == [["Ann"], ["Ann"], ["Bob"], []], "one-to-many → many-to-many")
        let authors = try context.fetch(FetchDescriptor<ToManyV2.Author>(sortBy: [SortDescriptor(\.name)]))
        #expect(authors.map { $0.books.map(\.title).sorted() } == [["b1", "b2"], ["b3"]])
        let people = try context.fetch(FetchDescriptor<ToManyV2.Person>(sortBy: [SortDescriptor(\.name)]))
        #expect(people.map { $0.passports.map(\.number) } == [["X"], []], "one-to-one → one-to-many")
        let songs = try context.fetch(FetchDescriptor<ToManyV2.Song>(sortBy: [SortDescriptor(\.title)]))
        #expect(songs.map { $0.related.map(\.title) } == [["s2"], ["s1"], []], "to-one without inverse → to-many")

        // Many-to-many now: a second author.
        books[0].authors.append(authors[1])
        try context.save()
        let again = ModelContext(container)
        #expect(try again.fetch(FetchDescriptor<ToManyV2.Book>(sortBy: [SortDescriptor(\.title)])).first?.authors.map(\.name).sorted() == ["Ann", "Bob"])
        let health = try store.health()
        #expect(health.foreignKeys.isEmpty)
        #expect(health.integrity == ["ok"])
    }

    // MARK: What cannot be inferred

    @Test(arguments: StoreKind.persistent) func changesThatCannotBeInferredFailNamingEachAndLeaveTheFileUntouched(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writeItems(store)
        let before = try store.snapshot()
        let messages = incompatibilities {
            _ = try store.container(for: Schema([AttributesV3.Item.self]))
        }
        #expect(messages == ["Item.name: type String → Int", "Item.count: type Int32 → Int8",
                             "Item.rating: new required property without a default value"])
        #expect(try store.snapshot() == before)

        // A to-many relationship that becomes to-one.
        let other = try TestStore(kind)
        try other.write(Schema([ToManyV2.Author.self, ToManyV2.Person.self, ToManyV2.Song.self])) { context in
            context.insert(ToManyV2.Person(name: "P"))
        }
        let otherBefore = try other.snapshot()
        #expect(incompatibilities {
            _ = try other.container(for: Schema([ToManyV3.Author.self, ToManyV3.Person.self, ToManyV3.Song.self]))
        } == ["Person.passports: to-many → to-one"])
        #expect(try other.snapshot() == otherBefore)
    }

    @Test(arguments: StoreKind.persistent) func anUpToDateStoreIsOnlyRead(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try writeItems(store)
        let before = try store.snapshot()
        let container = try store.container(for: Schema([AttributesV1.Item.self]))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<AttributesV1.Item>()) == 2)
        #expect(!store.hasWriteAheadLog, "no write")
        #expect(try store.snapshot() == before)
    }
}
