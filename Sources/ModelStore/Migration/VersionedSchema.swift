import Foundation
internal import SchemaEvolution

extension Schema {
    /// A schema version, `major.minor.patch` (SwiftData's `Schema.Version`). Ordered by major, then
    /// minor, then patch; written as `"1.2.3"` (JSON string) in a store's description.
    public struct Version: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
        public var major: Int
        public var minor: Int
        public var patch: Int

        /// The version `major.minor.patch`.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// The version written `MAJOR[.MINOR[.PATCH]]` (missing parts are 0), or nil when `text`
        /// is not such a version (non-negative decimal numbers only).
        public init?(_ text: String) {
            guard let parts = parseVersionParts(text) else { return nil }
            self.init(parts.major, parts.minor, parts.patch)
        }

        /// `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        /// Decodes `"1.2.3"`.
        ///
        /// - Throws: `DecodingError.dataCorrupted` when the string is not a version.
        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let version = Version(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a schema version: \(text)"))
            }
            self = version
        }

        /// Encodes `"1.2.3"`.
        ///
        /// - Throws: the encoder's error.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    /// The schema of one version of a model (SwiftData's `Schema(versionedSchema:)`): its models,
    /// their bases and subclasses.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models)
        version = versionedSchema.versionIdentifier
    }
}

#if compiler(>=6.2)
/// What the migration protocols refine: metatypes that are `Sendable` (stages hold them, a
/// container keeps its plan). Before Swift 6.2 every metatype is, and this is a plain protocol.
public typealias _ModelStoreSendableMetatype = SendableMetatype
#else
/// What the migration protocols refine (Swift 6.2 and later: `SendableMetatype`).
public protocol _ModelStoreSendableMetatype {}
#endif

/// One version of a model (SwiftData's `VersionedSchema`): its version and the model classes it
/// had, typically nested in the conforming enum so that old versions keep their own classes:
///
/// ```swift
/// enum SchemaV1_0_0: VersionedSchema {
///     static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
///     static var models: [any PersistentModel.Type] { [Trip.self] }
///     final class Trip: ModelObject { … }   // entity name "Trip"
/// }
/// ```
public protocol VersionedSchema: _ModelStoreSendableMetatype {
    /// The version.
    static var versionIdentifier: Schema.Version { get }
    /// The model classes of this version (a listed base brings its subclasses, as in `Schema`).
    static var models: [any PersistentModel.Type] { get }
}

/// The history of a model and how a store moves through it (SwiftData's `SchemaMigrationPlan`).
/// `ModelContainer(for:migrationPlan:configurations:)` takes it.
public protocol SchemaMigrationPlan: _ModelStoreSendableMetatype {
    /// Every version, oldest first (versions must increase).
    static var schemas: [any VersionedSchema.Type] { get }
    /// How to go from one version to the next. A step between two consecutive versions with no
    /// stage is lightweight.
    static var stages: [MigrationStage] { get }
}

/// How a store goes from one version to the next (SwiftData's `MigrationStage`).
public enum MigrationStage: Sendable {
    /// Every change of the step is inferred (docs/Migrations.md lists which are); any other change
    /// makes the open fail with `MigrationError.notInferable`.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// `willMigrate` runs in a context on `fromVersion`'s models, then the schema changes (changes
    /// that cannot be inferred are applied too: a column whose type changes is refilled with its
    /// default, nil or a zero value), then `didMigrate` runs in a context on `toVersion`'s models.
    /// Each context's unsaved changes are saved after its closure returns. The whole migration is
    /// one transaction: an error in either closure leaves the store as it was.
    case custom(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
                willMigrate: (@Sendable (ModelContext) throws -> Void)?, didMigrate: (@Sendable (ModelContext) throws -> Void)?)

    /// The version the stage starts from.
    var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): return from
        }
    }

    /// The version the stage ends at.
    var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): return to
        }
    }
}
