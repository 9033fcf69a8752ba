import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// What a save writes per model, for the paths that keep per-save state instead of per-row work
/// (docs/Benchmarks.md, "Writes"): each prepared insert and update binds through an encoder of its
/// own statement (`RowEncoder.statement`), inserts find their entity's statement by index, and
/// `didSave` lists identifiers made with the store identifier read once. The oracles: what a fresh
/// context reads back is what the models hold, and `didSave` lists the models' `persistentModelID`.
@Suite struct SaveEncodingTests {
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
