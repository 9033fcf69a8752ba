/// The steps that take a store from the schema it holds to the container's schema, decided from
/// the descriptions alone (no data is read): the migration plan's stages from the store's version,
/// or one inferred step without a plan.
struct MigrationPath {
    /// One step.
    enum Step {
        /// An empty store: create every table of the target.
        case create
        /// Inferred changes only, to `to`. `versions` are the plan's versions around the step
        /// (nil without a plan; a nil side is the store or the current schema).
        case infer(to: StoredSchema, versions: (from: Schema.Version?, to: Schema.Version?)?)
        /// A custom stage between two versions of the plan.
        case custom(from: PlanVersion, to: PlanVersion,
                    willMigrate: (@Sendable (ModelContext) throws -> Void)?, didMigrate: (@Sendable (ModelContext) throws -> Void)?)
    }

    /// The steps, in order.
    var steps: [Step]
    /// The description to record once the steps ran.
    var target: StoredSchema

    /// One version of a migration plan, resolved.
    struct PlanVersion {
        let version: Schema.Version
        let schema: Schema
        /// `schema.storage`, with `version` as its schema version.
        let storage: StoredSchema
    }

    /// The path from `stored` (nil for an empty store) to `schema`, through `plan` if given; nil
    /// when the store is up to date (nothing to write).
    ///
    /// - Throws: `MigrationError` for a store newer than the plan, an unknown history, a store
    ///   that does not match the version it records, or an invalid plan;
    ///   `ModelStoreError.invalidSchema` for a version whose models are inconsistent.
    static func resolve(stored: StoredSchema?, schema: Schema, plan: (any SchemaMigrationPlan.Type)?) throws -> MigrationPath? {
        let current = schema.storage
        guard let plan else {
            var target = current
            guard let stored else { return MigrationPath(steps: [.create], target: target) }
            if stored.describesSameSchema(as: current) {
                // Same schema: keep the version it records (a store opened once without its plan).
                target.schemaVersion = stored.schemaVersion
                return stored.hasEntities ? nil : MigrationPath(steps: [], target: target)
            }
            return MigrationPath(steps: [.infer(to: current, versions: nil)], target: target)
        }

        let versions = try resolvedVersions(of: plan)
        let stages = try resolvedStages(of: plan, versions: versions)
        // The current schema is the last version it equals; or newer than every version.
        let currentIndex = versions.lastIndex { $0.storage.describesSameSchema(as: current) }
        var target = current
        target.schemaVersion = currentIndex.map { versions[$0].version }
        guard let stored else { return MigrationPath(steps: [.create], target: target) }

        let known = versions.map(\.version)
        let start: Int
        if let version = stored.schemaVersion {
            guard let index = known.firstIndex(of: version) else {
                if let newest = known.last, version > newest { throw MigrationError.storeIsNewer(storeVersion: version, newestKnownVersion: newest) }
                throw MigrationError.unknownHistory(storeVersion: version, knownVersions: known)
            }
            guard stored.describesSameSchema(as: versions[index].storage) else {
                throw MigrationError.storeDoesNotMatchVersion(version: version, differences: versions[index].storage.differences(to: stored))
            }
            if let currentIndex, index > currentIndex {
                throw MigrationError.storeIsNewer(storeVersion: version, newestKnownVersion: known[currentIndex])
            }
            start = index
        } else if let index = versions.lastIndex(where: { $0.storage.describesSameSchema(as: stored) }) {
            start = index
        } else if stored.describesSameSchema(as: current) {
            return MigrationPath(steps: [], target: target)
        } else {
            throw MigrationError.unknownHistory(storeVersion: nil, knownVersions: known)
        }

        var steps: [Step] = []
        let end = currentIndex ?? versions.count - 1
        for index in start..<max(start, end) {
            let from = versions[index]
            let to = versions[index + 1]
            switch stages[index] {
            case .custom(_, _, let willMigrate, let didMigrate)?:
                steps.append(.custom(from: from, to: to, willMigrate: willMigrate, didMigrate: didMigrate))
            case .lightweight?, nil:
                steps.append(.infer(to: to.storage, versions: (from.version, to.version)))
            }
        }
        if currentIndex == nil {
            steps.append(.infer(to: target, versions: (known.last, nil)))
        }
        if steps.isEmpty && stored.hasEntities && stored.schemaVersion == target.schemaVersion { return nil }
        return MigrationPath(steps: steps, target: target)
    }

    /// The plan's versions, checked: at least one, increasing.
    private static func resolvedVersions(of plan: any SchemaMigrationPlan.Type) throws -> [PlanVersion] {
        let schemas = plan.schemas
        guard !schemas.isEmpty else { throw MigrationError.invalidPlan("\(plan) lists no schema") }
        var result: [PlanVersion] = []
        for versioned in schemas {
            let version = versioned.versionIdentifier
            if let previous = result.last?.version, previous >= version {
                throw MigrationError.invalidPlan("versions must increase: \(version) (\(versioned)) follows \(previous)")
            }
            let schema = Schema(versionedSchema: versioned)
            guard schema.problems.isEmpty else {
                throw ModelStoreError.invalidSchema("version \(version) (\(versioned)): " + schema.problems.joined(separator: "; "))
            }
            var storage = schema.storage
            storage.schemaVersion = version
            result.append(PlanVersion(version: version, schema: schema, storage: storage))
        }
        return result
    }

    /// The stage of each step (index `i`: from version `i` to `i + 1`; nil: lightweight), checked:
    /// stages go between consecutive versions of the plan, at most one per step.
    private static func resolvedStages(of plan: any SchemaMigrationPlan.Type, versions: [PlanVersion]) throws -> [MigrationStage?] {
        var result = [MigrationStage?](repeating: nil, count: max(0, versions.count - 1))
        let known = versions.map(\.version)
        for stage in plan.stages {
            let from = stage.fromVersion.versionIdentifier
            let to = stage.toVersion.versionIdentifier
            guard let fromIndex = known.firstIndex(of: from), let toIndex = known.firstIndex(of: to) else {
                throw MigrationError.invalidPlan("the stage \(from) → \(to) names a version the plan's schemas do not list")
            }
            guard toIndex == fromIndex + 1 else {
                throw MigrationError.invalidPlan("the stage \(from) → \(to) does not go from a version to the next one")
            }
            guard result[fromIndex] == nil else {
                throw MigrationError.invalidPlan("two stages go from \(from) to \(to)")
            }
            result[fromIndex] = stage
        }
        return result
    }
}

extension StoredSchema {
    /// How `other` differs from this schema, for messages: entities and properties added,
    /// removed or changed.
    func differences(to other: StoredSchema) -> [String] {
        guard hasEntities && other.hasEntities else {
            let mine = Set(tables.map(\.name))
            let theirs = Set(other.tables.map(\.name))
            var result = theirs.subtracting(mine).sorted().map { "table \($0): added" }
            result += mine.subtracting(theirs).sorted().map { "table \($0): missing" }
            for table in tables where theirs.contains(table.name) && other.table(named: table.name) != table {
                result.append("table \(table.name): differs")
            }
            return result
        }
        var result: [String] = []
        for entity in other.entities where self.entity(named: entity.name) == nil { result.append("\(entity.name): entity added") }
        for entity in entities {
            guard let changed = other.entity(named: entity.name) else {
                result.append("\(entity.name): entity missing")
                continue
            }
            if changed.base != entity.base { result.append("\(entity.name): base \(entity.base ?? "none") → \(changed.base ?? "none")") }
            for property in changed.properties where entity.property(named: property.name) == nil {
                result.append("\(entity.name).\(property.name): property added")
            }
            for property in entity.properties {
                guard let other = changed.property(named: property.name) else {
                    result.append("\(entity.name).\(property.name): property missing")
                    continue
                }
                if other != property { result.append("\(entity.name).\(property.name): differs") }
            }
            if Set(changed.uniqueConstraints) != Set(entity.uniqueConstraints) { result.append("\(entity.name): unique constraints differ") }
            if Set(changed.indexes) != Set(entity.indexes) { result.append("\(entity.name): indexes differ") }
        }
        return result.isEmpty ? ["tables differ"] : result
    }
}
