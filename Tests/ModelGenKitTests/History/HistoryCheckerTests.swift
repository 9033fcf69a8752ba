import Testing
@testable import ModelGenKit

/// The history of a model: `.modelversion` inputs, the steps between them, `migration` declarations,
/// and `migration-not-inferable` (docs/Rules.md, docs/Migrations.md).
@Suite struct HistoryCheckerTests {
    static let v1 = "entity Trip {\n    name: String\n    duration: String\n}\n"
    static let v2 = "entity Trip {\n    name: String\n    duration: Int\n}\n"
    static let v3 = "entity Trip {\n    @Attribute(originalName: \"name\")\n    title: String\n    duration: Int\n}\n"

    @Test func anUndeclaredStepIsReportedAtTheChangeInTheNewerVersion() {
        let result = History.lint(model: Self.v2, versions: [("2.0.0", Self.v2), ("1.0.0", Self.v1)])
        #expect(History.summary(result) == [
            "ModelVersions/2.0.0.modelversion:3:5 [migration-not-inferable] the step 1.0.0 → 2.0.0 cannot be inferred: Trip.duration: type String → Int; declare it custom in the model (migration \"1.0.0\" -> \"2.0.0\" { custom }) and write its code",
        ])
        #expect(result.schema == nil)
    }

    @Test func aDeclaredStepIsCustom() throws {
        let model = Self.v3 + "migration \"1.0.0\" -> \"2.0.0\" { custom }\n"
        let result = History.lint(model: model, versions: [("3.0.0", Self.v3), ("1.0.0", Self.v1), ("2.0.0", Self.v2)])
        #expect(History.summary(result) == [])
        let history = try #require(result.history)
        #expect(history.versions.map(\.version.description) == ["1.0.0", "2.0.0", "3.0.0"])
        #expect(history.steps.map(\.isCustom) == [true, false])
        #expect(history.steps[0].customDeclaration?.start.line == 6)
        #expect(history.steps.map { $0.changes.map(\.description) } == [["Trip.duration: type String → Int"], ["Trip.title: renamed from name"]])
        #expect(history.unfrozenStep == nil)
        #expect(history.planNames == ["MigrationPlan"])
        #expect(history.steps[0].willMigrateName == "willMigrateV1_0_0ToV2_0_0")
        #expect(history.steps[0].didMigrateName == "didMigrateV1_0_0ToV2_0_0")
    }

    /// Versions are ordered by their numbers, not their spelling: 9 < 9.1 < 10.
    @Test func versionsAreOrderedSemantically() throws {
        let model = Self.v3 + "migration \"9\" -> \"9.1\" { custom }\n"
        let result = History.lint(model: model, versions: [("10.0.0", Self.v3), ("9.1", Self.v2), ("9", Self.v1)])
        #expect(History.summary(result) == [])
        let history = try #require(result.history)
        #expect(history.versions.map(\.version.description) == ["9.0.0", "9.1.0", "10.0.0"])
        #expect(history.steps.map { "\($0.from) → \($0.to.map(\.description) ?? "current")" } == ["9.0.0 → 9.1.0", "9.1.0 → 10.0.0"])
        #expect(history.steps.map(\.isCustom) == [true, false])
    }

    @Test func theStepToTheCurrentModelMustBeFrozenToBeCustom() throws {
        let result = History.lint(model: Self.v2, versions: [("1.0.0", Self.v1)])
        #expect(History.summary(result) == [
            "Model.model:3:5 [migration-not-inferable] the model cannot follow version 1.0.0 without code: Trip.duration: type String → Int; freeze it as a new version ('modelgen freeze --version V') and declare that step custom (migration \"1.0.0\" -> \"V\" { custom })",
        ])
        #expect(result.history?.unfrozenStep?.changes.map(\.classification) == [.needsCode])
        // Declared ahead of the freeze: the error names the version to freeze.
        let declared = History.lint(model: Self.v2 + "migration \"1.0.0\" -> \"2.0.0\" { custom }\n", versions: [("1.0.0", Self.v1)])
        #expect(History.summary(declared) == [
            "Model.model:3:5 [migration-not-inferable] the model cannot follow version 1.0.0 without code: Trip.duration: type String → Int; freeze it as 2.0.0 ('modelgen freeze --version 2.0.0'), the version its migration declaration goes to: a custom stage runs between frozen versions only",
        ])
    }

    @Test func anInferredChangeSinceTheNewestVersionIsAStepOfNoPlan() throws {
        let model = "entity Trip {\n    name: String\n    duration: String\n    notes: String?\n}\n"
        let result = History.lint(model: model, versions: [("1.0.0", Self.v1)])
        #expect(History.summary(result) == [])
        let step = try #require(result.history?.unfrozenStep)
        #expect(step.from.description == "1.0.0" && step.to == nil)
        #expect(step.changes.map(\.description) == ["Trip.notes: property added"])
    }

    @Test func declarationsNameStepsOfTheHistory() {
        let model = Self.v3 + """
            migration "1.0.0" -> "2.0.0" { custom }
            migration "1.0" -> "2" { custom }
            migration "0.9" -> "1.0.0" { custom }
            migration "2.0.0" -> "1.0.0" { custom }
            migration "1.0.0" -> "3.0.0" { custom }
            migration "2.0.0" -> "2.5.0" { custom }
            migration "3.0.0" -> "4.0.0" { custom }

            """
        let result = History.lint(model: model, versions: [("1.0.0", Self.v1), ("2.0.0", Self.v2), ("3.0.0", Self.v3)])
        #expect(History.summary(result) == [
            "Model.model:7:1 [duplicate-declaration] the step 1.0.0 → 2.0.0 is declared custom twice",
            "Model.model:8:11 [unknown-type] the migration names version 0.9.0, which no .modelversion input holds (frozen versions: 1.0.0, 2.0.0, 3.0.0)",
            "Model.model:9:22 [unknown-type] the migration goes from 2.0.0 back to 1.0.0: a step goes from a version to a later one",
            "Model.model:10:22 [unknown-type] versions 1.0.0 and 3.0.0 are not consecutive: the step from 1.0.0 goes to 2.0.0 (declare each step of the way)",
            "Model.model:11:22 [unknown-type] the migration names version 2.5.0, which no .modelversion input holds (frozen versions: 1.0.0, 2.0.0, 3.0.0)",
            "Model.model:12:22 [unknown-type] the migration goes to version 4.0.0, which is not frozen yet: freeze the model as 4.0.0 ('modelgen freeze --version 4.0.0'); a custom stage runs between frozen versions only",
        ])
        #expect(result.diagnostics.first?.notes.first?.range?.start.line == 6)
    }

    @Test func aVersionFileDeclaresNoStep() {
        let result = History.lint(model: Self.v1, versions: [("1.0.0", Self.v1 + "migration \"0\" -> \"1\" { custom }\n")])
        #expect(History.summary(result) == [
            "ModelVersions/1.0.0.modelversion:5:1 [syntax] a 'migration' declaration belongs in the current model (a .model file), not in a frozen version: steps are declared where the model is edited",
        ])
    }

    @Test func anImpossibleChangeIsReportedEvenInACustomStep() {
        let old = "entity Vehicle { n: Int }\nentity Car { w: Int }\n"
        let new = "entity Vehicle { n: Int }\nentity Car: Vehicle { w: Int }\n"
        let result = History.lint(model: new + "migration \"1\" -> \"2\" { custom }\n", versions: [("1", old), ("2", new)])
        #expect(result.diagnostics.map(\.rule) == [.migrationNotInferable])
        #expect(result.diagnostics.first?.message.hasPrefix("the step 1.0.0 → 2.0.0 cannot be migrated: Car: base changed (none → Vehicle)") == true)
        #expect(result.diagnostics.first?.range.file == "ModelVersions/2.modelversion")
    }

    /// A version is checked alone: its errors are its own, its names never clash with the model's.
    @Test func versionsAreCheckedAlone() {
        let broken = History.lint(model: Self.v1, versions: [("1.0.0", "entity Trip { name: Strin }\n")])
        #expect(History.summary(broken) == [
            "ModelVersions/1.0.0.modelversion:1:21 [unknown-type] unknown type 'Strin' of 'Trip.name': declare an entity, enum or struct of that name, or use a built-in type",
        ])
        #expect(broken.history == nil)
        let clean = History.lint(model: Self.v1, versions: [("1.0.0", Self.v1)])
        #expect(clean.diagnostics.isEmpty)
        #expect(clean.schema?.entities.map(\.name) == ["Trip"])
    }

    @Test func badlyNamedVersionFilesAreUsageErrors() {
        func inputError(_ sources: [SourceFile]) -> String? {
            do {
                _ = try ModelGen.run(.files(sources), options: GeneratorOptions(output: .lint))
                return nil
            } catch {
                return error.kind == .input ? error.message : "\(error.kind)"
            }
        }
        let model = SourceFile(path: "Model.model", text: Self.v1)
        #expect(inputError([model, SourceFile(path: "V/first.modelversion", text: Self.v1)])
            == "'V/first.modelversion' is not named by a version: a frozen version is MAJOR[.MINOR[.PATCH]].modelversion (written by 'modelgen freeze --version V')")
        #expect(inputError([model, SourceFile(path: "V/1.0.modelversion", text: Self.v1), SourceFile(path: "W/1.0.0.modelversion", text: Self.v1)])
            == "'V/1.0.modelversion' and 'W/1.0.0.modelversion' are both version 1.0.0")
    }

    @Test func plansAreNamedAfterTheContainers() {
        let model = Self.v1 + "container Journal { Trip }\ncontainer Archive { Trip }\n"
        let result = History.lint(model: model, versions: [("1.0.0", Self.v1)])
        #expect(result.history?.planNames == ["JournalMigrationPlan", "ArchiveMigrationPlan"])
    }
}
