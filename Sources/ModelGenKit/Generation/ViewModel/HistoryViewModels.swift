// The view models of the model's history (docs/Migrations.md): a frozen version's `VersionedSchema` (template
// `version`, in the version's file) and the migration plans (template `plan`, in the newest
// version's file). A version's entities and enums use the ordinary view models, over the version's
// own checked schema, so they are generated exactly as the current model's are.

/// A frozen version (template `version`): its `SchemaV…` enum holds its entities, enums and
/// top-level structs (a struct nested in an entity comes with the entity). When the current model is
/// this version, they are the current model's own (its view models use the current model's context).
final class VersionViewModel: ViewModel {
    let version: MigrationHistory.Version
    /// The generation context of the version's own schema.
    let context: GenerationContext
    let source: ModelSource
    private(set) lazy var entities: [EntityViewModel] = context.schema.entities.map { EntityViewModel($0, context: context) }
    private(set) lazy var enums: [EnumViewModel] = context.schema.enums.map(EnumViewModel.init)
    private(set) lazy var structs: [StructViewModel] = context.schema.structs.map { StructViewModel($0, context: context) }

    /// Whether the current model is this version (`context` is then the current model's).
    let isCurrentModel: Bool

    init(_ version: MigrationHistory.Version, source: ModelSource, context: GenerationContext, isCurrentModel: Bool = false) {
        self.isCurrentModel = isCurrentModel
        self.version = version
        self.source = source
        self.context = context
    }

    static let templateKeys = TemplateKeys<VersionViewModel>(listElement: true, [
        .string("version", "the version, `major.minor.patch` (`1.0.0`)") { $0.version.version.description },
        .string("schemaName", "its `VersionedSchema` enum (`SchemaV1_0_0`)") { $0.version.version.schemaName },
        .int("major", "the major version number") { $0.version.version.major },
        .int("minor", "the minor version number") { $0.version.version.minor },
        .int("patch", "the patch version number") { $0.version.version.patch },
        .string("fileName", "the `.modelversion` file's name (`1.0.0.modelversion`)") { $0.source.fileName },
        .list("models", "the entities `models` lists: every entity without a base (a base brings its subclasses; names)") {
            $0.context.schema.entities.filter { $0.baseName == nil }.map { NameViewModel($0.name) }
        },
        .bool("isCurrentModel", "whether the current model is this version: the enum then holds the current model's own declarations, which the `.model` files name at top level") {
            $0.isCurrentModel
        },
        .list("entities", "the version's entities, generated as the current model's are, nested in the enum") { $0.entities },
        .list("enums", "the version's top-level enums, nested in the enum") { $0.enums },
        .list("structs", "the version's top-level structs, nested in the enum") { $0.structs },
    ])
}

/// A migration plan (template `plan`): one per container of the current model (`MigrationPlan`
/// without a container), through every frozen version.
final class PlanViewModel: ViewModel {
    let name: String
    let containerName: String?
    let history: MigrationHistory
    private(set) lazy var steps: [StepViewModel] = history.steps.map { StepViewModel($0) }

    init(name: String, containerName: String?, history: MigrationHistory) {
        self.name = name
        self.containerName = containerName
        self.history = history
    }

    static let templateKeys = TemplateKeys<PlanViewModel>(listElement: true, [
        .string("name", "the plan's enum (`TripStoreMigrationPlan`, or `MigrationPlan` for a model without a container)") { $0.name },
        .string("containerName", "the container it migrates the store of (\"\" for a model without a container)") { $0.containerName ?? "" },
        .bool("hasContainer", "whether the model has a container") { $0.containerName != nil },
        .list("versions", "every frozen version, oldest first (each with `version`, `schemaName`)") {
            $0.history.versions.map { VersionReferenceViewModel($0.version) }
        },
        .list("steps", "the steps between consecutive versions, in order: the plan's stages") { $0.steps },
        .list("customSteps", "the steps declared custom") { $0.steps.filter(\.step.isCustom) },
        .bool("hasCustomStages", "whether a step is declared custom") { $0.history.steps.contains(where: \.isCustom) },
        .string("customStagesProtocolName", "the protocol of the custom stages' functions, which the plan conforms to (`TripStoreMigrationPlanCustomStages`)") {
            MigrationHistory.customStagesProtocolName(of: $0.name)
        },
    ])
}

/// A version named in a plan's `schemas`.
final class VersionReferenceViewModel: ViewModel {
    let version: SchemaVersion

    init(_ version: SchemaVersion) {
        self.version = version
    }

    static let templateKeys = TemplateKeys<VersionReferenceViewModel>(listElement: true, [
        .string("version", "the version (`1.0.0`)") { $0.version.description },
        .string("schemaName", "its `VersionedSchema` enum (`SchemaV1_0_0`)") { $0.version.schemaName },
    ])
}

/// A step between two consecutive versions: a stage of a plan.
final class StepViewModel: ViewModel {
    let step: MigrationHistory.Step

    init(_ step: MigrationHistory.Step) {
        self.step = step
    }

    static let templateKeys = TemplateKeys<StepViewModel>(listElement: true, [
        .string("fromVersion", "the version it starts from (`1.0.0`)") { $0.step.from.description },
        .string("toVersion", "the version it goes to (`2.0.0`)") { $0.step.to?.description ?? "" },
        .string("fromSchemaName", "the `VersionedSchema` it starts from (`SchemaV1_0_0`)") { $0.step.from.schemaName },
        .string("toSchemaName", "the `VersionedSchema` it goes to (`SchemaV2_0_0`)") { $0.step.to?.schemaName ?? "" },
        .bool("isCustom", "whether the model declares it custom (`migration \"1.0.0\" -> \"2.0.0\" { custom }`)") { $0.step.isCustom },
        .string("willMigrateName", "the function its custom stage calls before the schema changes (`willMigrateV1_0_0ToV2_0_0`)") { $0.step.willMigrateName },
        .string("didMigrateName", "the function its custom stage calls after the schema changed (`didMigrateV1_0_0ToV2_0_0`)") { $0.step.didMigrateName },
        .list("changes", "every change of the step, each `Entity.property: what`") { $0.step.changes.map(\.description) },
        .list("customChanges", "the changes that are not inferred: the stage's code handles them") {
            $0.step.changes.filter { $0.classification != .inferred }.map(\.description)
        },
        .bool("hasCustomChanges", "whether `customChanges` is not empty") { $0.step.changes.contains { $0.classification != .inferred } },
    ])
}
