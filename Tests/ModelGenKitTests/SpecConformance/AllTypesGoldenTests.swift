import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

/// docs/Language.md "Types", "Defaults", attributes and inits in one model, generated into
/// `Tests/ModelStoreTests/Generated/SpecAllTypes.model.swift` (compared byte for byte; rewritten with
/// `MODELGEN_UPDATE_GOLDENS=1`). The ModelStoreTests target compiles that file and round-trips every
/// value through SQLite (`SpecAllTypesRoundTripTests`), so "every type generates code that compiles"
/// is checked by the compiler, not by reading.
@Suite struct AllTypesGoldenTests {
    /// Every type of docs/Language.md (plain, optional, array), every default form, every attribute, a base with a
    /// subclass, nested and top-level enums, keyword names, `var`, `;`, attributes on the same line.
    /// Names start with `Spec` so they do not clash with the other generated samples in ModelStoreTests.
    static let source = #"""
        /* docs/Language.md: "/* … */ (may nest)" */
        /// Every storable type, plain (with every default form), optional and in arrays.
        entity SpecEverything {
            flag: Bool = true
            int: Int = -1_000
            int8: Int8 = -8
            int16: Int16 = 16
            int32: Int32 = 32
            int64: Int64 = 64
            uint8: UInt8 = 255
            uint16: UInt16 = 65535
            uint32: UInt32 = 4_294_967_295
            double: Double = 2.5
            float: Float = 1.5
            string: String = "q\"b\\s\n\t\u{E9}"
            date: Date = Date()
            uuid: UUID = UUID()
            data: Data
            url: URL
            decimal: Decimal = 12.25
            interval: TimeInterval = 90
            width: CGFloat = 0.5
            mood: SpecMood = .calm
            level: SpecLevel = .high

            optionalFlag: Bool?
            optionalInt: Int? = nil
            optionalInt8: Int8?
            optionalInt16: Int16?
            optionalInt32: Int32?
            optionalInt64: Int64?
            optionalUInt8: UInt8?
            optionalUInt16: UInt16?
            optionalUInt32: UInt32?
            optionalDouble: Double?
            optionalFloat: Float?
            optionalString: String? = "maybe"
            optionalDate: Date?
            optionalUUID: UUID?
            optionalData: Data?
            optionalURL: URL?
            optionalDecimal: Decimal?
            optionalInterval: TimeInterval?
            optionalWidth: CGFloat?
            optionalMood: SpecMood?

            flags: [Bool] = [true, false]
            ints: [Int] = [1, -2]
            int8s: [Int8] = []
            int16s: [Int16] = []
            int32s: [Int32] = []
            int64s: [Int64] = []
            uint8s: [UInt8] = []
            uint16s: [UInt16] = []
            uint32s: [UInt32] = []
            doubles: [Double] = [0.5]
            floats: [Float] = []
            strings: [String] = ["a", "b"]
            dates: [Date] = []
            uuids: [UUID] = []
            datas: [Data] = []
            urls: [URL] = []
            decimals: [Decimal] = []
            intervals: [TimeInterval] = []
            widths: [CGFloat] = [1.5]
            moods: [SpecMood] = []
            optionalInts: [Int]?

            @Attribute(.externalStorage) blob: Data?
            @Attribute(.unique, originalName: "legacy_code") code: String = ""
            @Attribute(.preserveValueOnDeletion)
            keep: String = ""
            @Transient scratch: Int = 0
        }

        enum SpecMood: String, Codable { case calm, angry = "ANGRY" }
        enum SpecLevel: Int { case low, high = 10 }

        /// A base whose property names are keywords.
        entity SpecBase {
            var `default`: String; `in`: Int = 0
            enum Kind: String { case a, b }
            kind: Kind = .a
            init(`default`)
        }

        entity SpecSub: SpecBase {
            other: SpecBase.Kind?
            size: Int8
            init(`default`, size) {
                super.init(`default`)
            }
        }

        container SpecAllTypesStore { SpecEverything, SpecBase }

        /// `.none` names the case of an enum that has one, also where the type is optional
        /// (Swift would read a bare `.none` there as nil: docs/Generation.md).
        enum SpecTier: String, Codable { case none, gold }
        struct SpecTierBox {
            tier: SpecTier? = .none
            tiers: [SpecTier] = [.none, .gold]
        }
        entity SpecTierHolder {
            tier: SpecTier? = .none
            plain: SpecTier = .none
            tiers: [SpecTier] = [.none]
            box: SpecTierBox = SpecTierBox()
        }

        /// What SwiftData apps write (docs/Language.md): a plain Codable enum, an optional to-many,
        /// CGFloat, a static member as a default, protocols passed through, an init's default
        /// arguments and a model actor.
        enum SpecProvider: Codable, Comparable { case ollama, openAI, anthropic }
        struct SpecRect: Codable, Hashable, Identifiable {
            id: Int = 0
            width: CGFloat = 0
        }
        entity SpecFolder {
            name: String
            @Relationship(deleteRule: .cascade, inverse: \SpecNote.folder)
            notes: [SpecNote]? = []
            frame: SpecRect = .zero
            width: CGFloat = 2.5
            widths: [CGFloat] = []
            provider: SpecProvider = .openAI
            backup: SpecProvider?
            init(name, width = 3, provider = .anthropic)
        }
        entity SpecNote {
            title: String
            folder: SpecFolder?
        }
        @ModelActor actor SpecImporter

        /// Subnormal and underflowing floating-point defaults: Swift warns about such decimal
        /// literals, so they are generated as exact hexadecimal ones (docs/Generation.md).
        struct SpecTinyBox {
            tiny: Double = 5e-324
            tinyFloat: Float = 1e-45
        }
        entity SpecTiny {
            tiny: Double = 5e-324
            negativeTiny: Double = -2.2250738585072e-308
            tinyFloat: Float = 1.1754942e-38
            interval: TimeInterval = 4.9e-324
            width: CGFloat = 1e-310
            underflow: Double = 1e-400
            tinies: [Double] = [5e-324, 1.5]
            maybe: Double? = 3e-320
            box: SpecTinyBox = SpecTinyBox()
        }

        container SpecLanguageStore { SpecTierHolder, SpecFolder, SpecNote, SpecTiny }
        """#

    static let path = "SpecAllTypes.model"

    func generate() throws -> String {
        let result = try ModelGen.run(.files([SourceFile(path: Self.path, text: Self.source)]))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return try #require(result.outputs.first?.contents)
    }

    @Test func generatedCodeMatchesTheGoldenCompiledByModelStoreTests() throws {
        let golden = GoldenTests.packageRoot.appendingPathComponent("Tests/ModelStoreTests/Generated/SpecAllTypes.model.swift")
        try GoldenFile.expect(try generate(), matches: golden)
    }

    /// docs/CommandLine.md: "the header says `// Generated by modelgen from Trips.model. DO NOT EDIT.`";
    /// docs/Generation.md: "Generated files `import Foundation` and `import ModelStore` and nothing else" (ModelStore
    /// with its SPI for generated code, `@_spi(ModelStoreGenerated)`: still that one import).
    @Test func headerAndImports() throws {
        let generated = try generate()
        #expect(generated.hasPrefix("// Generated by modelgen from SpecAllTypes.model. DO NOT EDIT.\n"))
        let imports = generated.split(separator: "\n").filter { $0.contains("import ") && !$0.hasPrefix("//") }
        #expect(imports == ["import Foundation", "@_spi(ModelStoreGenerated) import ModelStore"])
    }

    /// docs/Runtime.md: enums with "`String`/`Int` raw values, `Codable`, `Sendable`, `CaseIterable`", nested
    /// where declared; "each subclass a `final class`"; "a base with subclasses is a non-final class";
    /// "A `container` declaration becomes `enum Name { static let schema: Schema }`".
    @Test func declarationsHaveTheShapesOfSection5() throws {
        let generated = try generate()
        #expect(generated.contains("enum SpecMood: String, Codable, Sendable, CaseIterable"))
        #expect(generated.contains("enum SpecLevel: Int, Codable, Sendable, CaseIterable"))
        #expect(generated.contains("    internal enum Kind: String, Codable, Sendable, CaseIterable"))
        #expect(generated.contains("internal final class SpecSub: SpecBase"))
        #expect(generated.contains("internal class SpecBase:"))
        #expect(!generated.contains("final class SpecBase"))
        #expect(generated.contains("internal enum SpecAllTypesStore {"))
        #expect(generated.contains("static let schema"))
    }

    /// A call's argument labels are not backticked (swiftc warns "keyword 'default' does not need to be
    /// escaped in argument list"); the parameter names still are.
    @Test func superInitLabelsAreNotEscaped() throws {
        let generated = try generate()
        #expect(generated.contains("super.init(default: `default`)"))
        #expect(!generated.contains("super.init(`default`:"))
        #expect(SwiftIdentifier.argumentLabel("default") == "default")
        #expect(SwiftIdentifier.argumentLabel("inout") == "`inout`")
    }
}
