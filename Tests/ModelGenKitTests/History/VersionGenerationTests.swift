import Testing
@testable import ModelGenKit

/// What a model with a history generates: a `SchemaV…` enum per version file, the plans in the
/// newest version's file (docs/Migrations.md). The worked example's output is compiled and run by ModelStoreTests.
@Suite struct VersionGenerationTests {
    static let v1 = "/// A journey.\nentity Trip { name: String; duration: String }\nenum Mood: String { case calm }\n"
    static let v2 = "/// A journey.\nentity Trip { name: String; duration: Int; mood: Mood = .calm }\nenum Mood: String { case calm }\n"

    private func generate(model: String, versions: [(String, String)]) throws -> [(name: String, text: String)] {
        let result = try ModelGen.run(
            .sources(History.sources(model: model, versions: versions).map { ModelSource($0, relativePath: $0.path) }),
            options: GeneratorOptions(output: .inMemory))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return result.outputs.map { ($0.name, $0.contents ?? "") }
    }

    @Test func eachVersionFileGeneratesItsVersionedSchema() throws {
        let outputs = try generate(model: Self.v2 + "migration \"1\" -> \"2\" { custom }\n", versions: [("1", Self.v1), ("2", Self.v2)])
        #expect(outputs.map(\.name) == ["Model.model.swift", "ModelVersions_1.modelversion.swift", "ModelVersions_2.modelversion.swift"])
        let first = outputs[1].text
        #expect(first.contains("internal enum SchemaV1_0_0: ModelStore.VersionedSchema {"))
        #expect(first.contains("ModelStore.Schema.Version(1, 0, 0)"))
        #expect(first.contains("        [Trip.self]\n"))
        #expect(first.contains("    internal class Trip: ModelStore.ModelObject, ModelStore.PersistentModel {"))
        #expect(first.contains("    internal enum Mood: String, Codable"))
        #expect(first.contains("    /// A journey.\n"))
        #expect(!first.contains("MigrationPlan"))
        // The plan is in the newest version's file only; the current model's file has none.
        let newest = outputs[2].text
        #expect(newest.contains("internal enum MigrationPlan: ModelStore.SchemaMigrationPlan, MigrationPlanCustomStages {"))
        #expect(newest.contains("        [SchemaV1_0_0.self, SchemaV2_0_0.self]\n"))
        #expect(newest.contains("willMigrate: { context in try MigrationPlan.willMigrateV1_0_0ToV2_0_0(context) },"))
        #expect(newest.contains("internal protocol MigrationPlanCustomStages {"))
        #expect(newest.contains("    /// - Trip.duration: type String → Int\n"))
        #expect(newest.contains("    static func didMigrateV1_0_0ToV2_0_0(_ context: ModelStore.ModelContext) throws\n"))
        // The model is version 2: its classes are the version's, named at top level by typealiases.
        #expect(newest.contains("    internal class Trip: ModelStore.ModelObject, ModelStore.PersistentModel {"))
        #expect(!outputs[0].text.contains("class Trip"))
        #expect(outputs[0].text.contains("/// A journey.\ninternal typealias Trip = SchemaV2_0_0.Trip\n"))
        #expect(outputs[0].text.contains("internal typealias Mood = SchemaV2_0_0.Mood\n"))
    }

    /// The newest version equal to the model holds the model's own declarations (from the model's
    /// files, so a doc comment or init added since freezing is there), and the `.model` file names
    /// them with typealiases; an older version keeps its copies. After an edit not frozen yet, the
    /// classes are at top level again and every version has its copies.
    @Test func theCurrentVersionHoldsTheModelsOwnClasses() throws {
        let model = Self.v2.replacingOccurrences(of: "/// A journey.", with: "/// A journey, documented since.")
            + "container Journal { Trip }\nmigration \"1\" -> \"2\" { custom }\n"
        let outputs = try generate(model: model, versions: [("1", Self.v1), ("2", Self.v2)])
        let (current, first, newest) = (outputs[0].text, outputs[1].text, outputs[2].text)
        #expect(newest.contains("/// The current model is this version"))
        #expect(newest.contains("    /// A journey, documented since.\n    internal class Trip: ModelStore.ModelObject"))
        #expect(newest.contains("        [Trip.self]\n"))
        #expect(first.contains("    internal class Trip: ModelStore.ModelObject") && !first.contains("The current model is this version"))
        #expect(current.contains("/// A journey, documented since.\ninternal typealias Trip = SchemaV2_0_0.Trip\n"))
        #expect(current.contains("internal static let schema = ModelStore.Schema([SchemaV2_0_0.Trip.self])"))
        #expect(!current.contains("class "))

        let edited = try generate(model: model.replacingOccurrences(of: "mood: Mood", with: "notes: String?; mood: Mood"),
                                  versions: [("1", Self.v1), ("2", Self.v2)])
        #expect(edited[0].text.contains("internal class Trip: ModelStore.ModelObject") && !edited[0].text.contains("typealias Trip"))
        #expect(edited[0].text.contains("ModelStore.Schema([Trip.self])"))
        #expect(edited[2].text.contains("    internal class Trip: ModelStore.ModelObject") && !edited[2].text.contains("The current model is this version"))
    }

    /// `modelsInVersion`: the same, without the top-level names (the app declares its own).
    @Test func modelsInVersionDeclaresNoTopLevelNames() throws {
        let model = Self.v2 + "container Journal { Trip }\n@ModelActor actor Librarian\nmigration \"1\" -> \"2\" { custom }\n"
        var options = GeneratorOptions(accessLevel: .public, output: .inMemory)
        options.modelsInVersion = true
        let result = try ModelGen.run(
            .sources(History.sources(model: model, versions: [("1", Self.v1), ("2", Self.v2)]).map { ModelSource($0, relativePath: $0.path) }),
            options: options)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let current = try #require(result.outputs.first?.contents)
        #expect(!current.contains("typealias Trip") && !current.contains("typealias Mood") && !current.contains("class "))
        #expect(current.contains("public static let schema = ModelStore.Schema([SchemaV2_0_0.Trip.self])"))
        #expect(current.contains("public actor Librarian: ModelStore.ModelActor {"))
        let newest = try #require(result.outputs.last?.contents)
        #expect(newest.contains("    public class Trip: ModelStore.ModelObject"))
    }

    /// `modelsInVersion` needs a frozen version equal to the model: the error names the version and the changes.
    @Test func modelsInVersionNeedsTheModelFrozen() throws {
        var options = GeneratorOptions(output: .inMemory)
        options.modelsInVersion = true
        let edited = Self.v2.replacingOccurrences(of: "mood: Mood", with: "notes: String?; mood: Mood") + "migration \"1\" -> \"2\" { custom }\n"
        for (model, versions, expected) in [
            (edited, [("1", Self.v1), ("2", Self.v2)],
             "modelsInVersion: the model changed since version 2.0.0 (Trip.notes: property added), so no frozen version holds its classes"),
            (Self.v2, [(String, String)](), "modelsInVersion: the model has no frozen version to hold its classes"),
        ] {
            do {
                _ = try ModelGen.run(
                    .sources(History.sources(model: model, versions: versions).map { ModelSource($0, relativePath: $0.path) }),
                    options: options)
                Issue.record("generated without a frozen version equal to the model")
            } catch {
                #expect(error.kind == .configuration)
                #expect(error.message.hasPrefix(expected), "\(error.message)")
            }
        }
    }

    @Test func lightweightStepsNeedNoProtocol() throws {
        let v2 = "/// A journey.\nentity Trip { name: String; duration: String; notes: String? }\nenum Mood: String { case calm }\ncontainer Journal { Trip }\n"
        let outputs = try generate(model: v2, versions: [("1", Self.v1), ("2", v2)])
        let newest = outputs[2].text
        #expect(newest.contains("internal enum JournalMigrationPlan: ModelStore.SchemaMigrationPlan {"))
        #expect(newest.contains(".lightweight(fromVersion: SchemaV1_0_0.self, toVersion: SchemaV2_0_0.self),"))
        #expect(!newest.contains("protocol"))
        // No container in a version: its enum lists its roots; its containers are not generated.
        #expect(!outputs[2].text.contains("enum Journal {"))
    }

    @Test func publicAccessReachesTheHistory() throws {
        let result = try ModelGen.run(
            .sources(History.sources(model: Self.v1, versions: [("1", Self.v1)]).map { ModelSource($0, relativePath: $0.path) }),
            options: GeneratorOptions(accessLevel: .public, output: .inMemory))
        let version = try #require(result.outputs.last?.contents)
        #expect(version.contains("public enum SchemaV1_0_0: ModelStore.VersionedSchema {"))
        #expect(version.contains("    public static var models: [any ModelStore.PersistentModel.Type] {"))
        #expect(version.contains("public enum MigrationPlan: ModelStore.SchemaMigrationPlan {"))
    }

    /// A history with an error generates nothing.
    @Test func historyErrorsStopGeneration() throws {
        let result = try ModelGen.run(
            .files(History.sources(model: Self.v2, versions: [("1", Self.v1)])), options: GeneratorOptions(output: .inMemory))
        #expect(result.failed)
        #expect(result.outputs.isEmpty)
    }
}
