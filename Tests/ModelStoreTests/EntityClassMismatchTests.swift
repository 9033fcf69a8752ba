import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A model class whose entity the container has with another class (#27): the error names both
/// classes and the version, never "not in the container's schema".
@Suite struct EntityClassMismatchTests {
    @Test(arguments: StoreKind.allCases) func anotherVersionsClassIsNamedWithTheSchemasClassAndVersion(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Schema(versionedSchema: SchemaV3_0_0.self))
        let context = ModelContext(container)
        context.insert(SchemaV2_0_0.Trip(name: "Paris", duration: 3))
        do {
            try context.save()
            Issue.record("a model of another version's class was saved")
        } catch let error as ModelStoreError {
            guard case .entityClassMismatch(let entity, let modelClass, let schemaClass, let version) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(entity == "Trip")
            #expect(modelClass.hasSuffix("SchemaV2_0_0.Trip"))
            #expect(schemaClass.hasSuffix("SchemaV3_0_0.Trip"))
            #expect(version == "3.0.0")
            #expect(error.description.contains("version 3.0.0") && error.description.contains("SchemaV2_0_0.Trip"))
        }
        do {
            _ = try context.fetch(FetchDescriptor<SchemaV2_0_0.Trip>())
            Issue.record("a fetch of another version's class ran")
        } catch let error as ModelStoreError {
            guard case .entityClassMismatch = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        // A class the schema does not have at all is still `unknownEntity`.
        #expect(throws: ModelStoreError.unknownEntity("Product")) { _ = try context.fetch(FetchDescriptor<Product>()) }
    }
}
