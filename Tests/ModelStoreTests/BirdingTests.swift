import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The Birding sample (`Samples/Birding.model`, generated `Generated/Birding.model.swift`) against a
/// real SQLite file: structs stored as columns (nested, optional, in arrays), a declared `id` that
/// is the model's `Identifiable.id`, `TimeInterval`, an enum with associated values, a subclass
/// with a struct of its own.
@Suite struct BirdingTests {
    let store: TemporaryStore
    let container: ModelContainer

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: Birding.schema, configurations: store.configuration)
    }

    static let red = Color(red: 0.8, green: 0.1, blue: 0.1)
    static let brown = Color(red: 0.5, green: 0.35, blue: 0.2)

    @Test("Every kind of value comes back as it was saved")
    func roundTrip() throws {
        let context = ModelContext(container)
        let robin = Species(id: "robin", commonName: "Robin", scientificName: "Erithacus rubecula",
                            plumage: Plumage(primary: Self.brown, secondary: Self.red, pattern: .plain))
        robin.wingspan = 21.5
        let wren = Species(id: "wren", commonName: "Wren", scientificName: "Troglodytes troglodytes",
                           plumage: Plumage(primary: Self.brown, pattern: .barred))
        let seen = Sighting(observedAt: Day.at(3), location: Location(latitude: 51.5, longitude: -0.12, placeName: "Marsh"))
        seen.duration = 95.25
        seen.count = 2
        seen.conditions = Conditions()  // noted as unknown: not nil
        seen.weather = .wind(speed: 12.5, gusts: nil)
        seen.photos = [Photo(fileName: "a.jpg", width: 4000, height: 3000), Photo(fileName: "b.jpg", width: 10, height: 20)]
        seen.notes = "by the gate"
        seen.species = robin
        let bare = Sighting(observedAt: Day.at(4), location: nil)
        bare.weather = .rain(millimetres: 3)
        bare.species = wren
        let walk = GuidedSighting(observedAt: Day.at(5), location: Location(latitude: 48.1, longitude: 11.5),
                                  guide: "Ana", meetingPoint: Location(latitude: 48.2, longitude: 11.6, placeName: "Car park"))
        walk.conditions = Conditions(temperature: -2.5, visibility: nil)
        walk.species = robin
        for model in [robin, wren] { context.insert(model) }
        for model in [seen, bare, walk] { context.insert(model) }
        try context.save()
        let ids = (seen.id, bare.id, walk.id)

        let reader = ModelContext(container)
        let species = try reader.fetch(FetchDescriptor<Species>(sortBy: [SortDescriptor(\.id)]))
        #expect(species.map(\.id) == ["robin", "wren"])
        #expect(species[0].plumage == Plumage(primary: Self.brown, secondary: Self.red, pattern: .plain))
        #expect(species[0].wingspan == 21.5)
        #expect(species[1].plumage.secondary == nil && species[1].plumage.pattern == .barred)
        #expect(species[1].wingspan == nil)
        let sightings = try reader.fetch(FetchDescriptor<Sighting>(sortBy: [SortDescriptor(\.observedAt)]))
        #expect(sightings.map(\.id) == [ids.0, ids.1, ids.2])
        let first = sightings[0]
        #expect(first.location == Location(latitude: 51.5, longitude: -0.12, placeName: "Marsh"))
        #expect(first.duration == 95.25 && first.count == 2)
        #expect(first.conditions == Conditions(), "an all-nil struct is not nil")
        #expect(first.weather == .wind(speed: 12.5, gusts: nil))
        #expect(first.photos == [Photo(fileName: "a.jpg", width: 4000, height: 3000), Photo(fileName: "b.jpg", width: 10, height: 20)])
        #expect(first.notes == "by the gate")
        #expect(first.species?.id == "robin")
        let second = sightings[1]
        #expect(second.location == nil && second.conditions == nil)
        #expect(second.weather == .rain(millimetres: 3))
        #expect(second.photos.isEmpty && second.count == 1 && second.duration == 0)
        let guided = try #require(sightings[2] as? GuidedSighting)
        #expect(guided.guide == "Ana")
        #expect(guided.meetingPoint == Location(latitude: 48.2, longitude: 11.6, placeName: "Car park"))
        #expect(guided.location == Location(latitude: 48.1, longitude: 11.5))
        #expect(guided.conditions == Conditions(temperature: -2.5, visibility: nil))
        #expect(Set(species[0].sightings.map(\.id)) == [ids.0, ids.2])
    }

    @Test("An optional struct's presence column keeps nil and an all-nil struct apart; fields are columns")
    func storedColumns() throws {
        let context = ModelContext(container)
        let unknown = Sighting(observedAt: Day.at(1), location: nil)
        unknown.conditions = Conditions()
        let none = Sighting(observedAt: Day.at(2), location: Location(latitude: 1.5, longitude: 2.5))
        context.insert(unknown)
        context.insert(none)
        try context.save()
        let rows = try store.rawConnection().rows(
            #"SELECT "conditions", "conditions.temperature", "location", "location.latitude", "location.placeName", "weather", "photos" FROM "Sighting" ORDER BY "observedAt""#)
        #expect(rows == [
            [.integer(1), .null, .null, .null, .null, .text(#"{"clear":{}}"#), .text("[]")],
            [.null, .null, .integer(1), .real(1.5), .null, .text(#"{"clear":{}}"#), .text("[]")],
        ])
    }

    @Test("Changing one field of a struct writes the struct's columns only; rollback restores it")
    func structChanges() throws {
        let context = ModelContext(container)
        let robin = Species(id: "robin", commonName: "Robin", scientificName: "Erithacus rubecula", plumage: Plumage(primary: Self.brown))
        context.insert(robin)
        try context.save()
        let other = ModelContext(container)
        let copy = try #require(try other.fetch(FetchDescriptor<Species>()).first)
        robin.plumage.secondary = Self.red
        copy.commonName = "European robin"
        try other.save()
        try context.save()
        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Species>()).first)
        #expect(stored.plumage.secondary == Self.red)
        #expect(stored.commonName == "European robin", "the update of plumage wrote commonName too")
        robin.plumage.primary.red = 0
        robin.plumage.secondary = nil
        context.rollback()
        #expect(robin.plumage == Plumage(primary: Self.brown, secondary: Self.red))
        #expect(!context.hasChanges)
    }

    @Test("The declared id is the model's Identifiable id; persistentModelID stays the row's")
    func declaredID() throws {
        let context = ModelContext(container)
        let robin = Species(id: "robin", commonName: "Robin", scientificName: "Erithacus rubecula", plumage: Plumage(primary: Self.brown))
        context.insert(robin)
        try context.save()
        func identity<T: Identifiable>(_ value: T) -> T.ID { value.id }
        #expect(identity(robin) == "robin")
        #expect(robin.persistentModelID.entityName == "Species" && robin.persistentModelID.rowID != nil)
        let found = try context.fetch(FetchDescriptor<Species>(predicate: #Predicate { $0.id == "robin" }))
        #expect(found.first === robin)
    }

    @Test("An insert with an existing unique user id updates that row (upsert), in another context and in the same one")
    func upsertOnUserID() throws {
        let first = ModelContext(container)
        let robin = Species(id: "robin", commonName: "Robin", scientificName: "Erithacus rubecula", plumage: Plumage(primary: Self.brown))
        first.insert(robin)
        let seen = Sighting(observedAt: Day.at(1), location: nil)
        seen.species = robin
        first.insert(seen)
        try first.save()

        let second = ModelContext(container)
        second.insert(Species(id: "robin", commonName: "European robin", scientificName: "Erithacus rubecula",
                              plumage: Plumage(primary: Self.brown, secondary: Self.red, pattern: .spotted)))
        try second.save()
        let reader = ModelContext(container)
        let all = try reader.fetch(FetchDescriptor<Species>())
        #expect(all.count == 1)
        #expect(all.first?.commonName == "European robin")
        #expect(all.first?.plumage.secondary == Self.red && all.first?.plumage.pattern == .spotted)
        #expect(all.first?.sightings.count == 1, "the row kept its key: its sightings still point at it")

        // In the context that holds the row's model: the new model takes the row, the old one leaves.
        let replacement = Species(id: "robin", commonName: "Robin redbreast", scientificName: "Erithacus rubecula", plumage: Plumage(primary: Self.red))
        first.insert(replacement)
        try first.save()
        #expect(replacement.persistentModelID == robin.persistentModelID)
        #expect(robin.modelContext == nil)
        let final = try ModelContext(container).fetch(FetchDescriptor<Species>())
        #expect(final.map(\.commonName) == ["Robin redbreast"])
        #expect(final.first?.plumage.primary == Self.red)
    }

    @Test("A struct field that cannot be stored (NaN) is refused by save(), naming the attribute")
    func unstorableField() throws {
        let context = ModelContext(container)
        context.insert(Sighting(observedAt: Day.at(1), location: Location(latitude: .nan, longitude: 0)))
        #expect {
            try context.save()
        } throws: { error in
            guard case ModelStoreError.unstorableValue(let entity, let property, _) = error else { return false }
            return entity == "Sighting" && property == "location"
        }
        let other = ModelContext(container)
        let rain = Sighting(observedAt: Day.at(1), location: nil)
        rain.weather = .rain(millimetres: .infinity)
        other.insert(rain)
        #expect {
            try other.save()
        } throws: { error in
            guard case ModelStoreError.unstorableValue(_, let property, _) = error else { return false }
            return property == "weather"
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Sighting>()) == 0)
    }
}
