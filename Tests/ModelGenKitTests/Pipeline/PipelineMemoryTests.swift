import Foundation
import Testing
@testable import ModelGenKit

/// What the stages keep and hand on (a run's peak of memory is the check stage, see
/// docs/Benchmarks.md), and the compact containers of the syntax tree and the semantic model.
@Suite struct PipelineMemoryTests {
    private let sources = [
        ModelSource(path: "Trips.model", text: """
            /// A trip.
            entity Trip {
                name: String
                @Relationship(deleteRule: .cascade, inverse: \\Stay.trip)
                stays: [Stay] = []
                init(name)
            }

            entity BusinessTrip: Trip {
                company: String
                init(name, company) { super.init(name) }
            }

            entity Stay {
                trip: Trip?
            }

            container Store { Trip, Stay }
            """),
    ]

    /// The stages an observer was told of (behind a lock: the observer is `@Sendable`).
    private final class StageLog: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [GeneratorStage] = []
        var stages: [GeneratorStage] { lock.withLock { seen } }
        func append(_ stage: GeneratorStage) { lock.withLock { seen.append(stage) } }
    }

    /// What the check stage hands on holds no syntax tree: the schema copies what it needs, so the
    /// trees go with the semantic model. (With syntax errors the trees stay during the stage, for the
    /// filter of follow-on diagnostics: `SyntaxCascadeTests`.)
    @Test func theCheckedModelsHoldNoSyntaxTree() throws {
        let pipeline = GeneratorPipeline(options: GeneratorOptions(output: .lint))
        weak var entity: EntityDecl?
        weak var property: PropertyDecl?
        let parsed = pipeline.parse(sources)
        if case .entity(let decl) = parsed.trees[0].declarations[0] {
            entity = decl
            if case .property(let first) = decl.members[0] { property = first }
        }
        #expect(entity != nil && property != nil)
        let checked = pipeline.check(consume parsed)
        let schema = try #require(checked.schema)
        #expect(schema.entities.map(\.name) == ["Trip", "BusinessTrip", "Stay"])
        #expect(schema.entities[0].doc == ["A trip."])
        #expect(entity == nil)
        #expect(property == nil)
    }

    /// The observer sees every stage once, in order.
    @Test func theStagesRunInOrder() throws {
        let seen = StageLog()
        let options = GeneratorOptions(output: .inMemory, stageObserver: { seen.append($0) })
        let result = try ModelGen.run(.sources(sources), options: options)
        #expect(!result.failed)
        #expect(seen.stages == [.load, .parse, .check, .generate])
    }

    /// The entities' table reads, changes in place, removes and adds like the dictionary it replaced.
    @Test func entityTableBehavesLikeADictionary() throws {
        let file = Parser.parse(SourceFile(path: "T.model", text: "entity A { x: Int }\nentity B { y: Int }\n")).file
        let decls = file.declarations.compactMap { declaration -> EntityDecl? in
            if case .entity(let decl) = declaration { decl } else { nil }
        }
        var table = EntityTable()
        table["A"] = EntityInfo(decl: decls[0])
        table["B"] = EntityInfo(decl: decls[1])
        table["A"]?.depth = 3
        table["A"]?.properties.append(PropertyInfo(decl: try #require(decls[0].members.first.flatMap { member -> PropertyDecl? in
            if case .property(let property) = member { property } else { nil }
        })))
        #expect(table["A"]?.depth == 3)
        #expect(table["A"]?.properties.map(\.name) == ["x"])
        #expect(table["C"] == nil)
        #expect(table.removeValue(forKey: "A")?.name == "A")
        #expect(table["A"] == nil)
        #expect(table.removeValue(forKey: "A") == nil)
        table["A"] = EntityInfo(decl: decls[0])
        #expect(table["A"]?.depth == 1)
        table["B"] = nil
        #expect(table["B"] == nil)
        #expect(table["A"]?.name == "A")
    }

    @Test func sortedNamesFindExactlyTheirNames() {
        let names = SortedNames(["b", "a", "c", "a", "", "ab"])
        for name in ["a", "b", "c", "", "ab"] { #expect(names.contains(name)) }
        for name in ["d", "A", "aa", " "] { #expect(!names.contains(name)) }
        #expect(!SortedNames().contains(""))
        #expect(!SortedNames([]).contains("a"))
    }

    @Test func docCommentsKeepTheirLines() {
        let range = SourceRange(file: "D.model", start: SourceLocation(line: 1, column: 1, offset: 0), end: SourceLocation(line: 3, column: 4, offset: 20))
        #expect(DocComment(lines: ["one", "", "three"], range: range).lines == ["one", "", "three"])
        #expect(DocComment(lines: [""], range: range).lines == [""])
        #expect(DocComment(lines: [], range: range).lines == [])
        #expect(DocComment(lines: ["a"], range: range) == DocComment(lines: ["a"], range: range))
        #expect(DocComment(lines: ["a", "b"], range: range) != DocComment(lines: ["a b"], range: range))
    }
}
