import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A deleted model's tombstone is made from the typed binds of a save (`TombstoneEncoder`), where
/// it was made from the `SQLValue` of each preserved column: both give the same bytes, for every
/// type of attribute (structs, optional structs, arrays, enums, dates, UUIDs, NULLs), and a column
/// changed since the last save gives its saved value. The tombstones of saves on every store are
/// `HistoryTests`', `SaveTests`' and `CascadeBySetTests`'.
@Suite struct TombstoneEncodingTests {
    /// The tombstone the values of `model` make when `preserved` columns are kept: each column's
    /// `SQLValue` as a values-mode encoder writes it (the saved value for a changed one).
    static func expected(_ model: ModelObject, _ entity: EntitySchema, changes: ChangeRecord? = nil, preserved: (AttributeColumn) -> Bool) -> [UInt8] {
        let encoder = RowEncoder(valueCount: entity.attributes.count, positions: entity.attributeValuePositions)
        model._encode(to: encoder)
        let values = encoder.values
        return TombstoneCoding.bytes(entity.attributes.enumerated().filter { preserved($0.element) }.map { column in
            (column.element.name, changes?.savedValue(of: column.offset) ?? values[column.offset])
        })
    }

    static func models() -> [ModelObject] {
        let filled = SpecAllTypesRoundTripTests().makeFilled()
        let plain = SpecEverything(data: Data(), url: SpecAllTypesRoundTripTests.site)
        let species = Species(id: "robin", commonName: "Robin", scientificName: "Erithacus rubecula",
                              plumage: Plumage(primary: Color(red: 1, green: 0.5, blue: 0), secondary: Color(red: 0, green: 0, blue: 1)))
        let plainSpecies = Species(id: "crow", commonName: "Crow", scientificName: "Corvus", plumage: Plumage(primary: Color(red: 0, green: 0, blue: 0)))
        let guided = GuidedSighting(observedAt: Day.at(3), location: nil, guide: "Ann",
                                    meetingPoint: Location(latitude: 51.5, longitude: -0.1, placeName: "Gate"))
        let trip = PersonalTrip(name: "Beach", startDate: Day.at(0), endDate: Day.at(1), reason: .family)
        trip.companions = ["Bo", "Cy"]
        return [filled, plain, species, plainSpecies, guided, trip, SpecTierHolder()]
    }

    static let schemas = [SpecAllTypesStore.schema, Birding.schema, TripStore.schema, SpecLanguageStore.schema]

    static func entity(of model: ModelObject) throws -> EntitySchema {
        try #require(schemas.lazy.compactMap { $0.entity(for: type(of: model)) }.first)
    }

    @Test func everyColumnPreservedGivesTheValuesTombstone() throws {
        for model in Self.models() {
            let entity = try Self.entity(of: model)
            let encoder = try #require(TombstoneEncoder(entity, preserves: { _ in true }))
            #expect(encoder.encode(model, changes: nil) { Array($0) } == Self.expected(model, entity, preserved: { _ in true }), "\(entity.name)")
            // The encoder's buffer is reused: a second model's tombstone holds nothing of the first's.
            #expect(encoder.encode(model, changes: nil) { Array($0) } == Self.expected(model, entity, preserved: { _ in true }), "\(entity.name), again")
        }
    }

    /// Every other column preserved (parts of a struct among them), then the model's own preserved ones.
    @Test func someColumnsPreservedGiveTheValuesTombstone() throws {
        for model in Self.models() {
            let entity = try Self.entity(of: model)
            let names = Set(entity.attributes.enumerated().filter { $0.offset % 2 == 1 }.map(\.element.column))
            let some: (AttributeColumn) -> Bool = { names.contains($0.column) }
            if let encoder = TombstoneEncoder(entity, preserves: some) {
                #expect(encoder.encode(model, changes: nil) { Array($0) } == Self.expected(model, entity, preserved: some), "\(entity.name)")
            } else {
                #expect(names.isEmpty)
            }
            let own: (AttributeColumn) -> Bool = { $0.metadata.options.contains(.preserveValueOnDeletion) }
            if let encoder = TombstoneEncoder(entity) {
                #expect(encoder.encode(model, changes: nil) { Array($0) } == Self.expected(model, entity, preserved: own), "\(entity.name)")
            } else {
                #expect(!entity.attributes.contains(where: own), "\(entity.name) preserves nothing")
            }
        }
    }

    /// A column changed since the last save is recorded with its saved value; the others with
    /// their values in memory.
    @Test func changedColumnsGiveTheirSavedValues() throws {
        for model in Self.models() {
            let entity = try Self.entity(of: model)
            let last = entity.attributes.count - 1
            let log = ChangeLog()
            log.record(model, column: 0, savedValue: .text("saved"))
            log.record(model, column: last, savedValue: .null)
            defer { model.changeEntry = 0 }
            let changes = try #require(log.record(of: model))
            let encoder = try #require(TombstoneEncoder(entity, preserves: { _ in true }))
            let tombstone = encoder.encode(model, changes: changes) { Array($0) }
            #expect(tombstone == Self.expected(model, entity, changes: changes, preserved: { _ in true }), "\(entity.name)")
            let values = try #require(TombstoneCoding.decode(Data(tombstone)))
            #expect(values.first?.value == .text("saved") && values.last?.value == .null, "\(entity.name)")
        }
    }
}
