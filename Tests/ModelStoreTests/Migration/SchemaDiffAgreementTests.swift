import Foundation
import Testing
@testable import ModelStore

/// The generator and the runtime classify every change of a step the same way. `modelgen` decides
/// at build time which steps need a custom stage (`migration-not-inferable`); ModelStore decides
/// when it opens a store (`SchemaChangePlan`). If the generator let through a step the runtime
/// refuses, the app would fail on users' devices; if it stopped one the runtime infers, users would
/// write code for nothing.
///
/// For each history of Goldens/Histories (each change of each step, as `modelgen migrations`
/// classifies it, written by VersionGoldenTests from the same models as the generated versions
/// compiled here), the runtime compares the two versions' stored schemas: the changes it cannot
/// infer are exactly those the generator says need code, by `Entity.property`, and the changes no
/// stage applies are exactly those it says are impossible.
@Suite struct SchemaDiffAgreementTests {
    /// Every generated plan: their versions, by version.
    static let plans: [any SchemaMigrationPlan.Type] = [
        TripLogMigrationPlan.self, EntitiesStoreMigrationPlan.self, AttributesStoreMigrationPlan.self, RenamesStoreMigrationPlan.self,
        ConstraintsStoreMigrationPlan.self, ToManyStoreMigrationPlan.self, MemoStoreMigrationPlan.self, NotesStoreMigrationPlan.self,
        ChangesStoreMigrationPlan.self, CompositeStoreMigrationPlan.self,
    ]

    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens/Histories")

    static var histories: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: goldens.path)) ?? []).filter { $0.hasSuffix(".migrations.txt") }.sorted()
    }

    /// One step as the generator printed it.
    struct Step {
        var from: String
        var to: String
        /// `Entity.property` of each change that needs code (`custom` or `needs code`), and of each impossible one.
        var needsCode: [String] = []
        var impossible: [String] = []
        var changes = 0
    }

    /// The steps between frozen versions of a `modelgen migrations` text.
    static func steps(in text: String) -> [Step] {
        var steps: [Step] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let arrow = line.range(of: " → "), let colon = line.range(of: ": "), line.first?.isNumber == true,
               !line.contains("current model") {
                steps.append(Step(from: String(line[..<arrow.lowerBound]), to: String(line[arrow.upperBound..<colon.lowerBound])))
            } else if line.hasPrefix("    "), !steps.isEmpty {
                let words = line.dropFirst(4)
                let change = words.drop { $0 != " " }.drop { $0 == " " }
                let label = Self.label(String(change))
                steps[steps.count - 1].changes += 1
                if words.hasPrefix("custom") || words.hasPrefix("needs code") { steps[steps.count - 1].needsCode.append(label) }
                if words.hasPrefix("impossible") { steps[steps.count - 1].impossible.append(label) }
            }
        }
        return steps
    }

    /// `Entity.property` (or `Entity`) of a change: the text before its first `: `.
    static func label(_ change: String) -> String {
        change.range(of: ": ").map { String(change[..<$0.lowerBound]) } ?? change
    }

    @Test func everyHistoryIsCompared() {
        #expect(Self.histories.count == Self.plans.count)
    }

    @Test(arguments: SchemaDiffAgreementTests.histories)
    func runtimeAgreesWithTheGenerator(history: String) throws {
        var versions: [String: any VersionedSchema.Type] = [:]
        for plan in Self.plans {
            for version in plan.schemas { versions[version.versionIdentifier.description] = version }
        }
        let text = try String(contentsOf: Self.goldens.appendingPathComponent(history), encoding: .utf8)
        let steps = Self.steps(in: text)
        #expect(!steps.isEmpty, "\(history) has no step")
        for step in steps {
            let from = try #require(versions[step.from], "no generated version \(step.from)")
            let to = try #require(versions[step.to], "no generated version \(step.to)")
            let runtime = SchemaChangePlan(
                from: Schema(versionedSchema: from).storage, to: Schema(versionedSchema: to).storage, mode: .inferred)
            #expect(runtime.notInferable.map(Self.label).sorted() == step.needsCode.sorted(),
                    "\(history) \(step.from) → \(step.to): the runtime cannot infer \(runtime.notInferable)")
            #expect(runtime.unsupported.map(Self.label).sorted() == step.impossible.sorted(),
                    "\(history) \(step.from) → \(step.to): the runtime never applies \(runtime.unsupported)")
        }
    }

    /// The comparison can fail: a step read with a change of the other kind disagrees.
    @Test func aDisagreementIsSeen() throws {
        let steps = Self.steps(in: "1.0.0 → 2.0.0: lightweight\n    inferred    Trip.duration: type String → Int\n")
        #expect(steps.count == 1 && steps[0].changes == 1 && steps[0].needsCode.isEmpty)
        let runtime = SchemaChangePlan(
            from: Schema(versionedSchema: SchemaV1_0_0.self).storage, to: Schema(versionedSchema: SchemaV2_0_0.self).storage, mode: .inferred)
        #expect(runtime.notInferable.map(Self.label) != steps[0].needsCode)
    }
}
