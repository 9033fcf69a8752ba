import Foundation
import Testing
@testable import ModelGenKit

/// The view model's direct `mustacheValue` (what `CodeGenerator` renders) is exactly what its
/// `Encodable` form gives through `MustacheValueEncoder`: same keys, same values, every level.
@Suite struct ViewModelMustacheValueTests {
    @Test(arguments: try GoldenTests.samples())
    func directValueEqualsEncodedValue(_ fileName: String) throws {
        let path = "Samples/" + fileName
        let data = try Data(contentsOf: GoldenTests.packageRoot.appendingPathComponent(path))
        let result = LintRun.run([SourceFile(path: path, bytes: Array(data))])
        let schema = try #require(result.schema)
        for access in [AccessLevel.internal, .public] {
            let model = SchemaTranslator(schema: schema, accessLevel: access).file(ModelSource(path: path, text: ""))
            #expect(!model.entities.isEmpty)
            #expect(model.mustacheValue == (try MustacheValueEncoder.encode(model)))
        }
    }

    @Test func specAllTypesModel() throws {
        let result = LintRun.run([SourceFile(path: AllTypesGoldenTests.path, bytes: Array(AllTypesGoldenTests.source.utf8))])
        let schema = try #require(result.schema)
        let model = SchemaTranslator(schema: schema, accessLevel: .package).file(ModelSource(path: AllTypesGoldenTests.path, text: ""))
        #expect(model.entities.count > 2)
        #expect(model.mustacheValue == (try MustacheValueEncoder.encode(model)))
    }

    @Test func fixtureSchemasToo() throws {
        for schema in [SchemaFixtures.keywords, SchemaFixtures.trips] {
            let model = SchemaTranslator(schema: schema, accessLevel: .internal).file(ModelSource(path: "Test.model", text: ""))
            #expect(model.mustacheValue == (try MustacheValueEncoder.encode(model)))
        }
    }
}
