import Foundation
import Testing
@testable import ModelGenKit

/// The VS Code extension folder (`Editors/vscode/`): its JSON files parse, its grammar's patterns
/// compile and recognise the language's keywords, and the files it names exist.
@Suite struct EditorFilesTests {
    static let folder = LanguageServerTests.root.appendingPathComponent("Editors/vscode")

    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name) is not a JSON object")
    }

    /// Every `match`, `begin` and `end` pattern of the grammar.
    static func patterns(in value: Any) -> [String: [String]] {
        var found: [String: [String]] = [:]
        var pending: [(String, Any)] = [("", value)]
        while let (path, next) = pending.popLast() {
            if let object = next as? [String: Any] {
                for (key, item) in object {
                    if ["match", "begin", "end"].contains(key), let pattern = item as? String {
                        found[path, default: []].append(pattern)
                    } else {
                        pending.append((path.isEmpty || path == "repository" ? key : path, item))
                    }
                }
            } else if let array = next as? [Any] {
                pending += array.map { (path, $0) }
            }
        }
        return found
    }

    @Test func packageDeclaresTheLanguageGrammarAndServer() throws {
        let package = try Self.json("package.json")
        let contributes = try #require(package["contributes"] as? [String: Any])
        let language = try #require((contributes["languages"] as? [[String: Any]])?.first)
        #expect(language["id"] as? String == "model")
        #expect(language["extensions"] as? [String] == [".model", ".modelversion"])
        let grammar = try #require((contributes["grammars"] as? [[String: Any]])?.first)
        #expect(grammar["scopeName"] as? String == "source.model")
        for file in [package["main"] as? String, language["configuration"] as? String, grammar["path"] as? String] {
            let name = try #require(file)
            #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(name).path), "\(name)")
        }
        let extensionText = try String(contentsOf: Self.folder.appendingPathComponent("extension.js"), encoding: .utf8)
        #expect(extensionText.contains(#"args: ["lsp"]"#))
        let configuration = try Self.json("language-configuration.json")
        #expect((configuration["comments"] as? [String: Any])?["lineComment"] as? String == "//")
    }

    @Test func grammarPatternsCompileAndKnowTheKeywords() throws {
        let grammar = try Self.json("syntaxes/model.tmLanguage.json")
        let found = Self.patterns(in: grammar)
        #expect(found.values.joined().count > 10)
        var compiled: [String: [NSRegularExpression]] = [:]
        for (rule, patterns) in found {
            for pattern in patterns {
                let regex = try? NSRegularExpression(pattern: pattern)
                #expect(regex != nil, "\(rule): \(pattern) does not compile")
                if let regex { compiled[rule, default: []].append(regex) }
            }
        }
        func matches(_ rule: String, _ text: String) -> Bool {
            (compiled[rule] ?? []).contains { $0.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))?.range.length == (text as NSString).length }
        }
        for keyword in LanguageServer.keywords.subtracting(["true", "false", "nil"]) {
            #expect(matches("keywords", keyword), "keyword \(keyword)")
        }
        for constant in ["true", "false", "nil"] { #expect(matches("constants", constant)) }
        for type in TypeResolver.builtinTypes.keys { #expect(matches("types", type), "built-in type \(type)") }
        #expect(matches("keyPaths", "\\Trip.accommodations"))
        #expect(matches("attributes", "@Relationship"))
        #expect(matches("macros", "#Unique"))
    }
}
