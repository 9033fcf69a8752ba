// The abstract syntax tree of a `.model` file (docs/Language.md). Every node carries its source range.
// The tree is shallow by construction: types and defaults nest at most a fixed depth (the parser
// enforces it), so no code that walks it recurses as deep as the input's nesting.
//
// Memory: a run holds every file's tree while it checks them, so the declarations (entities,
// properties, inits, enums, enum cases, structs, containers, macros) and doc comments are immutable
// final classes. A list of members is then a list of pointers (an inline enum of structs was as
// large as its largest member, 208 bytes), and the semantic model refers to a declaration instead
// of copying it. The small leaves (names, types, values) stay values.

/// A name as written, with its range. `isEscaped` is true for a name written in backticks.
struct Identifier: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var range: SourceRange
    public var isEscaped: Bool

    public init(_ name: String, range: SourceRange, isEscaped: Bool = false) {
        self.name = name
        self.range = range
        self.isEscaped = isEscaped
    }

    public var description: String { name }
}

/// A comment kept for `modelgen format`. `text` is the comment exactly as written, markers included.
struct Comment: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case line, block, doc }
    public var kind: Kind
    public var text: String
    public var range: SourceRange

    public init(kind: Kind, text: String, range: SourceRange) {
        self.kind = kind
        self.text = text
        self.range = range
    }
}

/// A `///` doc comment: the text of each line after `///` (one leading space removed).
///
/// The lines are kept as one text joined by line breaks (a line never holds one): one allocation
/// at most, where a list of lines took one more for the list.
final class DocComment: Hashable, Sendable {
    /// The lines joined by `\n`; `nil` for no line at all.
    private let text: String?
    let range: SourceRange

    init(lines: [String], range: SourceRange) {
        self.text = lines.isEmpty ? nil : lines.joined(separator: "\n")
        self.range = range
    }

    var lines: [String] {
        guard let text else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func == (lhs: DocComment, rhs: DocComment) -> Bool {
        lhs.text == rhs.text && lhs.range == rhs.range
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(range)
    }
}

/// One parsed file.
struct ModelFile: Sendable {
    public var source: SourceFile
    public var declarations: [Declaration]
    /// Every comment of the file (including doc comments), in source order.
    public var comments: [Comment]

    public init(source: SourceFile, declarations: [Declaration], comments: [Comment]) {
        self.source = source
        self.declarations = declarations.compacted()
        self.comments = comments
    }
}

/// A top-level declaration.
enum Declaration: Sendable {
    case entity(EntityDecl)
    case enumeration(EnumDecl)
    case container(ContainerDecl)
    /// `struct Name { fields }`: a composite attribute type.
    case structure(StructDecl)
    /// `migration "1.0.0" -> "2.0.0" { custom }`: a step of the model's history declared custom.
    case migration(MigrationDecl)
    /// `@ModelActor actor Name`: an actor generated as SwiftData's `@ModelActor` macro expands.
    case modelActor(ModelActorDecl)

    public var range: SourceRange {
        switch self {
        case .entity(let d): d.range
        case .enumeration(let d): d.range
        case .container(let d): d.range
        case .structure(let d): d.range
        case .migration(let d): d.range
        case .modelActor(let d): d.range
        }
    }

    public var name: Identifier {
        switch self {
        case .entity(let d): d.name
        case .enumeration(let d): d.name
        case .container(let d): d.name
        case .structure(let d): d.name
        case .migration(let d): Identifier("\(d.from.text) -> \(d.to.text)", range: d.keywordRange)
        case .modelActor(let d): d.name
        }
    }
}

/// `@ModelActor actor Name [{ }]`: an actor with SwiftData's `ModelActor` members (its executor,
/// container and `init(modelContainer:)`); its methods go in a Swift extension (docs/Language.md).
final class ModelActorDecl: Sendable {
    let doc: DocComment?
    /// The attributes written before `actor` (`@ModelActor`; any other is reported by the checker).
    let attributes: [AttributeDecl]
    let name: Identifier
    /// The range of the `actor` word.
    let keywordRange: SourceRange
    /// From the first attribute to the name, or to the closing brace of an empty body.
    let range: SourceRange

    init(doc: DocComment?, attributes: [AttributeDecl], name: Identifier, keywordRange: SourceRange, range: SourceRange) {
        self.doc = doc
        self.attributes = attributes.compacted()
        self.name = name
        self.keywordRange = keywordRange
        self.range = range
    }
}

/// `migration "1.0.0" -> "2.0.0" { custom }`: declares the step between two consecutive versions
/// of the model's history custom, so that its changes that cannot be inferred are allowed and the
/// generated migration plan calls the user's code for it (docs/Migrations.md).
struct MigrationDecl: Sendable {
    /// A version as written: the string literal's text and range.
    struct VersionLiteral: Sendable {
        public var text: String
        public var range: SourceRange

        public init(text: String, range: SourceRange) {
            self.text = text
            self.range = range
        }
    }

    public var doc: DocComment?
    public var from: VersionLiteral
    public var to: VersionLiteral
    /// The word in the braces (`custom`, the only kind of step there is to declare), with its range.
    public var kind: Identifier
    /// The range of the `migration` word.
    public var keywordRange: SourceRange
    /// From the `migration` word to the closing brace.
    public var range: SourceRange

    public init(doc: DocComment?, from: VersionLiteral, to: VersionLiteral, kind: Identifier, keywordRange: SourceRange, range: SourceRange) {
        self.doc = doc
        self.from = from
        self.to = to
        self.kind = kind
        self.keywordRange = keywordRange
        self.range = range
    }
}

/// `[@Entity(originalName: "Old")] entity Name[: Base] { members }`
final class EntityDecl: Sendable {
    let doc: DocComment?
    /// Attributes written before the `entity` keyword (`@Entity(originalName: "Old")`).
    let attributes: [AttributeDecl]
    let name: Identifier
    let base: Identifier?
    let members: [EntityMember]
    /// The range of the `entity` keyword.
    let keywordRange: SourceRange
    /// From the first attribute (or the `entity` keyword) to the closing brace.
    let range: SourceRange

    init(doc: DocComment?, name: Identifier, base: Identifier?, members: [EntityMember], range: SourceRange,
         attributes: [AttributeDecl] = [], keywordRange: SourceRange? = nil) {
        self.doc = doc
        self.attributes = attributes.compacted()
        self.name = name
        self.base = base
        self.members = members.compacted()
        self.keywordRange = keywordRange ?? SourceRange(file: range.file, start: range.start, end: range.start)
        self.range = range
    }
}

/// `struct Name[: Codable, …] { fields }`, top level or inside an entity: SwiftData's composite
/// attribute, a Codable value type whose fields are attributes.
final class StructDecl: Sendable {
    let doc: DocComment?
    let name: Identifier
    /// The conformances written after `:` (`Codable`, `Hashable`, …); they change nothing.
    let inheritance: [Identifier]
    /// The fields, written like entity properties (`[var] name: Type [= default]`).
    let fields: [PropertyDecl]
    /// From the `struct` keyword to the closing brace.
    let range: SourceRange

    init(doc: DocComment?, name: Identifier, inheritance: [Identifier], fields: [PropertyDecl], range: SourceRange) {
        self.doc = doc
        self.name = name
        self.inheritance = inheritance.compacted()
        self.fields = fields.compacted()
        self.range = range
    }
}

/// A member of an entity body.
enum EntityMember: Sendable {
    case property(PropertyDecl)
    case initializer(InitDecl)
    case enumeration(EnumDecl)
    /// A struct nested in the entity (named `Entity.Struct` outside it).
    case structure(StructDecl)
    /// `#Unique(...)` or `#Index(...)`.
    case constraint(ConstraintMacro)

    public var range: SourceRange {
        switch self {
        case .property(let d): d.range
        case .initializer(let d): d.range
        case .enumeration(let d): d.range
        case .structure(let d): d.range
        case .constraint(let d): d.range
        }
    }
}

/// `[attributes] [var] name: Type [= default]`
final class PropertyDecl: Sendable {
    let doc: DocComment?
    let attributes: [AttributeDecl]
    let name: Identifier
    /// After `name`, in the bytes its layout leaves free: the fields take 168 bytes, not 176.
    let hasVar: Bool
    let type: TypeExpr
    let defaultValue: Expression?
    /// From the first attribute (or `var`, or the name) to the end of the type or default.
    let range: SourceRange

    init(doc: DocComment?, attributes: [AttributeDecl], hasVar: Bool, name: Identifier, type: TypeExpr, defaultValue: Expression?, range: SourceRange) {
        self.doc = doc
        self.attributes = attributes.compacted()
        self.hasVar = hasVar
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.range = range
    }
}

/// One component of a type name as written (`PersonalTrip` in `PersonalTrip.Reason`). It has no
/// range of its own (the type's range covers the name), so equal names can share one list: the
/// parser keeps one `[TypeNamePart]` per distinct type name of a file, and every type spelled with
/// that name refers to it (a type name costs no allocation of its own).
struct TypeNamePart: Hashable, Sendable {
    let name: String
    /// Written in backticks.
    let isEscaped: Bool

    init(_ identifier: Identifier) {
        self.init(identifier.name, isEscaped: identifier.isEscaped)
    }

    init(_ name: String, isEscaped: Bool = false) {
        self.name = name
        self.isEscaped = isEscaped
    }
}

/// A type as written. Nesting depth is bounded by the parser. Only the cases that hold a type
/// inline are boxed (`indirect`): a name, the commonest type, costs no box.
enum TypeKind: Hashable, Sendable {
    /// `Name` or `Outer.Inner` (components in order).
    case named([TypeNamePart])
    /// `T?`
    indirect case optional(TypeExpr)
    /// `[T]`
    indirect case array(TypeExpr)
    /// `[K: V]` (never storable: `unsupported-type`).
    indirect case dictionary(TypeExpr, TypeExpr)
    /// `(A, B)` or `()` (never storable: `unsupported-type`).
    case tuple([TypeExpr])
    /// `Name<A, B>`: Swift's generic spelling (`Set<String>`, `Array<Int>`; never storable: `unsupported-type`).
    indirect case generic([TypeNamePart], [TypeExpr])
}

struct TypeExpr: Hashable, Sendable, CustomStringConvertible {
    public var kind: TypeKind
    public var range: SourceRange

    public init(_ kind: TypeKind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// True for `T?`.
    public var isOptional: Bool {
        if case .optional = kind { return true }
        return false
    }

    /// The type as Swift spells it (`[String]?`, `PersonalTrip.Reason`).
    public var description: String {
        switch kind {
        case .named(let parts): parts.map(\.name).joined(separator: ".")
        case .optional(let t): "\(t)?"
        case .array(let t): "[\(t)]"
        case .dictionary(let k, let v): "[\(k): \(v)]"
        case .tuple(let ts): "(" + ts.map(\.description).joined(separator: ", ") + ")"
        case .generic(let parts, let ts): parts.map(\.name).joined(separator: ".") + "<" + ts.map(\.description).joined(separator: ", ") + ">"
        }
    }
}

/// A default value or attribute argument value.
indirect enum ExpressionKind: Hashable, Sendable {
    case string(String)
    /// The integer as written, `_` removed, sign included (`-12`). Kept as text so that out-of-range
    /// values can be diagnosed against the property's type.
    case integer(String)
    /// The floating-point literal as written (`_` removed).
    case float(String)
    case bool(Bool)
    case `nil`
    /// `.caseName` (also `.cascade`, `.unique` in attribute arguments, `.now` for a Date).
    case memberAccess(Identifier)
    /// `Type.member` (`Date.now`, `Kind.basic`): the type's name (one or more components), then the member.
    case typeMember([Identifier], Identifier)
    /// `[a, b]`; elements are literals (no nested arrays).
    case array([Expression])
    /// `UUID()`, `Date()`, `Date(timeIntervalSinceReferenceDate: 0)`: a call of a type name, with
    /// arguments that are literals (never calls or arrays, so values nest a bounded depth).
    case call(Identifier, [CallArgument])
    /// `\E.prop` or `\.prop` (in attributes and macros).
    case keyPath(KeyPathExpr)
}

struct Expression: Hashable, Sendable {
    public var kind: ExpressionKind
    public var range: SourceRange

    public init(_ kind: ExpressionKind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// `label: value` or `value` in the arguments of a call (`Date(timeIntervalSinceReferenceDate: 0)`).
struct CallArgument: Hashable, Sendable {
    public var label: Identifier?
    public var value: Expression
    public var range: SourceRange

    public init(label: Identifier?, value: Expression, range: SourceRange) {
        self.label = label
        self.value = value
        self.range = range
    }
}

/// `\Root.a` or `\.a`.
struct KeyPathExpr: Hashable, Sendable {
    public var root: Identifier?
    public var components: [Identifier]
    public var range: SourceRange

    public init(root: Identifier?, components: [Identifier], range: SourceRange) {
        self.root = root
        self.components = components.compacted()
        self.range = range
    }
}

/// `@Attribute(...)`, `@Relationship(...)`, `@Transient` (or any other `@Name`, diagnosed later).
struct AttributeDecl: Sendable {
    /// The name after `@`.
    public var name: Identifier
    public var arguments: [AttributeArgument]
    /// True when parentheses were written (even empty).
    public var hasParentheses: Bool
    public var range: SourceRange

    public init(name: Identifier, arguments: [AttributeArgument], hasParentheses: Bool, range: SourceRange) {
        self.name = name
        self.arguments = arguments.compacted()
        self.hasParentheses = hasParentheses
        self.range = range
    }
}

/// `label: value` or an unlabeled `value` (e.g. `.unique`).
struct AttributeArgument: Sendable {
    public var label: Identifier?
    public var value: Expression
    public var range: SourceRange

    public init(label: Identifier?, value: Expression, range: SourceRange) {
        self.label = label
        self.value = value
        self.range = range
    }
}

/// `init(p1, p2 = value) [{ super.init(q1, q2) }]`
final class InitDecl: Sendable {
    let doc: DocComment?
    let parameters: [Identifier]
    /// The default argument written after each parameter (`startDate = .now`), in the order of
    /// `parameters` (`nil` where none is written), or empty when no parameter has one. Each
    /// expression carries its range.
    let parameterDefaults: [Expression?]
    let superInit: SuperInitCall?
    /// The range of the `init` keyword (diagnostics about the init point here).
    let keywordRange: SourceRange
    let range: SourceRange

    init(doc: DocComment?, parameters: [Identifier], superInit: SuperInitCall?, keywordRange: SourceRange, range: SourceRange,
         parameterDefaults: [Expression?] = []) {
        self.doc = doc
        self.parameters = parameters.compacted()
        self.parameterDefaults = parameterDefaults.contains { $0 != nil } ? parameterDefaults : []
        self.superInit = superInit
        self.keywordRange = keywordRange
        self.range = range
    }

    /// The default argument written for the parameter at `index`, if any.
    func defaultValue(at index: Int) -> Expression? {
        index < parameterDefaults.count ? parameterDefaults[index] : nil
    }
}

/// `super.init(q1, q2)`
struct SuperInitCall: Sendable {
    public var arguments: [Identifier]
    public var range: SourceRange

    public init(arguments: [Identifier], range: SourceRange) {
        self.arguments = arguments.compacted()
        self.range = range
    }
}

/// `#Unique<E>([\.a], [\.b, \.c])` or `#Index(...)`.
final class ConstraintMacro: Sendable {
    enum Kind: String, Sendable { case unique = "Unique", index = "Index" }
    let kind: Kind
    let genericArgument: Identifier?
    /// Each group is one constraint or index over the listed key paths.
    let groups: [[KeyPathExpr]]
    let range: SourceRange

    init(kind: Kind, genericArgument: Identifier?, groups: [[KeyPathExpr]], range: SourceRange) {
        self.kind = kind
        self.genericArgument = genericArgument
        self.groups = groups.map { $0.compacted() }
        self.range = range
    }
}

/// `enum Name: String[, Codable] { case a, b = "bee" }`, or an enum whose cases carry associated
/// values (`enum Shape: Codable { case circle(radius: Double), square(Double) }`).
final class EnumDecl: Sendable {
    let doc: DocComment?
    let name: Identifier
    /// The inheritance clause as written, in order (`String`, `Codable`). The first is the raw type.
    let inheritance: [Identifier]
    let cases: [EnumCaseDecl]
    let range: SourceRange

    init(doc: DocComment?, name: Identifier, inheritance: [Identifier], cases: [EnumCaseDecl], range: SourceRange) {
        self.doc = doc
        self.name = name
        self.inheritance = inheritance.compacted()
        self.cases = cases.compacted()
        self.range = range
    }
}

/// One case of an enum, with its raw value or its associated values if written.
final class EnumCaseDecl: Sendable {
    let doc: DocComment?
    let name: Identifier
    let rawValue: Expression?
    /// `(radius: Double, Int)` after the name; `nil` when no parentheses were written.
    let associatedValues: [AssociatedValueDecl]?
    let range: SourceRange

    init(doc: DocComment?, name: Identifier, rawValue: Expression?, range: SourceRange, associatedValues: [AssociatedValueDecl]? = nil) {
        self.doc = doc
        self.name = name
        self.rawValue = rawValue
        self.associatedValues = associatedValues?.compacted()
        self.range = range
    }
}

/// One associated value of an enum case: `radius: Double` or just `Double`.
struct AssociatedValueDecl: Sendable {
    public var label: Identifier?
    public var type: TypeExpr
    public var range: SourceRange

    public init(label: Identifier?, type: TypeExpr, range: SourceRange) {
        self.label = label
        self.type = type
        self.range = range
    }
}

/// `container Name { A, B }`
final class ContainerDecl: Sendable {
    let doc: DocComment?
    let name: Identifier
    let entries: [Identifier]
    let range: SourceRange

    init(doc: DocComment?, name: Identifier, entries: [Identifier], range: SourceRange) {
        self.doc = doc
        self.name = name
        self.entries = entries.compacted()
        self.range = range
    }
}
