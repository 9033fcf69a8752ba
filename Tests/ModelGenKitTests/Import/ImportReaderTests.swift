import Foundation
import Testing
@testable import ModelGenKit

/// The Swift reader of `modelgen import` construct by construct (docs/CommandLine.md "modelgen import"):
/// what it writes, what it reports as a note, and the errors for what it cannot read.
@Suite struct ImportReaderTests {
    private func run(_ swift: String, path: String = "Models.swift") throws -> ImportResult {
        try ModelGen.import([SourceFile(path: path, text: swift)], into: "Out")
    }

    /// The body of the imported model (without its header line), or the messages when there is none.
    private func model(_ swift: String) throws -> String {
        let result = try run(swift)
        guard let file = result.files.first else { return "no file: \(result.messages)" }
        return file.text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
    }

    private func notes(_ swift: String) throws -> [String] {
        try run(swift).messages.map(\.description)
    }

    @Test func storedPropertiesWithTheirDefaultsAndAttributes() throws {
        let text = try model("""
            @Model final class Item {
                @Attribute(.unique) var code: String
                var count = 0
                var ratio = 0.5
                var flag: Swift.Bool = true
                var title: Optional<String>
                var tags: Array<String> = ["a", "b\\"c"]
                @Attribute(.externalStorage, .spotlight) var photo: Data?
                var made: Date = .now
                var since = Date.distantPast
                var id2: UUID = UUID()
                var hex: Int = 0x1F
                @Transient var scratch: Int = -3
                let fixed: String
                init(code: String, fixed: String) {
                    self.code = code
                    self.fixed = fixed
                }
            }
            """)
        #expect(text == """
            entity Item {
                @Attribute(.unique)
                code: String
                count: Int = 0
                ratio: Double = 0.5
                flag: Bool = true
                title: String?
                tags: [String] = ["a", "b\\"c"]
                @Attribute(.externalStorage)
                photo: Data?
                made: Date = .now
                since: Date = Date.distantPast
                id2: UUID = UUID()
                hex: Int = 31
                @Transient
                scratch: Int = -3
                fixed: String

                init(code, fixed)
            }

            """)
        #expect(try notes("@Model final class Item {\n    let fixed: String\n}") == [
            "Models.swift:2: note: 'let' property 'Item.fixed' becomes a 'var' of the generated class (a model's stored properties are settable)",
        ])
        #expect(try notes("@Model final class Item { @Attribute(.externalStorage, .spotlight) var photo: Data? }")
            == ["Models.swift:1: note: '.spotlight' of '@Attribute' on 'Item.photo' has no equivalent in the model: it is left out"])
    }

    @Test func relationshipsKeepTheirArguments() throws {
        let text = try model("""
            @Model final class A {
                @Relationship(deleteRule: .cascade, minimumModelCount: 0, maximumModelCount: 3, originalName: "bs", inverse: \\B.a)
                var bs: [B] = []
            }
            @Model final class B { var a: A? }
            """)
        #expect(text.contains("@Relationship(deleteRule: .cascade, minimumModelCount: 0, maximumModelCount: 3, originalName: \"bs\", inverse: \\B.a)\n    bs: [B] = []"))
    }

    @Test func initsMapToTheirParametersAndTheRestIsNoted() throws {
        let swift = """
            @Model class Base {
                var name: String
                var created: Date
                init(name: String) {
                    self.name = name
                    self.created = Date()
                    print("made")
                }
                convenience init() { self.init(name: "x") }
            }
            @Model final class Sub: Base {
                var extra: Int
                init(title name: String, extra: Int) {
                    self.extra = extra
                    super.init(name: name)
                }
            }
            """
        let text = try model(swift)
        #expect(text.contains("entity Base {\n    name: String\n    created: Date\n\n    init(name)\n}"))
        #expect(text.contains("entity Sub: Base {\n    extra: Int\n\n    init(name, extra) {\n        super.init(name)\n    }\n}"))
        let notes = try notes(swift)
        #expect(notes.contains { $0.hasPrefix("Models.swift:6: note: statement 'self.created = Date()' in an init of 'Base' is not part of the model") })
        #expect(notes.contains { $0.hasPrefix("Models.swift:7: note: statement 'print(\"made\")'") && $0.contains("extension Base") })
        #expect(notes.contains { $0.hasPrefix("Models.swift:9: note: convenience init of 'Base' is not part of the model") })
        #expect(notes.contains { $0.hasPrefix("Models.swift:13: note: the argument label 'title' of 'Sub.init' becomes 'name'") })
    }

    @Test func everySkippedConstructIsNotedWithWhereItMustGo() throws {
        let notes = try notes("""
            import SwiftData
            protocol Named { var name: String { get } }
            func helper() {}
            class Plain {}
            @Model final class Item: Named, Identifiable {
                var name: String
                var upper: String { name.uppercased() }
                var watched: Int = 0 { didSet { print(watched) } }
                static let sample = 1
                func rename() {}
                subscript(index: Int) -> Int { index }
            }
            extension Item { func more() {} }
            """)
        #expect(notes == [
            "Models.swift:2: note: protocol 'Named' is not part of the model: keep it in Swift",
            "Models.swift:3: note: func 'helper' is not part of the model: keep it in Swift",
            "Models.swift:4: note: class 'Plain' is not a '@Model' class: not imported; keep it in Swift",
            "Models.swift:5: note: the conformance of 'Item' to 'Named' is not part of the model: add it in a Swift extension ('extension Item: Named { … }')",
            "Models.swift:7: note: computed property 'Item.upper' is not stored: put it in a Swift extension of the generated class ('extension Item { … }')",
            "Models.swift:8: note: the observers of property 'Item.watched' (willSet/didSet) are not part of the model: the property is imported without them; call that code from a method in a Swift extension",
            "Models.swift:9: note: static property 'Item.sample' is not stored in the model: put it in a Swift extension of the generated class ('extension Item { … }')",
            "Models.swift:10: note: func 'rename' in class 'Item' is not part of the model: put it in a Swift extension of the generated class ('extension Item { … }')",
            "Models.swift:11: note: 'subscript' in class 'Item' is not part of the model: put it in a Swift extension of the generated class ('extension Item { … }')",
            "Models.swift:13: note: extension of 'Item' is not part of the model: keep it in a Swift file beside the generated code",
        ])
    }

    /// `extension [Element]` and `extension [Key: Value]` (Swift 5.7's sugar) are read and noted
    /// like any extension (the reader once stopped at the '[').
    @Test func extensionsOfSugaredCollectionsAreNoted() throws {
        let notes = try notes("""
            @Model final class Item {
                var name: String
            }
            extension [Item] { func names() -> [String] { map(\\.name) } }
            extension [String: Item] {}
            """)
        #expect(notes == [
            "Models.swift:4: note: extension of '[Item]' is not part of the model: keep it in a Swift file beside the generated code",
            "Models.swift:5: note: extension of '[String: Item]' is not part of the model: keep it in a Swift file beside the generated code",
        ])
    }

    @Test func conditionalCompilationReadsTheFirstBranch() throws {
        let swift = """
            @Model final class Item {
                #if os(iOS)
                var tint: String = "blue"
                #elseif os(macOS)
                var tint: Int = 1
                #else
                var other: Int = 2
                #endif
            }
            """
        #expect(try model(swift) == "entity Item {\n    tint: String = \"blue\"\n}\n")
        #expect(try notes(swift) == [
            "Models.swift:2: note: conditional compilation: the first branch ('#if os(iOS)') was read; '#elseif os(macOS)' (line 4), '#else' (line 6) was not: move what differs into Swift beside the model",
        ])
    }

    @Test func enumsAndStructsTheModelsUse() throws {
        let text = try model("""
            /// A shape.
            enum Shape: Codable {
                case circle(radius: Double)
                case square(Swift.Double)
                case none
                var area: Double { 0 }
            }
            enum Level: Int, Codable { case low = -1, high = 1 }
            struct Size: Codable { var w: Double; var h: Double = 1 }
            @Model final class Item {
                enum Kind: String, Codable { case a, b = "bee" }
                var shape: Shape = .none
                var level: Level = .low
                var size: Size
                var kind: Kind = .a
            }
            """)
        #expect(text == """
            /// A shape.
            enum Shape: Codable {
                case circle(radius: Double)
                case square(Double)
                case none
            }

            enum Level: Int, Codable {
                case low = -1
                case high = 1
            }

            struct Size: Codable {
                w: Double
                h: Double = 1
            }

            entity Item {
                enum Kind: String, Codable {
                    case a
                    case b = "bee"
                }

                shape: Shape = .none
                level: Level = .low
                size: Size
                kind: Kind = .a
            }

            """)
    }

    @Test func anEnumDeclaredInAnExtensionOfAModelIsNestedInIt() throws {
        let swift = """
            @Model public final class Trip {
                public private(set) var reason: Reason = Reason.family
                public init() {}
            }
            extension Trip {
                public enum Reason: String, Codable { case family, work }
                var label: String { reason.rawValue }
            }
            """
        #expect(try model(swift) == "entity Trip {\n    enum Reason: String, Codable {\n        case family\n        case work\n    }\n\n    reason: Reason = Reason.family\n\n    init()\n}\n")
        #expect(try notes(swift) == [
            "Models.swift:5: note: extension of 'Trip' is not part of the model (the enums and structs in it are imported): keep it in a Swift file beside the generated code",
        ])
        #expect(try run(swift).diagnostics.isEmpty)
    }

    @Test func docCommentsAndBacktickedNamesAreKept() throws {
        let text = try model("""
            /// A thing.
            ///
            /// With two paragraphs.
            @Model
            final class Thing {
                /** The name. */
                var name: String

                // not a doc comment
                var `default`: Bool = false
                var `case`: Int = 0
            }
            """)
        #expect(text == "/// A thing.\n///\n/// With two paragraphs.\nentity Thing {\n    /// The name.\n    name: String\n\n    `default`: Bool = false\n    `case`: Int = 0\n}\n")
    }

    @Test func unreadableSwiftIsAnErrorAtItsPlace() throws {
        let cases: [(String, String)] = [
            ("@Model final class A {\n    var x: Int\n", "Models.swift:3:1: error: expected '}' to close class 'A' but found the end of the file"),
            ("@Model final class A {\n    var x = compute()\n}", "Models.swift:2:9: error: cannot tell the type of property 'A.x': write its type ('x: Type')"),
            ("@Model final class A {\n    var x: Int = \n}", "Models.swift:3:1: error: expected a default value after '=' for property 'A.x' but found '}'"),
            ("let s = \"open\n", "Models.swift:1:9: error: unterminated string literal"),
            ("#if DEBUG\n@Model final class A {}\n", "Models.swift:1:1: error: '#if DEBUG' without '#endif'"),
            ("@Model final class A { var (x, y): (Int, Int) }", "Models.swift:1:28: error: expected a property name in 'A' but found '(' (patterns are not read)"),
            ("}", "Models.swift:1:1: error: unexpected '}'"),
            ("enum S: VersionedSchema { @Model final class A {} }", "Models.swift:1:1: error: VersionedSchema 'S' has no 'versionIdentifier = Schema.Version(MAJOR, MINOR, PATCH)' the importer can read"),
            ("struct S {}", "Models.swift:1:1: error: no '@Model' class found in this file"),
        ]
        for (swift, expected) in cases {
            let result = try run(swift)
            #expect(result.messages.filter { $0.severity == .error }.map(\.description) == [expected], "\(swift)")
            #expect(result.files.isEmpty)
            #expect(result.failed)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deepType = "@Model final class A { var x: " + String(repeating: "[", count: 10_000) + "Int" + String(repeating: "]", count: 10_000) + " }"
        let deepScopes = String(repeating: "extension A { ", count: 10_000) + String(repeating: "}", count: 10_000)
        let deepDefault = "@Model final class A { var x: [Int] = " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + " }"
        for swift in [deepType, deepScopes] {
            let result = try run(swift)
            #expect(result.messages.contains { $0.severity == .error && $0.message.contains("nested too deeply (at most 64 levels)") })
            #expect(result.files.isEmpty)
        }
        #expect(try notes(deepDefault).contains { $0.contains("is not a default the model can hold") })
    }

    @Test func writingRefusesToReplaceOtherContentWithoutForce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-write-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = SourceFile(path: "Models.swift", text: "@Model final class A { var x: Int = 0 }\n")
        let first = try ModelGen.import([source], into: directory.path, write: true)
        #expect(first.outcome == .written)
        let path = directory.appendingPathComponent("Models.model").path
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == first.files[0].text)
        #expect(try ModelGen.import([source], into: directory.path, write: true).outcome == .unchanged)
        try Data("entity Edited {}\n".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try ModelGen.import([source], into: directory.path, write: true)
        guard case .refused(let message) = refused.outcome else {
            Issue.record("expected a refusal, got \(refused.outcome)")
            return
        }
        #expect(message.contains("Models.model' exists with other content"))
        #expect(refused.failed)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "entity Edited {}\n")
        #expect(try ModelGen.import([source], into: directory.path, write: true, force: true).outcome == .written)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written)
    }

    @Test func versionedModelsListedFromAnotherVersionOrTheTopLevel() throws {
        let result = try run("""
            enum V1: VersionedSchema {
                static var versionIdentifier: Schema.Version = .init(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Tag.self, Note.self] }
                @Model final class Note { var text: String = ""; var tag: Tag? }
            }
            enum V2: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 1, 0)
                static var models: [any PersistentModel.Type] { [Tag.self, V1.Note.self] }
            }
            @Model final class Tag { var label: String = "" }
            """)
        #expect(!result.messages.contains { $0.severity == .error }, "\(result.messages)")
        #expect(result.files.map(\.path) == ["Out/Models.model", "Out/ModelVersions/1.0.0.modelversion", "Out/ModelVersions/1.1.0.modelversion"])
        // Top-level models are the current model; each version holds its own and those it lists.
        #expect(result.files[0].text.contains("entity Tag {") && !result.files[0].text.contains("entity Note"))
        #expect(result.files[2].text.contains("entity Tag {") && result.files[2].text.contains("entity Note {"))
    }
}

/// Every Swift file of the repository (sources, tests, generated code, samples), imported alone: real
/// Swift of every shape, which the reader must get through without a crash or a hang, either with a
/// model, or with errors that name a place inside the file.
@Suite struct ImportRobustnessTests {
    static let files: [String] = {
        let root = GoldenTests.packageRoot
        var paths: [String] = []
        for folder in ["Sources", "Tests", "Samples", "Plugins", "Benchmarks"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".swift"), !path.contains(".build") { paths.append(folder + "/" + path) }
            }
        }
        return paths.sorted()
    }()

    @Test func theRepositorysSwiftFilesAreReadWithoutACrash() throws {
        #expect(Self.files.count > 200)
        var unreadable: [String] = []
        for path in Self.files {
            let data = try Data(contentsOf: GoldenTests.packageRoot.appendingPathComponent(path))
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).count
            let result = try ModelGen.import([SourceFile(path: path, bytes: Array(data))], into: "Out")
            for message in result.messages {
                #expect(message.path == path && (1...lines).contains(message.line), "\(message)")
            }
            let errors = result.messages.filter { $0.severity == .error && !$0.message.hasPrefix("no '@Model' class") }
            // Generated code is not SwiftData source (its versions list classes it declares in other files).
            if !errors.isEmpty, !path.contains("/Generated/") { unreadable += errors.map(\.description) }
        }
        // Ordinary Swift, all of it: the reader skips what it does not need without tripping on it.
        #expect(unreadable.isEmpty, "\(unreadable.joined(separator: "\n"))")
    }
}
