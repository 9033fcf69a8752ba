import Foundation
import Testing
@testable import ModelGenKit

@Suite struct TemplateOverrideTests {
    private let input = ModelSource(path: "Trips.model", text: "")

    @Test func builtinTemplatesAreEmbedded() {
        #expect(Set(TemplateSet.builtin.keys).isSuperset(of: ["file", "entity", "property", "initializer", "persistence", "enum", "container"]))
    }

    @Test func everyBuiltinTemplateParses() throws {
        for (name, text) in TemplateSet.builtin {
            #expect(throws: Never.self, "\(name)") { try MustacheTemplate(text) }
        }
    }

    @Test func overrideExtendsTheBuiltinEntityThroughABlock() throws {
        // The example of docs/Generation.md.
        let templates = TemplateSet(overrides: [
            "entity": """
                {{<entity}}
                {{$members}}
                    /// The entity's name as stored.
                    {{access}}static let entityName = {{nameLiteral}}
                {{/members}}
                {{/entity}}

                """,
        ])
        let text = try CodeGenerator(schema: SchemaFixtures.trips, templates: templates).generate(input)
        let plain = try CodeGenerator(schema: SchemaFixtures.trips).generate(input)
        let added = """
            { _$schemaMetadata }

                /// The entity's name as stored.
                internal static let entityName = "BusinessTrip"
            }

            """
        #expect(text.contains(added))
        #expect(text.components(separatedBy: "static let entityName").count == 5)
        // Everything else is the built-in output.
        let removed = text.replacingOccurrences(
            of: #"\n\n    /// The entity's name as stored\.\n    internal static let entityName = "\w+""#, with: "",
            options: .regularExpression)
        #expect(removed == plain)
    }

    @Test func overrideReplacesATemplateWhole() throws {
        let templates = TemplateSet(overrides: ["container": "enum {{swiftName}}Names { static let all = [{{#entities}}{{nameLiteral}}{{^isLast}}, {{/isLast}}{{/entities}}] }"])
        let text = try CodeGenerator(schema: SchemaFixtures.trips, templates: templates).generate(input)
        #expect(text.contains("enum TripStoreNames { static let all = [\"Trip\", \"BusinessTrip\", \"PersonalTrip\", \"Accommodation\"] }\n"))
        #expect(!text.contains("ModelStore.Schema("))
    }

    @Test func overridesAreLoadedFromAFolder() throws {
        let directory = try TemporaryDirectory()
        try Data("{{<file}}{{$header}}// Custom{{/header}}{{/file}}".utf8).write(to: directory.file("file.mustache"))
        try Data("not a template".utf8).write(to: directory.file("notes.txt"))
        let templates = try TemplateSet(overridesIn: directory.url)
        #expect(Array(templates.overrides.keys) == ["file"])
        let text = try CodeGenerator(schema: SchemaFixtures.trips, templates: templates).generate(input)
        #expect(text.hasPrefix("// Custom\n\nimport Foundation\n"))
    }

    @Test func brokenOverrideIsRejectedWhenLoaded() throws {
        let directory = try TemporaryDirectory()
        try Data("{{#entities}}".utf8).write(to: directory.file("file.mustache"))
        #expect(throws: TemplateError.self) { try TemplateSet(overridesIn: directory.url) }
    }

    @Test func missingFolderIsAnError() {
        #expect(throws: TemplateError.self) { try TemplateSet(overridesIn: URL(fileURLWithPath: "/nonexistent/templates")) }
    }

    @Test func generationIsDeterministic() throws {
        let first = try CodeGenerator(schema: SchemaFixtures.trips).generate(input)
        for _ in 0..<3 {
            #expect(try CodeGenerator(schema: SchemaFixtures.trips).generate(input) == first)
        }
    }
}
