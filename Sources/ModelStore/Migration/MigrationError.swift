import Foundation

/// Why a store could not be migrated through a migration plan. On every one of these errors the
/// store is left as it was: nothing of the migration was committed.
public enum MigrationError: Error, CustomStringConvertible, Sendable {
    /// The store holds a schema version newer than the newest version the app knows.
    case storeIsNewer(storeVersion: Schema.Version, newestKnownVersion: Schema.Version)
    /// The store's history is not the plan's: its recorded version is not in the plan, or no
    /// version is recorded and its schema matches neither a version of the plan nor the current
    /// schema.
    case unknownHistory(storeVersion: Schema.Version?, knownVersions: [Schema.Version])
    /// The store records version `version` but its schema is not that version's.
    case storeDoesNotMatchVersion(version: Schema.Version, differences: [String])
    /// A lightweight step holds changes that cannot be inferred (`entity.property: what changed`);
    /// the step needs a custom stage. `from`/`to` are nil for the steps before the first or after
    /// the last version of the plan.
    case notInferable(from: Schema.Version?, to: Schema.Version?, changes: [String])
    /// A custom stage failed: its `willMigrate` or `didMigrate` threw, or the stage's schema change
    /// failed on the stored data (e.g. a property that becomes required still has nil values).
    case stageFailed(from: Schema.Version, to: Schema.Version, underlying: any Error)
    /// The plan itself is inconsistent (versions out of order, a stage between versions that are
    /// not consecutive, …).
    case invalidPlan(String)
    /// After the migration, rows reference rows that do not exist (`PRAGMA foreign_key_check`).
    case brokenReferences([String])

    public var description: String {
        switch self {
        case .storeIsNewer(let stored, let newest):
            return "the store holds schema version \(stored), newer than the newest version this app knows (\(newest))"
        case .unknownHistory(let stored, let known):
            let versions = known.map(\.description).joined(separator: ", ")
            if let stored {
                return "the store holds schema version \(stored), which the migration plan does not list (versions \(versions))"
            }
            return "the store records no schema version and its schema matches neither a version of the migration plan (\(versions)) nor the current schema"
        case .storeDoesNotMatchVersion(let version, let differences):
            return "the store records schema version \(version) but differs from that version's models: " + differences.joined(separator: "; ")
        case .notInferable(let from, let to, let changes):
            return "the migration \(Self.step(from, to)) cannot be inferred (declare a custom stage): " + changes.joined(separator: "; ")
        case .stageFailed(let from, let to, let underlying):
            return "the custom migration stage \(from) → \(to) failed: \(underlying)"
        case .invalidPlan(let message):
            return "invalid migration plan: \(message)"
        case .brokenReferences(let problems):
            return "the migration left references to missing rows: " + problems.joined(separator: "; ")
        }
    }

    private static func step(_ from: Schema.Version?, _ to: Schema.Version?) -> String {
        "\(from?.description ?? "(store)") → \(to?.description ?? "(current schema)")"
    }
}
