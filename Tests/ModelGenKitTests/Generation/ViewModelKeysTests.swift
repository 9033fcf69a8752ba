import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

/// The view model's key lists are the one definition of what templates can read: docs/Generation.md's
/// key tables are made from them, and rendering through them equals rendering the same keys as
/// plain dictionaries (the Mustache spec's own semantics).
@Suite struct ViewModelKeysTests {
    /// Each view-model type with the heading docs/Generation.md gives it, in the docs' order.
    static let documentedTypes: [(heading: String, keys: [(name: String, summary: String)], isListElement: Bool)] = [
        table("File: the root of each generated file (template `file`)", FileViewModel.templateKeys),
        table("Type alias (a `.model` file's `typeAliases`)", TypeAliasViewModel.templateKeys),
        table("Entity (templates `entity`, `persistence`)", EntityViewModel.templateKeys),
        table("Property (template `property`; the property lists of an entity)", PropertyViewModel.templateKeys),
        table("Init (template `initializer`)", InitializerViewModel.templateKeys),
        table("Parameter (an init's `parameters`)", ParameterViewModel.templateKeys),
        table("Assignment (an init's `assignments`, `assignmentsAfterSuperInit`)", AssignmentViewModel.templateKeys),
        table("Key-path group (an entity's `uniqueConstraints`, `indexes`)", KeyPathGroupViewModel.templateKeys),
        table("Enum (template `enum`)", EnumViewModel.templateKeys),
        table("Enum case (an enum's `cases`)", EnumCaseViewModel.templateKeys),
        table("Struct (template `struct`)", StructViewModel.templateKeys),
        table("Struct field (a struct's `fields`)", StructFieldViewModel.templateKeys),
        table("Field path (a struct attribute's `fieldPaths`)", FieldPathViewModel.templateKeys),
        table("Container (template `container`)", ContainerViewModel.templateKeys),
        table("Model actor (a file's `modelActors`)", ModelActorViewModel.templateKeys),
        table("Name (`subclasses`, `superArguments`, a container's entities, a group's properties)", NameViewModel.templateKeys),
        table("Version (template `version`; a `.modelversion` file's `version`)", VersionViewModel.templateKeys),
        table("Plan (template `plan`; the newest version's file's `plans`)", PlanViewModel.templateKeys),
        table("Version reference (a plan's `versions`)", VersionReferenceViewModel.templateKeys),
        table("Step (a plan's `steps`, `customSteps`)", StepViewModel.templateKeys),
    ]

    static func table<Model>(_ heading: String, _ keys: TemplateKeys<Model>) -> (String, [(String, String)], Bool) {
        (heading, keys.keys.map { ($0.name, $0.summary) }, keys.isListElement)
    }

    static let docs = GoldenTests.packageRoot.appendingPathComponent("docs/Generation.md")
    static let startMarker = "<!-- view-model keys: made from the key lists in Sources/ModelGenKit/Generation/ViewModel/ViewModels.swift; MODELGEN_UPDATE_GOLDENS=1 swift test --filter ViewModelKeysTests rewrites them -->"
    static let endMarker = "<!-- end of view-model keys -->"

    /// The key tables as docs/Generation.md shows them.
    static func markdown() -> String {
        var lines: [String] = []
        for type in documentedTypes {
            lines += ["", "#### \(type.heading)", "", "| key | value |", "|---|---|"]
            lines += type.keys.map { "| `\($0.name)` | \($0.summary) |" }
            if type.isListElement {
                lines.append("| `index`, `isFirst`, `isLast` | its place in the list (as every list element) |")
            }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    @Test func docsListEveryKeyOfEveryViewModel() throws {
        let text = try String(contentsOf: Self.docs, encoding: .utf8)
        let start = try #require(text.range(of: Self.startMarker), "docs/Generation.md lacks the key tables' start marker")
        let end = try #require(text.range(of: Self.endMarker), "docs/Generation.md lacks the key tables' end marker")
        let current = String(text[start.upperBound..<end.lowerBound])
        let expected = Self.markdown()
        if GoldenTests.updating {
            try Data((text[..<start.upperBound] + expected + text[end.lowerBound...]).utf8).write(to: Self.docs)
            return
        }
        #expect(current == expected, """
            docs/Generation.md's key tables differ from the key lists \
            (- docs, + lists; MODELGEN_UPDATE_GOLDENS=1 rewrites them):
            \(TextDiff.lines(expected: current, actual: expected))
            """)
    }

    @Test func keysAreUniquePerType() {
        for type in Self.documentedTypes {
            let names = type.keys.map(\.name) + (type.isListElement ? ["index", "isFirst", "isLast"] : [])
            #expect(Set(names).count == names.count, "\(type.heading)")
        }
    }

    /// Rendering the built-in templates through the view models equals rendering the same keys
    /// turned into plain dictionaries (each list element with its `index`, `isFirst`, `isLast`),
    /// for every sample, the spec's all-types model and the fixture schemas, at every access level.
    @Test func typedRenderEqualsDictionaryRender() throws {
        var schemas: [(CheckedSchema, String)] = [(SchemaFixtures.keywords, "Test.model"), (SchemaFixtures.trips, "Trips.model")]
        for sample in try GoldenTests.samples() {
            let path = "Samples/" + sample
            let data = try Data(contentsOf: GoldenTests.packageRoot.appendingPathComponent(path))
            schemas.append((try #require(Run.lint([SourceFile(path: path, bytes: Array(data))]).schema), path))
        }
        let allTypes = Run.lint([SourceFile(path: AllTypesGoldenTests.path, text: AllTypesGoldenTests.source)])
        schemas.append((try #require(allTypes.schema), AllTypesGoldenTests.path))
        for (schema, path) in schemas {
            for access in AccessLevel.allCases {
                let source = ModelSource(path: path, text: "")
                let typed = try CodeGenerator(schema: schema, accessLevel: access).generate(source)
                let file = GenerationContext(schema: schema, accessLevel: access).file(source)
                let renderer = TemplateSet().renderer()
                let plain = SourceLayout.tidy(try renderer.render(templateNamed: "file", with: Self.dictionary(file, at: nil)))
                #expect(typed == plain, "\(path) at \(access)")
                #expect(typed.contains("class ") || schema.entities.allSatisfy { $0.range.file != path })
            }
        }
    }

    /// A view model as a plain dictionary of its keys (list elements with their position keys).
    static func dictionary<Model: ViewModel>(_ model: Model, at position: ListPosition?) -> MustacheValue {
        var members: [String: MustacheValue] = [:]
        for key in Model.templateKeys.keys {
            members[key.name] = plain(key.read(model))
        }
        if Model.templateKeys.isListElement, let position {
            members["index"] = .int(position.index)
            members["isFirst"] = .bool(position.index == 0)
            members["isLast"] = .bool(position.index == position.count - 1)
        }
        return .dictionary(members)
    }

    static func plain(_ value: TemplateValue) -> MustacheValue {
        switch value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .object(let object as any ViewModel): return dictionary(object, at: nil)
        case .object(let object): return object as? MustacheValue ?? .null
        case .list(let list):
            return .array((0..<list.count).map { index in
                if case .object(let object as any ViewModel) = list.element(at: index) {
                    return dictionary(object, at: ListPosition(index: index, count: list.count))
                }
                return plain(list.element(at: index))
            })
        }
    }
}
