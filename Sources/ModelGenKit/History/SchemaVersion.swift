internal import SchemaEvolution

/// A version of the model's history, `MAJOR[.MINOR[.PATCH]]` (missing parts are 0), as
/// `modelgen freeze --version` takes it, a `.modelversion` file is named and a `migration`
/// declaration names it. The same text and order as ModelStore's `Schema.Version`.
public struct SchemaVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The version written `MAJOR[.MINOR[.PATCH]]`, or nil when `text` is not one (decimal digits
    /// only, at most 9 of them per part, no sign, no empty part).
    public init?(_ text: String) {
        guard let parts = parseVersionParts(text, maxDigits: 9) else { return nil }
        self.init(parts.major, parts.minor, parts.patch)
    }

    /// `major.minor.patch` (`1.0.0`).
    public var description: String { "\(major).\(minor).\(patch)" }

    /// The version as a Swift identifier part: `1_0_0`.
    public var identifierPart: String { "\(major)_\(minor)_\(patch)" }

    /// The name of the generated `VersionedSchema` of this version: `SchemaV1_0_0` (docs/Migrations.md).
    public var schemaName: String { "SchemaV" + identifierPart }

    public static func < (lhs: SchemaVersion, rhs: SchemaVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// The file extension of frozen versions, without the dot.
    public static let fileExtension = "modelversion"

    /// The version a `.modelversion` file's name gives (`ModelVersions/1.2.modelversion` → 1.2.0),
    /// or nil when the path is not a `.modelversion` file or its stem is not a version.
    static func ofVersionFile(_ path: String) -> SchemaVersion? {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        let suffix = "." + fileExtension
        guard name.hasSuffix(suffix) else { return nil }
        return SchemaVersion(String(name.dropLast(suffix.count)))
    }

    /// Whether `path` names a `.modelversion` file (by its extension alone).
    static func isVersionFile(_ path: String) -> Bool {
        path.hasSuffix("." + fileExtension)
    }
}
