/// The model's history (docs/Migrations.md): its frozen versions (`.modelversion` inputs), oldest first, the
/// steps between consecutive versions and, when the model changed since the newest version, the
/// step from it to the current model. What `modelgen migrations` prints and what the generated
/// migration plans are made of.
public struct MigrationHistory: Sendable {
    /// One frozen version.
    public struct Version: Sendable {
        public var version: SchemaVersion
        /// The `.modelversion` file, as the user named it.
        public var path: String
        /// Its checked schema.
        public var schema: CheckedSchema

        init(version: SchemaVersion, path: String, schema: CheckedSchema) {
            self.version = version
            self.path = path
            self.schema = schema
        }
    }

    /// One step: from a version to the next, or to the current model.
    public struct Step: Sendable {
        public var from: SchemaVersion
        /// The version the step goes to; nil for the current model, changed since `from` and not frozen.
        public var to: SchemaVersion?
        /// Every change of the step, in the newer schema's order (removals last).
        public var changes: [SchemaChange]
        /// Where a `migration` declaration declares the step custom; nil for a lightweight step.
        public var customDeclaration: SourceRange?

        init(from: SchemaVersion, to: SchemaVersion?, changes: [SchemaChange], customDeclaration: SourceRange?) {
            self.from = from
            self.to = to
            self.changes = changes
            self.customDeclaration = customDeclaration
        }

        /// Whether the step is declared custom (its stage calls the user's code).
        public var isCustom: Bool { customDeclaration != nil }

        /// Whether a change needs a custom stage's code.
        public var needsCode: Bool { changes.contains { $0.classification == .needsCode } }

        /// The function a custom stage calls before the schema changes (`willMigrateV1_0_0ToV2_0_0`).
        public var willMigrateName: String { "willMigrate" + functionSuffix }
        /// The function a custom stage calls after the schema changes (`didMigrateV1_0_0ToV2_0_0`).
        public var didMigrateName: String { "didMigrate" + functionSuffix }

        private var functionSuffix: String {
            "V" + from.identifierPart + "ToV" + (to?.identifierPart ?? "Current")
        }
    }

    /// The frozen versions, oldest first.
    public var versions: [Version]
    /// The steps between consecutive versions, in order: the stages of the migration plans.
    public var steps: [Step]
    /// The step from the newest version to the current model, when the model changed since it
    /// (`to` is nil): ModelStore infers it at run time; it is a version of no plan until frozen.
    public var unfrozenStep: Step?
    /// The generated migration plans: `<Container>MigrationPlan` for each container of the current
    /// model, `MigrationPlan` for a model without a container; none without a version.
    public var planNames: [String]

    init(versions: [Version], steps: [Step], unfrozenStep: Step?, planNames: [String]) {
        self.versions = versions
        self.steps = steps
        self.unfrozenStep = unfrozenStep
        self.planNames = planNames
    }

    /// The newest version when the current model is that version (their stored schemas are the
    /// same: no step to the current model); nil when the model changed since it. Its `SchemaV…` enum
    /// then holds the current model's classes themselves, not copies (docs/Migrations.md "What is generated").
    var currentVersion: Version? {
        unfrozenStep == nil ? versions.last : nil
    }

    /// The name of the protocol holding the functions of `plan`'s custom stages (`TripStoreMigrationPlanCustomStages`).
    public static func customStagesProtocolName(of plan: String) -> String {
        plan + "CustomStages"
    }
}
