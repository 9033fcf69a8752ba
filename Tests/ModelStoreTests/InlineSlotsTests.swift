import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A fetched row whose only loaded relationship value is its one to-one key keeps that key in the
/// model, not in an array of its own (`RelationshipSlots`): every read, change, save, rollback,
/// undo, inverse and refresh sees the same values as with the array, on every store.
@Suite struct InlineSlotsTests {
    /// Two trips, two stays of the first, a stay without a trip, an itinerary of the second.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let context = fixture.context
        let first = Trip(name: "First", startDate: Day.at(1), endDate: Day.at(2))
        let second = BusinessTrip(name: "Second", startDate: Day.at(3), endDate: Day.at(4), company: "Acme")
        context.insert(first)
        context.insert(second)
        for name in ["Hut", "Inn"] {
            let stay = Accommodation(name: name)
            context.insert(stay)
            stay.trip = first
        }
        context.insert(Accommodation(name: "Tent"))
        let plan = Itinerary(title: "Plan")
        context.insert(plan)
        plan.trip = second
        try context.save()
        return fixture
    }

    /// The key a slot value holds (nil: none; `.some(nil)`: a nil key).
    static func key(_ value: RelationshipValue) -> Int64?? {
        if case .key(let key) = value { return .some(key) }
        return nil
    }

    static func stays(_ context: ModelContext) throws -> [String: Accommodation] {
        Dictionary(uniqueKeysWithValues: try context.fetch(FetchDescriptor<Accommodation>()).map { ($0.name, $0) })
    }

    static func trip(_ name: String, _ context: ModelContext) throws -> Trip {
        try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).first)
    }

    @Test(arguments: StoreKind.allCases) func fetchedKeysAreInlineAndReadAsStored(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = ModelContext(fixture.container)
        let stays = try Self.stays(context)
        let first = try Self.trip("First", context)
        for stay in stays.values {
            #expect(stay.slotArray.isEmpty && stay.slots.count == 1 && !stay.slots.isEmpty, "inline, one slot")
        }
        #expect(Self.key(try #require(stays["Hut"]).slots[0]) == .some(first.persistentModelID.rowID))
        #expect(Self.key(try #require(stays["Tent"]).slots[0]) == .some(nil))
        let plan = try #require(try context.fetch(FetchDescriptor<Itinerary>()).first)
        #expect(plan.slotArray.isEmpty && plan.slots.count == 1)
        #expect(plan.trip?.name == "Second")
        // Resolving makes the array, holding the model.
        let hut = try #require(stays["Hut"])
        #expect(hut.trip === first)
        #expect(!hut.slotArray.isEmpty)
        if case .object(let related) = hut.slots[0] { #expect(related === first) } else { Issue.record("not resolved") }
        #expect(try #require(stays["Tent"]).trip == nil)
        #expect(Set(first.accommodations.map(\.name)) == ["Hut", "Inn"])
        #expect(first.accommodations.allSatisfy { $0 === stays[$0.name] })
        #expect(!context.hasChanges)
    }

    @Test(arguments: StoreKind.allCases) func changesRollBackAndSave(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = ModelContext(fixture.container)
        let stays = try Self.stays(context)
        let first = try Self.trip("First", context)
        let second = try Self.trip("Second", context)
        let inn = try #require(stays["Inn"])
        let tent = try #require(stays["Tent"])
        // A change of an inline key: the inverse lists follow, the change is pending.
        inn.trip = second
        tent.trip = first
        #expect(inn.hasChanges && tent.hasChanges && context.hasChanges)
        #expect(second.accommodations.map(\.name) == ["Inn"])
        #expect(Set(first.accommodations.map(\.name)) == ["Hut", "Tent"])
        context.rollback()
        #expect(!inn.hasChanges && !tent.hasChanges && !context.hasChanges)
        #expect(inn.trip === first)
        #expect(tent.trip == nil)
        #expect(Set(first.accommodations.map(\.name)) == ["Hut", "Inn"])
        #expect(second.accommodations.isEmpty)
        // Saved: another context reads the new keys.
        inn.trip = second
        tent.trip = first
        try #require(stays["Hut"]).trip = nil
        try context.save()
        let other = ModelContext(fixture.container)
        let saved = try Self.stays(other)
        #expect(saved["Inn"]?.trip?.name == "Second")
        #expect(saved["Tent"]?.trip?.name == "First")
        #expect(saved["Hut"]?.trip == nil)
        #expect(Set(try Self.trip("First", other).accommodations.map(\.name)) == ["Tent"])
    }

    @Test(arguments: StoreKind.allCases) func aFailedTransactionPutsInlineKeysBack(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = ModelContext(fixture.container)
        let stays = try Self.stays(context)
        let second = try Self.trip("Second", context)
        let hut = try #require(stays["Hut"])
        struct Undo: Error {}
        #expect(throws: Undo.self) {
            try context.transaction {
                hut.trip = second
                throw Undo()
            }
        }
        #expect(!hut.hasChanges && !context.hasChanges)
        #expect(hut.trip?.name == "First")
        #expect(second.accommodations.isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aRefetchUpdatesAnInlineKey(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = ModelContext(fixture.container)
        let hut = try #require(try Self.stays(context)["Hut"])
        let writer = ModelContext(fixture.container)
        try #require(try Self.stays(writer)["Hut"]).trip = try Self.trip("Second", writer)
        try writer.save()
        let again = try #require(try Self.stays(context)["Hut"])
        #expect(again === hut)
        #expect(hut.slotArray.isEmpty, "still inline")
        #expect(Self.key(hut.slots[0]) == .some(try Self.trip("Second", context).persistentModelID.rowID))
        #expect(hut.trip?.name == "Second")
    }

    @Test(arguments: StoreKind.allCases) func prefetchAndCascadeDeleteSeeInlineKeys(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = ModelContext(fixture.container)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        let trips = try context.fetch(descriptor)
        #expect(trips.map(\.name) == ["First", "Second"])
        let stays = trips[0].accommodations
        #expect(Set(stays.map(\.name)) == ["Hut", "Inn"])
        #expect(stays.allSatisfy { $0.slotArray.isEmpty && $0.trip === trips[0] })
        context.delete(trips[0])
        try context.save()
        let other = ModelContext(fixture.container)
        #expect(Set(try Self.stays(other).keys) == ["Tent"])
        #expect(stays.allSatisfy { $0.isDeleted })
    }

    @Test(arguments: StoreKind.allCases) func keysBeyond32BitsStayInAnArray(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let big: Int64 = 5_000_000_000
        let first = try Self.trip("First", ModelContext(fixture.container)).persistentModelID.rowID ?? 0
        let raw = try fixture.store.rawConnection(through: fixture.container)
        try raw.beginWriteTransaction()
        try raw.run(#"UPDATE "Trip" SET "$pk" = "# + "\(big) WHERE " + #""$pk" = "# + "\(first)")
        try raw.run(#"UPDATE "Accommodation" SET "trip" = "# + "\(big) WHERE " + #""trip" = "# + "\(first)")
        try raw.commit()
        let context = ModelContext(fixture.container)
        let hut = try #require(try Self.stays(context)["Hut"])
        #expect(!hut.slotArray.isEmpty, "a key beyond 32 bits is kept in the array")
        #expect(Self.key(hut.slots[0]) == .some(big))
        #expect(hut.trip?.name == "First")
        #expect(try #require(try Self.stays(context)["Tent"]).slotArray.isEmpty)
    }

    @Test func theInlineFormReadsAndWritesAsItsArray() {
        #expect(RelationshipSlots.inlineForm(count: 5, slot: 0, key: 1) == nil)
        #expect(RelationshipSlots.inlineForm(count: 2, slot: 1, key: Int64(Int32.max) + 1) == nil)
        #expect(RelationshipSlots.inlineForm(count: 2, slot: 1, key: Int64(Int32.min) - 1) == nil)
        for count in 1...4 {
            for slot in 0..<count {
                for key in [nil, 0, 7, -3, Int64(Int32.max), Int64(Int32.min)] as [Int64?] {
                    let form = RelationshipSlots.inlineForm(count: count, slot: slot, key: key)
                    guard let form else {
                        Issue.record("no inline form for \(count) slots")
                        continue
                    }
                    var slots = RelationshipSlots(array: [], inline: form.inline, key: form.key)
                    #expect(slots.count == count && slots.indices == 0..<count && !slots.isEmpty)
                    for index in 0..<count {
                        if index == slot { #expect(Self.key(slots[index]) == .some(key)) } else { #expect(Self.key(slots[index]) == nil) }
                    }
                    // Another key that fits stays inline; one that does not, or any other value, makes the array.
                    slots[slot] = .key(11)
                    #expect(slots.array.isEmpty && Self.key(slots[slot]) == .some(11))
                    var wide = slots
                    wide[slot] = .key(Int64(Int32.max) + 1)
                    #expect(wide.inline == 0 && wide.array.count == count && Self.key(wide[slot]) == .some(Int64(Int32.max) + 1))
                    var other = slots
                    other[(slot + 1) % count] = .objects([])
                    #expect(other.inline == 0 && other.array.count == count)
                    for index in 0..<count where index != slot && index != (slot + 1) % count {
                        if case .unloaded = other[index] {} else { Issue.record("slot \(index) not unloaded") }
                    }
                    #expect(Self.key(other[slot]) == .some(11) || count == 1)
                    var longer = slots
                    longer.append(contentsOf: [.unloaded])
                    #expect(longer.inline == 0 && longer.count == count + 1 && Self.key(longer[slot]) == .some(11))
                }
            }
        }
    }
}
