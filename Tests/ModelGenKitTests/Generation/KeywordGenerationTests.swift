import Testing
@testable import ModelGenKit

/// Generation from a model whose names are Swift keywords, through the real parser and checker.
/// (The same model's output was compiled against ModelStore at every access level without warnings.)
@Suite struct KeywordGenerationTests {
    static let model = #"""
        /// An entity whose members are Swift keywords.
        entity Import {
            enum Kind: String {
                case `default`
                case `case` = "k"
            }
            `default`: Int = 1
            `class`: Kind = .default
            `where`: String?
            `protocol`: Container?
            init(`class`)
        }

        entity Container {
            `let`: String = "a \"quoted\" \\ value\n"
            imports: [Import] = []
            init()
        }

        entity Struct: Container {
            `func`: Bool = true
            owner: Import?
        }

        """#

    static func generate() throws -> String {
        let result = try ModelGen.run(.files([SourceFile(path: "Keywords.model", text: model)]))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return try #require(result.outputs.first?.contents)
    }

    @Test(arguments: [
        "        case `default` = \"default\"\n",
        "        case `case` = \"k\"\n",
        "    @exclusivity(unchecked) private var _default: Int\n",
        "    internal var `default`: Int {\n",
        "            _$access(Import._$default, \\.`default`)\n",
        "    internal init(`class`: Kind) {\n",
        "        self._class = `class`\n",
        "        self._default = 1\n",
        "            .attribute(Import._$class, \\Import.`class`, defaultValue: .`default`),\n",
        "            .attribute(Container._$let, \\Container.`let`, defaultValue: \"a \\\"quoted\\\" \\\\ value\\n\"),\n",
        "    internal override init() {\n",
        "            .init(\"let\", \\Struct.`let`),\n",
        "            .toOne(Import._$protocol, \\Import.`protocol`, deleteRule: .nullify, inverse: \"imports\"),\n",
        "    private static let _$default = ModelStore.AttributeIndex(0, \"default\")\n",
    ])
    func keywordsAreEscapedInTheOutput(_ line: String) throws {
        let text = try Self.generate()
        #expect(text.contains(line), "missing: \(line)")
    }
}
