import SchemaEvolution
import Testing
@testable import ModelGenKit

/// docs/Architecture.md, "A type the language accepts": the generator's steps, checked for every
/// built-in type of SchemaEvolution's `ScalarType` table, so a type that misses one fails here with
/// the step named. (The runtime's steps: ModelStoreTests' `ScalarTypeStoreTests`.)
@Suite struct ScalarTypeRecipeTests {
    /// A model with one entity declaring `declarations`, through the whole generator.
    private func run(_ declarations: String) throws -> GeneratorResult {
        try ModelGen.run(.files([SourceFile(path: "Scalar.model", text: "entity Holder {\n" + declarations + "\n}\n")]))
    }

    /// Step "ValueType": the generator's value type maps to the table's and back, and is spelled as
    /// the table says (in Swift and in the stored schema; its `valueKind`).
    @Test(arguments: ScalarType.allCases) func valueTypeMapsToTheTable(_ type: ScalarType) {
        let value = ValueType(type)
        #expect(value.scalar == type, "step 'ValueType': ValueType.\(value) maps back to \(value.scalar.map { "\($0)" } ?? "nil")")
        #expect(value.description == type.swiftName, "step 'ValueType': spelled '\(value)'")
        #expect(SwiftTypeName.of(value) == type.swiftName, "step 'Swift spelling'")
        #expect(SchemaDiff.storedTypeName(value) == type.storedTypeName, "step 'stored type name'")
        #expect(SchemaDiff.storedTypeName(.array(value)) == "[\(type.storedTypeName)]", "step 'stored type name' of an array")
        #expect(GenerationContext.kind(of: value) == type.valueKind, "step 'valueKind'")
    }

    /// Step "resolve": the name is a built-in type, reserved for it, and a property of it (plain,
    /// optional, array) goes through the generator without a diagnostic, spelled as the table says.
    @Test(arguments: ScalarType.allCases) func aPropertyOfTheTypeGenerates(_ type: ScalarType) throws {
        #expect(TypeResolver.builtinTypes[type.swiftName] == ValueType(type), "step 'resolve': '\(type.swiftName)' is no built-in type")
        #expect(ReservedNames.typeReason(type.swiftName) != nil, "step 'resolve': '\(type.swiftName)' is not a reserved type name")
        let name = type.swiftName
        let result = try run("plain: \(name)\nmaybe: \(name)?\nmany: [\(name)] = []")
        #expect(result.diagnostics.isEmpty, "step 'resolve': \(result.diagnostics.map(\.message))")
        let text = try #require(result.outputs.first?.contents)
        for declaration in ["var plain: \(name) {", "var maybe: \(name)? {", "var many: [\(name)] {"] {
            #expect(text.contains(declaration), "step 'Swift spelling': no '\(declaration)' in the generated code")
        }
    }

    /// One literal of each default form.
    static let literals: [(DefaultLiteralForm, String)] = [
        (.boolean, "true"), (.integer, "7"), (.number, "2.5"), (.string, "\"s\""), (.date, ".now"),
        (.newUUID, "UUID()"), (.bytes, "[0, 255]"),
    ]

    /// Step "default": a literal of the type's default form is accepted, the literals of other forms
    /// are `default-type-mismatch` (an integer literal is a number too), and an integer outside the
    /// type's range is refused.
    @Test(arguments: ScalarType.allCases) func defaultsFollowTheTable(_ type: ScalarType) throws {
        let form = type.facts.defaultLiteral
        for (literalForm, literal) in Self.literals {
            let accepted = form == literalForm || (literalForm == .integer && form == .number)
            let result = try run("value: \(type.swiftName) = \(literal)")
            if accepted {
                #expect(result.diagnostics.isEmpty, "step 'default': '\(literal)' for \(type.swiftName): \(result.diagnostics.map(\.message))")
            } else {
                #expect(result.diagnostics.map(\.rule) == [.defaultTypeMismatch], "step 'default': '\(literal)' for \(type.swiftName) is not refused")
            }
        }
        guard form == .integer else { return }
        let range = try #require({ if case .integer(let range)? = type.facts.numeric { range } else { nil } }(), "an integer default needs an integer range")
        for bound in [range.lowerBound, range.upperBound] {
            #expect(try run("value: \(type.swiftName) = \(bound)").diagnostics.isEmpty, "step 'default': \(bound) for \(type.swiftName)")
        }
        for outside in [range.lowerBound.subtractingReportingOverflow(1), range.upperBound.addingReportingOverflow(1)] where !outside.overflow {
            #expect(try run("value: \(type.swiftName) = \(outside.partialValue)").diagnostics.map(\.rule) == [.defaultTypeMismatch],
                    "step 'default': \(outside.partialValue) for \(type.swiftName) is not refused")
        }
    }

    /// Step "all-types golden": the all-types model declares the type plain, optional and in an
    /// array, so its generated golden is compiled and round-tripped by ModelStoreTests.
    @Test(arguments: ScalarType.allCases) func theAllTypesModelHasTheType(_ type: ScalarType) {
        let name = type.swiftName
        let source = AllTypesGoldenTests.source
        #expect(source.contains(": \(name) =") || source.contains(": \(name)\n"), "step 'all-types golden': no property of type \(name) in SpecAllTypes.model")
        #expect(source.contains(": \(name)?"), "step 'all-types golden': no property of type \(name)? in SpecAllTypes.model")
        #expect(source.contains(": [\(name)]"), "step 'all-types golden': no property of type [\(name)] in SpecAllTypes.model")
    }
}
