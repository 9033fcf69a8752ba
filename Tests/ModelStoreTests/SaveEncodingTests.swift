import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// What a save writes per model, for the paths that keep per-save state instead of per-row work
/// (docs/Benchmarks.md, "Writes"): each prepared insert and update binds through an encoder of its
/// own statement (`RowEncoder.statement`), inserts find their entity's statement by index, and
/// `didSave` lists identifiers made with the store identifier read once. The oracles: what a fresh
/// context reads back is what the models hold, and `didSave` lists the models' `persistentModelID`.
@Suite struct SaveEncodingTests {
    /// Interleaved models of three entities of one table, enough of each for several rows per
    /// statement on PostgreSQL, with `few` of another entity (one statement each there).
    static func insertMixed(into context: ModelContext, each: Int, few: Int) -> [Trip] {
        var trips: [Trip] = []
        for index in 0..<each {
            let start = Day.at(index)
            let trip = Trip(name: "trip \(index)", startDate: start, endDate: Day.at(index + 1))
            let business = BusinessTrip(name: "business \(index)", startDate: start, endDate: Day.at(index + 2), company: "company \(index)")
            business.expenseReport = index % 3 == 0 ? nil : "report \(index)"
            business.meetingAgenda = index % 2 == 0 ? "agenda \(index)" : nil
            let personal = PersonalTrip(name: "personal \(index)", startDate: start, endDate: Day.at(index + 3),
                                        reason: [.vacation, .family, .adventure][index % 3])
            personal.companions = (0..<(index % 4)).map { "friend \($0)" }
            for model in [trip, business, personal] {
                context.insert(model)
                trips.append(model)
            }
        }
        for index in 0..<few { context.insert(Itinerary(title: "itinerary \(index)")) }
        return trips
    }

    /// Every stored attribute of `trip`, as text (an oracle compared across contexts).
    static func values(of trip: Trip) -> String {
        var fields = [trip.name, "\(trip.startDate.timeIntervalSinceReferenceDate)", "\(trip.endDate.timeIntervalSinceReferenceDate)",
                      trip.identifier.uuidString]
        if let business = trip as? BusinessTrip {
            fields += [business.company, business.expenseReport ?? "nil", business.meetingAgenda ?? "nil"]
        }
        if let personal = trip as? PersonalTrip {
            fields += [personal.reason.rawValue, personal.companions.joined(separator: "|")]
        }
        return "\(type(of: trip)) " + fields.joined(separator: ", ")
    }

    /// What a fresh context on `container` reads: each trip's values, by identifier.
    static func stored(in container: ModelContainer) throws -> [PersistentIdentifier: String] {
        let trips = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        return Dictionary(uniqueKeysWithValues: trips.map { ($0.persistentModelID, values(of: $0)) })
    }

    @Test(arguments: StoreKind.allCases, [false, true])
    func interleavedInsertsAndUpdatesStoreWhatTheModelsHold(_ kind: StoreKind, history: Bool) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema, recordsHistory: history)
        let context = ModelContext(container)
        let trips = Self.insertMixed(into: context, each: SaveBatch.fewestRowsTogether + 5, few: 3)
        let itineraries = context.insertedModelsArray.compactMap { $0 as? Itinerary }
        let inserted = try SaveNotificationTests.observing(context) { try context.save() }
        // Inserted in this order: the trips, then the itineraries.
        let savedIDs = trips.map(\.persistentModelID) + itineraries.map(\.persistentModelID)
        #expect(inserted == [.willSave(hadChanges: true), .didSave(inserted: savedIDs, updated: [], deleted: [])])
        #expect(savedIDs.allSatisfy { !$0.isTemporary && $0.storeIdentifier == container.storeIdentifier })
        #expect(try Self.stored(in: container) == Dictionary(uniqueKeysWithValues: trips.map { ($0.persistentModelID, Self.values(of: $0)) }))

        // Updates of different column sets, the entities interleaved: every trip renamed, every
        // other business trip's company and report changed, some personal trips' companions.
        var changed: [Trip] = []
        for (index, trip) in trips.enumerated() {
            if index % 5 == 4 { continue }
            trip.name = "renamed \(index)"
            if let business = trip as? BusinessTrip, index % 2 == 0 {
                business.company = "other \(index)"
                business.expenseReport = business.expenseReport == nil ? "new \(index)" : nil
            }
            if let personal = trip as? PersonalTrip, index % 3 == 0 { personal.companions.append("late \(index)") }
            changed.append(trip)
        }
        let updated = try SaveNotificationTests.observing(context) { try context.save() }
        #expect(updated == [.willSave(hadChanges: true), .didSave(inserted: [], updated: changed.map(\.persistentModelID), deleted: [])])
        #expect(try Self.stored(in: container) == Dictionary(uniqueKeysWithValues: trips.map { ($0.persistentModelID, Self.values(of: $0)) }))

        // Deletes list the models' identifiers as they were.
        let deleted = Array(trips.prefix(4))
        let deletedIDs = deleted.map(\.persistentModelID)
        for trip in deleted { context.delete(trip) }
        let removed = try SaveNotificationTests.observing(context) { try context.save() }
        #expect(removed == [.willSave(hadChanges: true), .didSave(inserted: [], updated: [], deleted: deletedIDs)])
    }

    /// A value the store refuses (PostgreSQL text holding U+0000) among interleaved rows is named
    /// by its entity and property, and nothing is stored (`RowEncoder.problem` asks the statement
    /// of the encoder that bound it).
    @Test(arguments: StoreKind.allCases)
    func aRefusedValueAmongInterleavedRowsNamesItsProperty(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        let trips = Self.insertMixed(into: context, each: SaveBatch.fewestRowsTogether + 2, few: 1)
        let refused = try #require(trips.compactMap { $0 as? BusinessTrip }.dropFirst(7).first)
        refused.meetingAgenda = "before\u{0}after"
        guard kind == .postgresql else {
            try context.save()  // SQLite stores such a text
            #expect(!context.hasChanges)
            return
        }
        #expect {
            try context.save()
        } throws: { error in
            guard case ModelStoreError.unstorableValue(let entity, let property, _) = error else { return false }
            return entity == "BusinessTrip" && property == "meetingAgenda"
        }
        #expect(try Self.stored(in: container).isEmpty)
        #expect(context.hasChanges)
    }

    /// The same among updated rows (bound straight into the rows a statement changes together):
    /// the save asks the rows' statement (`RowEncoder.hasProblem`), names the property and writes
    /// nothing.
    @Test(arguments: StoreKind.allCases)
    func aRefusedValueAmongUpdatedRowsNamesItsProperty(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        let trips = Self.insertMixed(into: context, each: SaveBatch.fewestRowsTogether + 2, few: 1)
        try context.save()
        let before = try Self.stored(in: container)
        for (index, trip) in trips.enumerated() { trip.name = "renamed \(index)" }
        let refused = trips[trips.count / 2]
        refused.name = "before\u{0}after"
        guard kind == .postgresql else {
            try context.save()  // SQLite stores such a text
            #expect(!context.hasChanges)
            return
        }
        #expect {
            try context.save()
        } throws: { error in
            guard case ModelStoreError.unstorableValue(let entity, let property, _) = error else { return false }
            return entity == refused.persistentModelID.entityName && property == "name"
        }
        #expect(try Self.stored(in: container) == before)
        #expect(context.hasChanges)
    }

    /// Inserting a model inserts the detached models it relates to, however the relationship was
    /// set (its own to-one, or its to-many filled through the inverse); a model whose relationships
    /// were never set has none to adopt (`insertObject` skips the walk then).
    @Test(arguments: StoreKind.allCases)
    func insertingAModelInsertsTheModelsItRelatesTo(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        let trip = Trip(name: "with stays", startDate: Day.at(0), endDate: Day.at(1))
        let stays = [Accommodation(name: "inn"), Accommodation(name: "hotel")]
        for stay in stays { stay.trip = trip }  // the trip's list is filled through the inverse
        let lone = Trip(name: "alone", startDate: Day.at(2), endDate: Day.at(3))
        let planned = Trip(name: "planned", startDate: Day.at(4), endDate: Day.at(5))
        let plan = Itinerary(title: "plan")
        plan.trip = planned  // a to-one without inverse
        context.insert(trip)
        context.insert(lone)
        context.insert(plan)
        let expected: [ModelObject] = [trip, lone, plan, planned] + stays
        #expect(Set(context.insertedModelsArray.map { ObjectIdentifier($0._$modelObject) }) == Set(expected.map(ObjectIdentifier.init)))
        #expect(expected.allSatisfy { $0.modelContext === context })
        try context.save()
        let other = ModelContext(container)
        #expect(try other.fetchCount(FetchDescriptor<Accommodation>()) == 2)
        #expect(try other.fetchCount(FetchDescriptor<Trip>()) == 3)
        let stored = try #require(try other.fetch(FetchDescriptor<Itinerary>()).first)
        #expect(stored.trip?.name == "planned")
    }

    /// `Schema.entity(for:)` finds each class's entity, by scanning the classes or (more than
    /// `entitiesFoundByScan` entities) by hashing: the oracle is the entity of that class in `entities`.
    @Test func everyClassFindsItsEntity() throws {
        let schemas = [TripStore.schema, Shop.schema, Birding.schema, SpecAllTypesStore.schema, SpecLanguageStore.schema]
        for schema in schemas {
            for entity in schema.entities {
                let expected = schema.entities.first { ObjectIdentifier($0.type) == ObjectIdentifier(entity.type) }
                #expect(schema.entity(for: entity.type) === expected, "\(entity.name)")
            }
        }
        #expect(Shop.schema.entity(for: Trip.self) == nil)
        #expect(TripStore.schema.entity(for: Product.self) == nil)
        // Every model class of the test module in one schema: past the scan's limit, the dictionary answers.
        let all = Schema(schemas.flatMap { $0.entities.filter { $0.baseName == nil }.map { $0.type as! any PersistentModel.Type } })
        #expect(all.entities.count > Schema.entitiesFoundByScan)
        for entity in all.entities { #expect(all.entity(for: entity.type) === entity, "\(entity.name)") }
        #expect(all.entity(for: ModelObject.self) == nil)
    }
}
