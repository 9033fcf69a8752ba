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
        #expect(!outputs[0].text.contains("SchemaV") && outputs[0].text.contains("internal class Trip: ModelStore.ModelObject, ModelStore.PersistentModel {"))
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
