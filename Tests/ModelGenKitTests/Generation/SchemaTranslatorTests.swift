import Testing
@testable import ModelGenKit

@Suite struct SchemaTranslatorTests {
    @Test(arguments: [("default", "`default`"), ("Type", "`Type`"), ("self", "`self`"), ("name", "name"), ("group", "group")])
    func keywordsAreEscaped(_ name: String, _ expected: String) {
        #expect(SwiftIdentifier.escaped(name) == expected)
    }

    @Test func translatorEscapesEveryKeyword() throws {
        let model = SchemaTranslator(schema: SchemaFixtures.keywords, accessLevel: .internal)
            .file(ModelSource(path: "Test.model", text: ""))
        let entity = try #require(model.entities.first)
        #expect(entity.swiftName == "`Protocol`")
        #expect(entity.properties.map(\.swiftName) == ["`default`", "`self`", "`class`"])
        #expect(entity.properties.map(\.nameLiteral) == ["\"default\"", "\"self\"", "\"class\""])
        #expect(entity.properties[2].defaultExpression == ".`default`")
        #expect(entity.enums.first?.cases.map(\.swiftName) == ["`default`", "`case`"])
        #expect(entity.enums.first?.cases.map(\.hasExplicitRawValue) == [false, true])
        let initializer = try #require(entity.initializers.first)
        #expect(initializer.parameters.map(\.swiftName) == ["`default`", "`self`"])
        #expect(initializer.parameters.map(\.defaultArgument) == ["1", ""])
        #expect(initializer.assignments.map(\.value) == ["`default`", "`self`", ".`default`"])
        #expect(initializer.assignments.map(\.name) == ["default", "self", "class"])
        #expect(entity.properties[2].type == "`Type`")
    }

    @Test func accessLevelKeyword() {
        let file = SchemaTranslator(schema: SchemaFixtures.keywords, accessLevel: .public).file(ModelSource(path: "Test.model", text: ""))
        #expect(file.access == "public ")
        #expect(SchemaTranslator(schema: SchemaFixtures.keywords, accessLevel: .internal).file(ModelSource(path: "Test.model", text: "")).access == "internal ")
    }

    @Test func onlyTheFilesOwnDeclarationsAreIncluded() {
        let file = SchemaTranslator(schema: SchemaFixtures.keywords, accessLevel: .internal).file(ModelSource(path: "Other.model", text: ""))
        #expect(file.entities.isEmpty)
        #expect(file.fileName == "Other.model")
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
