/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Codable {
    case error
    case warning
    case note
}

/// The id of a rule of docs/Rules.md, printed in brackets at the end of a diagnostic's first line.
public struct RuleID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let syntax = RuleID("syntax")
    public static let duplicateDeclaration = RuleID("duplicate-declaration")
    public static let duplicateProperty = RuleID("duplicate-property")
    public static let duplicateCase = RuleID("duplicate-case")
    public static let unknownType = RuleID("unknown-type")
    public static let unsupportedType = RuleID("unsupported-type")
    public static let inheritanceCycle = RuleID("inheritance-cycle")
    public static let flatHierarchy = RuleID("flat-hierarchy")
    public static let shadowedProperty = RuleID("shadowed-property")
    public static let labelOnlySubclass = RuleID("label-only-subclass")
    public static let missingSuperInit = RuleID("missing-super-init")
    public static let superInitMismatch = RuleID("super-init-mismatch")
    public static let superInitInBase = RuleID("super-init-in-base")
    public static let uninitializedProperty = RuleID("uninitialized-property")
    public static let unknownInitParameter = RuleID("unknown-init-parameter")
    public static let inverseMismatch = RuleID("inverse-mismatch")
    public static let ambiguousInverse = RuleID("ambiguous-inverse")
    public static let optionalToOne = RuleID("optional-to-one")
    public static let invalidAttribute = RuleID("invalid-attribute")
    public static let defaultTypeMismatch = RuleID("default-type-mismatch")
    public static let reservedName = RuleID("reserved-name")
    public static let redundantRegistration = RuleID("redundant-registration")
    public static let unregisteredBase = RuleID("unregistered-base")
    public static let danglingNoAction = RuleID("dangling-no-action")
    public static let cascadeCycle = RuleID("cascade-cycle")
    public static let migrationNotInferable = RuleID("migration-not-inferable")

    /// Every rule id of docs/Rules.md with its severity.
    public static let all: [(RuleID, Severity)] = [
        (.syntax, .error), (.duplicateDeclaration, .error), (.duplicateProperty, .error),
        (.duplicateCase, .error), (.unknownType, .error), (.unsupportedType, .error),
        (.inheritanceCycle, .error), (.flatHierarchy, .error), (.shadowedProperty, .error),
        (.labelOnlySubclass, .error), (.missingSuperInit, .error), (.superInitMismatch, .error),
        (.superInitInBase, .error), (.uninitializedProperty, .error), (.unknownInitParameter, .error),
        (.inverseMismatch, .error), (.ambiguousInverse, .error), (.optionalToOne, .error),
        (.invalidAttribute, .error), (.defaultTypeMismatch, .error), (.reservedName, .error),
        (.redundantRegistration, .warning), (.unregisteredBase, .warning), (.danglingNoAction, .warning),
        (.cascadeCycle, .warning), (.migrationNotInferable, .error),
    ]
}

/// A secondary message attached to a diagnostic ("base declared here", a suggested rewrite).
public struct DiagnosticNote: Hashable, Sendable {
    public var message: String
    /// Where the note points; `nil` for a note that is about no particular place.
    public var range: SourceRange?

    public init(_ message: String, at range: SourceRange? = nil) {
        self.message = message
        self.range = range
    }
}

/// One finding about the input: where, how serious, which rule, what to do.
public struct Diagnostic: Hashable, Sendable {
    public var severity: Severity
    public var rule: RuleID
    public var message: String
    public var range: SourceRange
    public var notes: [DiagnosticNote]

    public init(_ severity: Severity, _ rule: RuleID, _ message: String, at range: SourceRange, notes: [DiagnosticNote] = []) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.range = range
        self.notes = notes
    }

    public static func error(_ rule: RuleID, _ message: String, at range: SourceRange, notes: [DiagnosticNote] = []) -> Diagnostic {
        Diagnostic(.error, rule, message, at: range, notes: notes)
    }

    public static func warning(_ rule: RuleID, _ message: String, at range: SourceRange, notes: [DiagnosticNote] = []) -> Diagnostic {
        Diagnostic(.warning, rule, message, at: range, notes: notes)
    }
}
