import Foundation
import Testing
@testable import ModelGenKit

/// The importer's oracle (docs/CommandLine.md "modelgen import"): for every sample and test model,
/// the checked schema written as SwiftData source (`SwiftDataPrinter`) and imported back checks to
/// the same schema. Places (ranges) differ by nature; containers and an entity's `originalName`
/// have no SwiftData spelling and are left out on both sides.
@Suite struct ImportRoundTripTests {
    /// Every checked-in model of the repository that checks, by folder (a folder's `.model` files form
    /// one schema), and the all-types model of the generated goldens.
    static let models: [String] = {
        let root = GoldenTests.packageRoot
        let folders = [
            "Samples", "Samples/TripsDemo/Sources/TripsDemo", "Samples/MigrationDemo/Sources/MigrationDemo",
            "Samples/MemoriesDemo/Sources/MemoriesDemo",
            "Tests/ModelStoreTests/Fixtures", "Tests/Helpers/CrashMigrator", "Tests/Helpers/UpsertWriter",
            "Tests/IntegrationTests/Fixtures/PublicModels/Sources/Catalog",
            "Tests/ModelGenKitTests/Formatting/Goldens",
        ] + ["Attributes", "Changes", "Composite", "Constraints", "Entities", "Memo", "Notes", "Renames", "ToMany"].map {
            "Tests/ModelGenKitTests/History/Fixtures/\($0)"
        }
        var models: [String] = []
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            models += names.filter { $0.hasSuffix(".model") }.sorted().map { folder + "/" + $0 }
        }
        return models
    }()

    @Test func theModelsAreFound() {
        #expect(Self.models.count >= 20)
    }

    @Test(arguments: models)
    func importOfThePrintedSchemaChecksToTheSameSchema(_ relativePath: String) throws {
        let url = GoldenTests.packageRoot.appendingPathComponent(relativePath)
        let text = try String(contentsOf: url, encoding: .utf8)
        try roundTrip(SourceFile(path: url.lastPathComponent, text: text))
    }

    @Test func theAllTypesModelRoundTrips() throws {
        try roundTrip(SourceFile(path: AllTypesGoldenTests.path, text: AllTypesGoldenTests.source))
    }

    private func roundTrip(_ model: SourceFile) throws {
        let original = Run.lint([model])
        let schema = try #require(original.schema, "\(model.path) does not check: \(original.diagnostics)")
        let swift = SwiftDataPrinter.print(schema)
        let imported = try ModelGen.import([SourceFile(path: "Models.swift", text: swift)], into: "Out")
        #expect(!imported.messages.contains { $0.severity == .error }, "\(imported.messages)")
        let lint = Run.lint(imported.modelSources.filter { $0.path.hasSuffix(".model") })
        let back = try #require(lint.schema, "the import of \(model.path) does not check: \(lint.diagnostics)\n\(imported.files.map(\.text).joined())\n\(swift)")
        #expect(Self.comparable(back) == Self.comparable(Self.usedTypesOnly(schema)), "\(model.path):\n\(swift)\n\(imported.files.map(\.text).joined())")
    }

    /// The schema without the top-level enums and structs no entity uses, directly or through another
    /// type: the importer takes only the types the models use (an app's other Codable types stay Swift).
    static func usedTypesOnly(_ schema: CheckedSchema) -> CheckedSchema {
        var used = Set<String>()
        func use(_ type: ValueType) {
            switch type {
            case .enumeration(let name, _), .enumWithAssociatedValues(let name):
                guard used.insert(name).inserted else { return }
                schema.enumeration(named: name)?.cases.forEach { $0.associatedValues.forEach { use($0.type) } }
            case .composite(let name):
                guard used.insert(name).inserted else { return }
                schema.structure(named: name)?.fields.forEach { use($0.type) }
            case .array(let element): use(element)
            default: break
            }
        }
        for entity in schema.entities {
            for property in entity.properties {
                if case .attribute(let attribute) = property.kind { use(attribute.type) }
            }
            entity.structs.forEach { $0.fields.forEach { use($0.type) } }
            entity.enums.forEach { $0.cases.forEach { $0.associatedValues.forEach { use($0.type) } } }
        }
        var schema = schema
        schema.enums = schema.enums.filter { used.contains($0.qualifiedName) }
        schema.structs = schema.structs.filter { used.contains($0.qualifiedName) }
        return schema
    }

    /// The schema without places, containers and entity renames (which SwiftData source does not hold).
    static func comparable(_ schema: CheckedSchema) -> CheckedSchema {
        let nowhere = SourceRange(file: "", start: SourceLocation(line: 1, column: 1, offset: 0), end: SourceLocation(line: 1, column: 1, offset: 0))
        func place(_ item: CheckedEnum) -> CheckedEnum {
            var item = item
            item.range = nowhere
            return item
        }
        func place(_ item: CheckedStruct) -> CheckedStruct {
            var item = item
            item.range = nowhere
            item.fields = item.fields.map {
                var field = $0
                field.range = nowhere
                return field
            }
            return item
        }
        var schema = schema
        schema.containers = []
        schema.modelActors = schema.modelActors.map {
            var actor = $0
            actor.range = nowhere
            return actor
        }
        schema.enums = schema.enums.map(place)
        schema.structs = schema.structs.map(place)
        schema.entities = schema.entities.map { entity in
            var entity = entity
            entity.range = nowhere
            entity.originalName = nil
            entity.enums = entity.enums.map(place)
            entity.structs = entity.structs.map(place)
            entity.properties = entity.properties.map {
                var property = $0
                property.range = nowhere
                return property
            }
            return entity
        }
        return schema
    }
}
