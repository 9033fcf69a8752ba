import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

@Suite struct ModelFormatterTests {
    func parse(_ text: String, path: String = "test.model") -> (file: ModelFile, diagnostics: [Diagnostic]) {
        Parser.parse(SourceFile(path: path, text: text))
    }

    /// Formats `text` and checks what every formatting must keep: no syntax errors, the same
    /// declarations, the same comments, and a second pass that changes nothing.
    @discardableResult
    func formatKeepingMeaning(_ text: String, path: String = "test.model", sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        let original = parse(text, path: path)
        #expect(original.diagnostics.isEmpty, "the input has syntax errors: \(original.diagnostics.map(\.message))", sourceLocation: sourceLocation)
        let formatted = ModelFormatter.format(original.file)
        let reparsed = parse(formatted, path: path)
        #expect(reparsed.diagnostics.isEmpty, "formatted text has syntax errors: \(reparsed.diagnostics.map(\.message))\n\(formatted)", sourceLocation: sourceLocation)
        #expect(SyntaxShape.of(reparsed.file) == SyntaxShape.of(original.file), "declarations changed:\n\(formatted)", sourceLocation: sourceLocation)
        #expect(SyntaxShape.commentTexts(reparsed.file) == SyntaxShape.commentTexts(original.file), "comments changed:\n\(formatted)", sourceLocation: sourceLocation)
        let again = ModelFormatter.format(reparsed.file)
        #expect(again == formatted, "second pass changed the text:\n\(TextDiff.lines(expected: formatted, actual: again))", sourceLocation: sourceLocation)
        return formatted
    }

    @Test func theMessyFixtureMatchesItsGolden() throws {
        let text = try String(contentsOf: FormatDiagramSupport.url("Tests/ModelGenKitTests/Formatting/Fixtures/Messy.model"), encoding: .utf8)
        #expect(parse(text).diagnostics.isEmpty)
        let formatted = formatKeepingMeaning(text, path: "Messy.model")
        try FormatDiagramSupport.expectMatchesGolden(formatted, "Tests/ModelGenKitTests/Formatting/Goldens/Messy.formatted.model")
    }

    @Test func theReferenceSampleIsAlreadyFormatted() throws {
        let text = try String(contentsOf: FormatDiagramSupport.url("Samples/Trips.model"), encoding: .utf8)
        let formatted = formatKeepingMeaning(text, path: "Samples/Trips.model")
        #expect(formatted == text, "\(TextDiff.lines(expected: text, actual: formatted))")
    }

    @Test func membersGetOneLineEachAndAttributesTheirOwnLine() {
        let formatted = formatKeepingMeaning("entity A { @Attribute(.unique) a: Int; b: String = \"x\" }")
        #expect(formatted == "entity A {\n    @Attribute(.unique)\n    a: Int\n    b: String = \"x\"\n}\n")
    }

    @Test func topLevelDeclarationsAreSeparatedByOneBlankLine() {
        let formatted = formatKeepingMeaning("entity A { a: Int }\n\n\n\nentity B { b: Int }\ncontainer S { A, B }")
        #expect(formatted == "entity A {\n    a: Int\n}\n\nentity B {\n    b: Int\n}\n\ncontainer S { A, B }\n")
    }

    @Test func blankLinesBetweenMembersCollapseToOneAndVanishAtBlockEdges() {
        let formatted = formatKeepingMeaning("entity A {\n\n\n    a: Int\n\n\n\n    b: Int\n\n}\n")
        #expect(formatted == "entity A {\n    a: Int\n\n    b: Int\n}\n")
    }

    @Test func enumCasesGetOneLineEach() {
        let formatted = formatKeepingMeaning("enum E: String, Codable { case a, b = \"bee\"; case c }")
        #expect(formatted == "enum E: String, Codable {\n    case a\n    case b = \"bee\"\n    case c\n}\n")
    }

    @Test func initBodiesGoOnTheirOwnLines() {
        let formatted = formatKeepingMeaning("entity A { a: Int\n init(a) }\nentity B: A { b: Int\n init(a, b) { super.init(a) } }")
        #expect(formatted.contains("    init(a, b) {\n        super.init(a)\n    }\n"))
    }

    @Test func docCommentsStayAttachedToTheirDeclaration() throws {
        let source = "/// The A.\nentity A {\n  /// The a.\n  a: Int\n}\n"
        let formatted = formatKeepingMeaning(source)
        #expect(formatted == "/// The A.\nentity A {\n    /// The a.\n    a: Int\n}\n")
        let reparsed = parse(formatted).file
        guard case .entity(let entity) = reparsed.declarations.first, case .property(let property) = entity.members.first else {
            Issue.record("expected an entity with a property")
            return
        }
        #expect(entity.doc?.lines == ["The A."])
        #expect(property.doc?.lines == ["The a."])
    }

    @Test func aDocCommentAttachedToNothingStaysUnattached() {
        let formatted = formatKeepingMeaning("entity A {\n a: Int\n /// floating\n ; b: Int\n}\n")
        #expect(formatted == "entity A {\n    a: Int\n    /// floating\n\n    b: Int\n}\n")
    }

    @Test func aBlockCommentBeforeCodeOnItsLineStaysThere() {
        let formatted = formatKeepingMeaning("/// The E.\n/* note */ enum E: Int { case a }\n")
        #expect(formatted == "/// The E.\n/* note */ enum E: Int {\n    case a\n}\n")
    }

    @Test func trailingCommentsStayOnTheirLine() {
        let formatted = formatKeepingMeaning("entity A { // opens\n  a: Int    // the a\n} // closes\n")
        #expect(formatted == "entity A { // opens\n    a: Int // the a\n} // closes\n")
    }

    @Test func commentsInsideAOneLineConstructStayWithIt() {
        let formatted = formatKeepingMeaning("entity A { a: Int }\ncontainer S {\n  // the A\n  A // only one\n}\nentity B { b: Int }\n")
        #expect(formatted == "entity A {\n    a: Int\n}\n\ncontainer S { A } // the A\n\n// only one\nentity B {\n    b: Int\n}\n")
    }

    @Test func commentsBeforeAClosingBraceKeepTheBodyIndent() {
        let formatted = formatKeepingMeaning("entity A {\na: Int\n// the end\n}\n")
        #expect(formatted == "entity A {\n    a: Int\n    // the end\n}\n")
    }

    @Test func escapedNamesKeepTheirBackticks() {
        let formatted = formatKeepingMeaning("entity `Order` { `default`: Int = 0 }")
        #expect(formatted == "entity `Order` {\n    `default`: Int = 0\n}\n")
    }

    @Test func aFileWithSyntaxErrorsIsNotFormatted() {
        let result = ModelFormatter.format(SourceFile(path: "bad.model", text: "entity A {\n    a Int\n}\n"))
        #expect(result.text == nil)
        #expect(result.diagnostics.map(\.rule) == [.syntax])
        #expect(ModelFormatter.format(SourceFile(path: "ok.model", text: "entity A { a: Int }")).text == "entity A {\n    a: Int\n}\n")
    }

    @Test func anEmptyFileStaysEmpty() {
        #expect(formatKeepingMeaning("") == "")
        #expect(formatKeepingMeaning("\n\n  \n") == "")
        #expect(formatKeepingMeaning("// only a comment\n") == "// only a comment\n")
    }

    /// Every sample that parses: formatting keeps its checked schema (or, for an invalid one, the
    /// rule ids of its diagnostics), keeps its comments, and a second pass changes nothing.
    @Test func everySampleKeepsItsMeaning() throws {
        let samples = try sampleFiles()
        #expect(!samples.isEmpty)
        for url in samples {
            let path = url.path
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            let original = parse(text, path: path)
            if original.diagnostics.contains(where: { $0.rule == .syntax }) { continue }
            let formatted = formatKeepingMeaning(text, path: path)
            let reparsed = parse(formatted, path: path)
            let before = SchemaChecker.check([original.file])
            let after = SchemaChecker.check([reparsed.file])
            #expect(before.schema.map(SchemaWithoutPositions.init) == after.schema.map(SchemaWithoutPositions.init), "schema of \(path) changed")
            #expect(before.diagnostics.map(\Diagnostic.rule).sorted() == after.diagnostics.map(\Diagnostic.rule).sorted(), "diagnostics of \(path) changed")
        }
    }

    /// A valid model whose layout formatting changes: the checked schema is the same, positions aside.
    @Test func aRelaidValidModelKeepsItsCheckedSchema() throws {
        var text = try String(contentsOf: FormatDiagramSupport.url("Samples/Trips.model"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\n    ", with: "\n")
            .replacingOccurrences(of: "\n\n", with: "\n\n\n")
            .replacingOccurrences(of: ")\n", with: ") ")
            .replacingOccurrences(of: "String\n", with: "String; ")
        let original = parse(text, path: "Trips.model")
        #expect(original.diagnostics.isEmpty)
        let formatted = formatKeepingMeaning(text, path: "Trips.model")
        #expect(formatted != text)
        let before = try #require(SchemaChecker.check([original.file]).schema)
        let after = try #require(SchemaChecker.check([parse(formatted, path: "Trips.model").file]).schema)
        #expect(before.entities.count == 5)
        #expect(SchemaWithoutPositions(before) == SchemaWithoutPositions(after))
    }

    private func sampleFiles() throws -> [URL] {
        let root = FormatDiagramSupport.url("Samples")
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "model" }.sorted { $0.path < $1.path }
    }
}

/// A checked schema with every source range blanked, so that layouts can be compared.
struct SchemaWithoutPositions: Equatable {
    var schema: CheckedSchema

    init(_ schema: CheckedSchema) {
        let nowhere = SourceRange(file: "", start: SourceLocation(line: 0, column: 0, offset: 0), end: SourceLocation(line: 0, column: 0, offset: 0))
        var copy = schema
        for entityIndex in copy.entities.indices {
            copy.entities[entityIndex].range = nowhere
            for propertyIndex in copy.entities[entityIndex].properties.indices {
                copy.entities[entityIndex].properties[propertyIndex].range = nowhere
            }
            for enumIndex in copy.entities[entityIndex].enums.indices {
                copy.entities[entityIndex].enums[enumIndex].range = nowhere
            }
            copy.entities[entityIndex].structs = copy.entities[entityIndex].structs.map { Self.blanked($0, nowhere) }
        }
        for enumIndex in copy.enums.indices { copy.enums[enumIndex].range = nowhere }
        copy.structs = copy.structs.map { Self.blanked($0, nowhere) }
        for containerIndex in copy.containers.indices { copy.containers[containerIndex].range = nowhere }
        self.schema = copy
    }

    private static func blanked(_ structure: CheckedStruct, _ nowhere: SourceRange) -> CheckedStruct {
        var copy = structure
        copy.range = nowhere
        for index in copy.fields.indices { copy.fields[index].range = nowhere }
        return copy
    }
}
