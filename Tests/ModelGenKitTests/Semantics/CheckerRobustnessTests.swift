import Foundation
import Testing
@testable import ModelGenKit

/// Mutated models (lines dropped, duplicated, names swapped) go through the parser and the checker
/// — the checker runs even on files with syntax errors — without crashing, and twice the same way.
@Suite struct CheckerRobustnessTests {
    /// A small deterministic random generator (the same mutations on every run).
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let names = ["Trip", "BusinessTrip", "Accommodation", "name", "trip", "Reason", "super", "init", "String?", "[Trip]", "Trip?", ".cascade", "\\Trip.name", "= nil", "= []", "{", "}", ":"]

    static func mutate(_ text: String, using random: inout SplitMix) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<Int.random(in: 1...3, using: &random) where !lines.isEmpty {
            let index = Int.random(in: 0..<lines.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: lines.remove(at: index)
            case 1: lines.insert(lines[index], at: Int.random(in: 0...lines.count, using: &random))
            case 2:
                var words = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
                if !words.isEmpty { words[Int.random(in: 0..<words.count, using: &random)] = names.randomElement(using: &random)! }
                lines[index] = words.joined(separator: " ")
            default: lines.swapAt(index, Int.random(in: 0..<lines.count, using: &random))
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func mutatedModelsNeverCrash() throws {
        let root = InvalidSampleGoldenTests.packageRoot
        var texts = [try String(contentsOf: root.appendingPathComponent("Samples/Trips.model"), encoding: .utf8)]
        for name in InvalidSampleGoldenTests.sampleNames {
            texts.append(try String(contentsOf: root.appendingPathComponent(InvalidSampleGoldenTests.folder).appendingPathComponent(name), encoding: .utf8))
        }
        var random = SplitMix(state: 42)
        var checked = 0
        for round in 0..<1500 {
            let text = Self.mutate(texts[round % texts.count], using: &random)
            let file = Parser.parse(SourceFile(path: "m.model", text: text)).file
            let files = round % 5 == 0 ? [file, file] : [file]
            let first = SchemaChecker.check(files)
            let second = SchemaChecker.check(files)
            #expect(first.diagnostics == second.diagnostics)
            #expect((first.schema == nil) == first.diagnostics.contains { $0.severity == .error })
            checked += 1
        }
        #expect(checked == 1500)
    }

    /// A 2,000-level inheritance chain and 2,000 entities pointing at a hub: the checker stays
    /// near-linear (a quadratic-or-worse walk took minutes on such input).
    @Test func largeModelsCheckQuickly() {
        let count = 2000
        var text = ""
        for index in 0..<count {
            text += "entity E\(index): E\(index + 1) { p\(index): Int }\n"
            text += "entity R\(index) { next: R\((index + 1) % count)?\n hubs: [Hub] = [] }\n"
        }
        text += "entity E\(count) { x: Int }\nentity Hub {\n" + (0..<count).map { "r\($0): [R\($0)] = []" }.joined(separator: "\n") + "\n}\n"
        let file = Parser.parse(SourceFile(path: "large.model", text: text)).file
        let clock = ContinuousClock()
        var diagnostics: [Diagnostic] = []
        let elapsed = clock.measure { diagnostics = SchemaChecker.check([file]).diagnostics }
        #expect(diagnostics.filter { $0.rule == .flatHierarchy }.count == count - 1)
        #expect(elapsed < .seconds(30))
    }

    /// 2,000 structs each holding the next (and one loop of 2,000 structs and enums): resolution
    /// and loop finding stay near-linear and recurse no deeper than the input's nesting.
    @Test func longChainsOfStructsCheckQuickly() {
        let count = 2000
        var text = ""
        for index in 0..<count {
            text += "struct S\(index) { next: S\(index + 1)?; v: Int = 0 }\n"
            text += "struct L\(index) { next: [M\(index)] = [] }\nenum M\(index): Codable { case m(L\((index + 1) % count)), none }\n"
        }
        text += "struct S\(count) { v: Int = 0 }\nentity E { s: S0 = S0(); l: L0? }\n"
        let file = Parser.parse(SourceFile(path: "structs.model", text: text)).file
        let clock = ContinuousClock()
        var diagnostics: [Diagnostic] = []
        let elapsed = clock.measure { diagnostics = SchemaChecker.check([file]).diagnostics }
        #expect(diagnostics.map(\.rule) == [.unsupportedType])
        #expect(diagnostics.first?.range.start.line == 2)
        #expect(elapsed < .seconds(30))
    }
}
