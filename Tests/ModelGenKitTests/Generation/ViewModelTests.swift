import Testing
@testable import ModelGenKit

extension ViewModel {
    /// The value templates see for `key` (as on a list element when `position` is given).
    subscript(key: String, at position: ListPosition? = nil) -> TemplateValue? {
        member(TemplateName(key), at: position)
    }
}

extension TemplateValue {
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var flag: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// A list's elements (empty for anything else).
    var items: [TemplateValue] {
        guard case .list(let list) = self else { return [] }
        return (0..<list.count).map(list.element(at:))
    }

    /// The member `key` of an object.
    subscript(key: String) -> TemplateValue? {
        guard case .object(let object) = self else { return nil }
        return object.member(TemplateName(key), at: nil)
    }
}

@Suite struct ViewModelTests {
    private let context = GenerationContext(schema: SchemaFixtures.keywords, accessLevel: .internal)

    @Test(arguments: [("default", "`default`"), ("Type", "`Type`"), ("self", "`self`"), ("name", "name"), ("group", "group")])
    func keywordsAreEscaped(_ name: String, _ expected: String) {
        #expect(SwiftIdentifier.escaped(name) == expected)
    }

    @Test func viewModelEscapesEveryKeyword() throws {
        let file = context.file(ModelSource(path: "Test.model", text: ""))
        let entity = try #require(file.entities.first)
        #expect(entity["swiftName"]?.text == "`Protocol`")
        let properties = entity["properties"]?.items ?? []
        #expect(properties.map { $0["swiftName"]?.text } == ["`default`", "`self`", "`class`"])
        #expect(properties.map { $0["nameLiteral"]?.text } == ["\"default\"", "\"self\"", "\"class\""])
        #expect(properties[2]["defaultExpression"]?.text == ".`default`")
        #expect(properties[2]["type"]?.text == "`Type`")
        let cases = entity["enums"]?.items.first?["cases"]?.items ?? []
        #expect(cases.map { $0["swiftName"]?.text } == ["`default`", "`case`"])
        #expect(cases.map { $0["hasExplicitRawValue"]?.flag } == [false, true])
        let initializer = try #require(entity.initializers.first)
        #expect(initializer.parameters.map { $0["swiftName"]?.text } == ["`default`", "`self`"])
        #expect(initializer.parameters.map(\.defaultArgument) == ["1", ""])
        #expect(initializer.assignments.map(\.value) == ["`default`", "`self`", ".`default`"])
        #expect(initializer.assignments.map(\.name) == ["default", "self", "class"])
    }

    @Test func accessLevelKeyword() {
        let source = ModelSource(path: "Test.model", text: "")
        let file = GenerationContext(schema: SchemaFixtures.keywords, accessLevel: .public).file(source)
        #expect(file["access"]?.text == "public ")
        #expect(context.file(source)["access"]?.text == "internal ")
    }

    @Test func onlyTheFilesOwnDeclarationsAreIncluded() {
        let file = context.file(ModelSource(path: "Other.model", text: ""))
        #expect(file.entities.isEmpty)
        #expect(file["hasEntities"]?.flag == false)
        #expect(file["fileName"]?.text == "Other.model")
    }

    /// `index`, `isFirst` and `isLast` come from where a list element stands; an object entered
    /// some other way has none, so a lookup goes on to the enclosing context.
    @Test func positionKeysComeFromTheList() throws {
        let property = try #require(context.file(ModelSource(path: "Test.model", text: "")).entities.first?.properties.first)
        #expect(property["index", at: ListPosition(index: 2, count: 3)].map { if case .int(let index) = $0 { index } else { -1 } } == 2)
        #expect(property["isLast", at: ListPosition(index: 2, count: 3)]?.flag == true)
        #expect(property["isFirst", at: ListPosition(index: 2, count: 3)]?.flag == false)
        #expect(property["index"] == nil)
        #expect(property["noSuchKey", at: ListPosition(index: 0, count: 1)] == nil)
    }

    @Test(arguments: [
        ("plain", "\"plain\""), ("say \"hi\"", "\"say \\\"hi\\\"\""), ("a\\b", "\"a\\\\b\""), ("line\nnext\t", "\"line\\nnext\\t\""),
        ("\u{1}", "\"\\u{1}\""), ("é", "\"é\""),
    ])
    func stringLiteralsAreEscaped(_ text: String, _ expected: String) {
        #expect(SwiftLiteral.string(text) == expected)
    }

    @Test func nestedEnumIsNamedWithoutItsEntityInsideIt() {
        let type = ValueType.enumeration(qualifiedName: "Protocol.Type", rawType: .string)
        #expect(SwiftTypeName.of(type, in: "Protocol") == "`Type`")
        #expect(SwiftTypeName.of(type, in: "Other") == "`Protocol`.`Type`")
        #expect(SwiftTypeName.of(.array(type), in: "Protocol") == "[`Type`]")
    }

    @Test func tidyRemovesStrayBlankLines() {
        let text = "\n\nclass A {\n\n    var a = 1   \n\n\n    var b = 2\n\n}\n\n"
        #expect(SourceLayout.tidy(text) == "class A {\n    var a = 1\n\n    var b = 2\n}\n")
    }
}
