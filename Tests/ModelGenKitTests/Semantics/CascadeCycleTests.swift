import Foundation
import Testing
@testable import ModelGenKit

/// docs/Rules.md `cascade-cycle`: ".cascade rules form a cycle (an entity reaches itself through
/// cascades, e.g. `Person.friends` cascading to `Person`) … the message names the path".
@Suite struct CascadeCycleTests {
    private func cycles(_ source: String) -> [String] {
        SpecModel.lint(source).diagnostics.filter { $0.rule == .cascadeCycle }.map { diagnostic in
            let message = diagnostic.message
            guard let open = message.firstIndex(of: "("), let close = message.firstIndex(of: ")") else { return message }
            return "\(diagnostic.range.start.line):\(diagnostic.range.start.column) " + message[message.index(after: open)..<close]
        }
    }

    private func messages(_ source: String) -> [String] {
        SpecModel.lint(source).diagnostics.filter { $0.rule == .cascadeCycle }.map(\.message)
    }

    @Test func selfRelationship() {
        let source = "entity Person {\n    @Relationship(deleteRule: .cascade)\n    friends: [Person] = []\n}\n"
        #expect(cycles(source) == ["2:31 Person.friends → Person"])
        let diagnostic = SpecModel.lint(source).diagnostics.first
        #expect(diagnostic?.severity == .warning)
        #expect(SpecModel.lint(source).schema != nil, "a warning does not stop generation")
    }

    @Test func manyToManyCascadingBothWays() {
        let source = """
            entity A {
                @Relationship(deleteRule: .cascade, inverse: \\B.as) bs: [B] = []
            }
            entity B {
                @Relationship(deleteRule: .cascade) as: [A] = []
            }
            """
        #expect(cycles(source) == ["2:31 A.bs → B, B.as → A"])
        // Cascading one way only is no cycle.
        #expect(cycles(source.replacingOccurrences(of: "@Relationship(deleteRule: .cascade) as", with: "as")) == [])
    }

    /// Reported once, at the first edge in source order, whatever order the entities are declared in.
    @Test func longerLoopIsReportedOnceAtItsFirstEdge() {
        let source = """
            entity C {
                @Relationship(deleteRule: .cascade) as: [A] = []
            }
            entity A {
                @Relationship(deleteRule: .cascade) bs: [B] = []
            }
            entity B {
                @Relationship(deleteRule: .cascade) cs: [C] = []
            }
            """
        #expect(cycles(source) == ["2:31 C.as → A, A.bs → B, B.cs → C"])
        let notes = SpecModel.lint(source).diagnostics.first?.notes.map { "\($0.range?.start.line ?? 0) \($0.message)" }
        #expect(notes == ["5 'A.bs' cascades to 'B' here", "8 'B.cs' cascades to 'C' here"])
    }

    /// "through subclasses: a relationship declared on a base applies to its subclasses".
    @Test func throughSubclasses() {
        // Trip.stops (declared on the base) cascades from a BusinessTrip too; Stop.trip reaches it.
        let inherited = """
            entity Trip {
                @Relationship(deleteRule: .cascade) stops: [Stop] = []
            }
            entity BusinessTrip: Trip { company: String }
            entity Stop {
                @Relationship(deleteRule: .cascade, inverse: \\Trip.stops) trip: BusinessTrip?
            }
            """
        #expect(cycles(inherited).isEmpty == false)
        #expect(cycles(inherited) == ["2:31 Trip.stops → Stop, Stop.trip → BusinessTrip"])
        // A relationship to the base can hold a subclass, whose own cascade then applies.
        let toBase = """
            entity Trip { name: String }
            entity BusinessTrip: Trip {
                @Relationship(deleteRule: .cascade) expenses: [Expense] = []
            }
            entity Expense {
                @Relationship(deleteRule: .cascade) trip: Trip?
            }
            """
        #expect(cycles(toBase) == ["3:31 BusinessTrip.expenses → Expense, Expense.trip → Trip"])
        // Sibling subclasses never stand for one model: no cycle.
        let siblings = """
            entity Trip { name: String }
            entity BusinessTrip: Trip {
                @Relationship(deleteRule: .cascade) expenses: [Expense] = []
            }
            entity PersonalTrip: Trip { reason: String }
            entity Expense {
                @Relationship(deleteRule: .cascade) trip: PersonalTrip?
            }
            """
        #expect(cycles(siblings) == [])
    }

    /// A parent-to-children tree (to-many with a to-one inverse) is a self-relationship that cascades:
    /// docs/Rules.md reports it (an entity reaches itself), with a message that says a subtree goes.
    /// Cascading up to the parent as well is a second loop.
    @Test func treesAreReportedAsSubtrees() {
        let tree = """
            entity Category {
                @Relationship(inverse: \\Category.children) parent: Category?
                @Relationship(deleteRule: .cascade, inverse: \\Category.parent) children: [Category] = []
            }
            """
        #expect(cycles(tree) == ["3:31 Category.children → Category"])
        #expect(messages(tree).allSatisfy { $0.contains("deletes its whole subtree") })
        let up = tree.replacingOccurrences(of: "@Relationship(inverse: \\Category.children) parent", with: "@Relationship(deleteRule: .cascade, inverse: \\Category.children) parent")
        // Deleting a child deletes its parent, and so every ancestor: the loop through `parent` alone.
        // (`children` then `parent` passes through Category twice: not a loop of its own.)
        #expect(cycles(up) == ["2:31 Category.parent → Category", "3:31 Category.children → Category"])
        #expect(messages(up).first?.contains("a whole connected graph") == true)
        let sample = try? String(contentsOf: InvalidSampleGoldenTests.packageRoot.appendingPathComponent("Samples/Shop.model"), encoding: .utf8)
        #expect(sample.map { cycles($0) } == ["69:31 Category.children → Category"], "the Shop sample's category tree")
    }

    /// Each cycle is named once: a loop made of two smaller loops through one entity is not a third.
    @Test func everyCycleOnceAndNoCompositeLoops() {
        let source = """
            entity A {
                @Relationship(deleteRule: .cascade) b: B?
                @Relationship(deleteRule: .cascade) c: C?
            }
            entity B {
                @Relationship(deleteRule: .cascade) a: A?
            }
            entity C {
                @Relationship(deleteRule: .cascade) a: A?
            }
            """
        #expect(cycles(source) == ["2:31 A.b → B, B.a → A", "3:31 A.c → C, C.a → A"])
    }

    @Test func deterministicAndBounded() {
        // Every entity cascades to every other: a huge number of loops, checked in bounded time.
        let count = 14
        var source = ""
        for i in 0..<count {
            source += "entity E\(i) {\n"
            for j in 0..<count where j != i { source += "    @Relationship(deleteRule: .cascade) to\(j): [E\(j)] = []\n" }
            source += "}\n"
        }
        let clock = ContinuousClock()
        var first: [String] = []
        let elapsed = clock.measure { first = cycles(source) }
        #expect(first.count == CascadeRules.maximumCycles)
        #expect(cycles(source) == first)
        #expect(elapsed < .seconds(20))
    }

    /// Cascades on no loop cost nothing: a long chain does not use up the search for a loop after it.
    @Test func longChainsAreNoLoops() {
        var source = ""
        for i in 0..<2_000 { source += "entity C\(i) { @Relationship(deleteRule: .cascade) next: [C\(i + 1)] = [] }\n" }
        source += "entity C2000 { @Relationship(deleteRule: .cascade) me: [C2000] = [] }\n"
        let clock = ContinuousClock()
        var found: [String] = []
        let elapsed = clock.measure { found = cycles(source) }
        #expect(found == ["2001:42 C2000.me → C2000"])
        #expect(elapsed < .seconds(20))
    }
}
