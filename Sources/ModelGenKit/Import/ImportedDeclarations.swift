// What `modelgen import` reads from Swift sources (docs/CommandLine.md "modelgen import"): the
// declarations SwiftData models are made of, already spelled as `.model` text piece by piece.

/// A message about the Swift sources read: an error (the file cannot be read) or a note (a
/// construct the `.model` language does not hold, and where it must go instead).
public struct ImportMessage: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        case error, note
    }

    public var path: String
    public var line: Int
    /// The column (UTF-8 bytes, from 1); printed for errors only.
    public var column: Int
    public var severity: Severity
    public var message: String

    /// `PATH:LINE:COLUMN: error: MESSAGE`, or `PATH:LINE: note: MESSAGE`.
    public var description: String {
        switch severity {
        case .error: "\(path):\(line):\(column): error: \(message)"
        case .note: "\(path):\(line): note: \(message)"
        }
    }
}

/// A stored property of a model or a field of a struct.
struct ImportedProperty {
    var doc: [String]
    var line: Int
    /// `.model` attribute lines (`@Attribute(.unique)`, `@Transient`).
    var attributes: [String]
    var name: String
    /// The type as `.model` spells it, names not yet resolved.
    var type: String
    /// The default as `.model` spells it.
    var defaultValue: String?
    /// Whether the Swift source has an empty line before it (kept, as the formatter keeps them).
    var blankLineBefore = false
}

/// A designated init that the `.model` language can declare: `init(a, b = 1) { super.init(a) }`.
struct ImportedInit {
    var doc: [String]
    var parameters: [(name: String, defaultValue: String?)]
    var superArguments: [String]?
}

struct ImportedEnum {
    var doc: [String]
    var line: Int
    var name: String
    var inheritance: [String]
    /// `case …` lines, as `.model` spells them.
    var cases: [(doc: [String], text: String)]
}

struct ImportedStruct {
    var doc: [String]
    var line: Int
    var name: String
    var inheritance: [String]
    var fields: [ImportedProperty]
}

struct ImportedEntity {
    var doc: [String]
    var line: Int
    var name: String
    /// The names after `:`; the first one is the base when it is a model.
    var inheritance: [String]
    var properties: [ImportedProperty]
    var enums: [ImportedEnum]
    var structs: [ImportedStruct]
    var inits: [ImportedInit]
    /// `#Unique…` and `#Index…` lines.
    var macros: [String]
}

/// What one scope holds: a file, the body of an enum (a `VersionedSchema`, a `SchemaMigrationPlan`)
/// or of an extension.
struct ImportedScope {
    var entities: [ImportedEntity] = []
    var enums: [ImportedEnum] = []
    var structs: [ImportedStruct] = []
    /// `@ModelActor actor Name`.
    var actors: [(doc: [String], name: String)] = []
    var typealiases: [(name: String, target: String, line: Int)] = []
    /// Enums and extensions with a body of declarations: `VersionedSchema` and
    /// `SchemaMigrationPlan` enums, extensions (which may hold a version's models).
    var scopes: [NamedScope] = []
    /// Notes about what was skipped in this scope (reported unless the scope is read otherwise).
    var skipped: [ImportMessage] = []
    /// `static … versionIdentifier = Schema.Version(1, 0, 0)`: the numbers and the line.
    var versionIdentifier: (numbers: [Int], line: Int)?
    /// The `X.self` names of `static … models`.
    var models: [String]?
    /// The `X.self` names of `static … schemas` (a migration plan).
    var schemas: [String]?
    /// `.custom(fromVersion: A.self, toVersion: B.self, …)` stages, with their line.
    var customStages: [(from: String, to: String, line: Int)] = []
}

struct NamedScope {
    enum Kind { case versionedSchema, migrationPlan, `extension` }
    var kind: Kind
    var name: String
    var line: Int
    var scope: ImportedScope
}
