// The semantic stage's working state: every declaration of the run, resolved step by step by the
// rule families in `Rules/`, then turned into a `CheckedSchema` by `CheckedSchemaBuilder`.
// A node that failed to resolve is marked (its `type` is nil, or its hierarchy is broken) and later
// rules skip it silently, so that one mistake yields one diagnostic.

/// Collects the diagnostics of the semantic stage.
struct DiagnosticSink {
    private(set) var diagnostics: [Diagnostic] = []

    /// True once any error (not a warning) was reported.
    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    mutating func error(_ rule: RuleID, _ message: String, at range: SourceRange, notes: [DiagnosticNote] = []) {
        diagnostics.append(.error(rule, message, at: range, notes: notes))
    }

    mutating func warning(_ rule: RuleID, _ message: String, at range: SourceRange, notes: [DiagnosticNote] = []) {
        diagnostics.append(.warning(rule, message, at: range, notes: notes))
    }
}

/// A property type after name resolution.
enum ResolvedType: Hashable {
    /// A storable value (`T` or `T?`).
    case value(ValueType, isOptional: Bool)
    /// `E?` (or a bare `E`, which `optional-to-one` rejects).
    case toOne(destination: String, isOptional: Bool)
    /// `[E]`
    case toMany(destination: String)

    /// The destination entity of a relationship.
    var destination: String? {
        switch self {
        case .value: nil
        case .toOne(let d, _), .toMany(let d): d
        }
    }

    var isRelationship: Bool { destination != nil }

    /// Optional values and to-one relationships start as `nil`.
    var isOptional: Bool {
        switch self {
        case .value(_, let optional): optional
        case .toOne(_, let optional): optional
        case .toMany: false
        }
    }
}

/// What the attributes of a property say, once checked (`invalid-attribute` drops what does not fit).
///
/// A run holds one per property until the schema is built, so the relationship arguments, rarer
/// and larger (a key path is 88 bytes), are kept behind one pointer: 29 bytes instead of 184.
struct PropertyOptions {
    var originalName: String?
    private var relationshipArguments: RelationshipArguments?
    var isTransient = false
    var isUnique = false
    var preserveValueOnDeletion = false
    var externalStorage = false
    var deleteRule: DeleteRule = .nullify

    /// The `.noAction`/`.cascade`/… expression as written, when one was.
    var deleteRuleRange: SourceRange? {
        get { relationshipArguments?.deleteRuleRange }
        set { updateRelationshipArguments { $0.deleteRuleRange = newValue } }
    }
    /// `inverse: \E.prop` as written, with the range of the whole argument.
    var inverse: KeyPathExpr? {
        get { relationshipArguments?.inverse }
        set { updateRelationshipArguments { $0.inverse = newValue } }
    }
    var minimumModelCount: Int? {
        get { relationshipArguments?.minimumModelCount }
        set { updateRelationshipArguments { $0.minimumModelCount = newValue } }
    }
    var maximumModelCount: Int? {
        get { relationshipArguments?.maximumModelCount }
        set { updateRelationshipArguments { $0.maximumModelCount = newValue } }
    }

    /// Replaces the box (never changed in place: copies of the options keep their values).
    private mutating func updateRelationshipArguments(_ change: (inout RelationshipArguments.Values) -> Void) {
        var values = relationshipArguments?.values ?? RelationshipArguments.Values()
        change(&values)
        relationshipArguments = RelationshipArguments(values)
    }

    /// The arguments of `@Relationship` other than the delete rule itself, boxed.
    private final class RelationshipArguments {
        struct Values {
            var deleteRuleRange: SourceRange?
            var inverse: KeyPathExpr?
            var minimumModelCount: Int?
            var maximumModelCount: Int?
        }

        let values: Values
        init(_ values: Values) { self.values = values }

        var deleteRuleRange: SourceRange? { values.deleteRuleRange }
        var inverse: KeyPathExpr? { values.inverse }
        var minimumModelCount: Int? { values.minimumModelCount }
        var maximumModelCount: Int? { values.maximumModelCount }
    }
}

/// One property of an entity, as far as it resolved. A run holds one per property until the
/// schema is built: the fields are ordered so that the struct has no padding to speak of (104 bytes).
struct PropertyInfo {
    /// The declaration in the syntax tree (shared, not copied).
    var decl: PropertyDecl
    /// The inverse property's name, once relationship resolution ran.
    var inverseName: String?
    var options = PropertyOptions()
    /// `nil` when the type did not resolve (already reported): later rules skip the property.
    var type: ResolvedType?
    /// The default value, resolved against the type (`nil` when none was written or it did not fit).
    var defaultValue: DefaultValue?
    /// True when the inverse was written on this side.
    var inverseDeclaredHere = false

    var name: String { decl.name.name }
    var isValid: Bool { type != nil }
    /// A default was written (whether or not it fit).
    var hasWrittenDefault: Bool { decl.defaultValue != nil }

    /// True when an init need not set it: optional, defaulted, transient or to-many (`[]`).
    var startsInitialized: Bool {
        guard let type else { return true }
        if hasWrittenDefault || options.isTransient || type.isOptional { return true }
        if case .toMany = type { return true }
        return false
    }
}

/// An enum declaration, top level or nested.
struct EnumInfo {
    var decl: EnumDecl
    /// `Entity.Name` for a nested enum, else the name.
    var qualifiedName: String
    var ownerEntity: String?
    /// `nil` when the enum itself is invalid (no usable raw type, a raw type with associated values,
    /// part of a cycle of value types): properties of its type are skipped.
    var checked: CheckedEnum?
    /// The declarations of the cases in `checked.cases`, in the same order (duplicates left out).
    var keptCases: [EnumCaseDecl] = []

    /// True when a case carries associated values (the enum then has no raw type).
    var hasAssociatedValues: Bool { decl.cases.contains { $0.associatedValues != nil } }
}

/// A field of a struct, as far as it resolved.
struct FieldInfo {
    var decl: PropertyDecl
    /// Always a `.value` type; `nil` when the type did not resolve (already reported).
    var type: ResolvedType?
    /// The default, resolved against the type (`nil` when none was written or it did not fit).
    var defaultValue: DefaultValue?

    var name: String { decl.name.name }
    var hasWrittenDefault: Bool { decl.defaultValue != nil }
}

/// A struct declaration, top level or nested in an entity.
struct StructInfo {
    var decl: StructDecl
    /// `Entity.Name` for a nested struct, else the name.
    var qualifiedName: String
    var ownerEntity: String?
    /// Fields with unique, allowed names, in declaration order.
    var fields: [FieldInfo] = []
    /// Part of a cycle of value types (reported): properties of its type are skipped.
    var isBroken = false
    /// The protocols passed through to the generated struct (`Conformances`).
    var conformances: [String] = []
}

/// An entity declaration. The flags come last, so that the struct has no padding to speak of.
struct EntityInfo {
    var decl: EntityDecl
    /// The resolved base: set only when it names an entity and no cycle is involved.
    var baseName: String?
    /// The top of its hierarchy (itself for a root, or when the hierarchy is broken).
    var rootName: String = ""
    /// Levels from the root down to it: 1 for a root, 2 for a subclass, more for a too-deep one.
    var depth = 1
    /// Direct subclasses in schema order.
    var subclassNames: [String] = []
    /// Own properties with unique names that do not shadow the base's, in declaration order.
    var properties: [PropertyInfo] = []
    /// Every property name declared in the body (also duplicates and ill-typed ones), so that
    /// references to them are not reported as unknown.
    var declaredPropertyNames = SortedNames()
    /// Nested enums by simple name (first declaration wins), and their order.
    var nestedEnums: [String: EnumInfo] = [:]
    var nestedEnumOrder: [String] = []
    /// Simple names of the structs nested in it (they live in `SemanticModel.structs` as `Entity.Name`).
    var nestedStructNames: Set<String> = []
    /// `@Entity(originalName: "Old")`, once checked.
    var originalName: String?
    /// Declared inits that are not duplicates of another.
    var initializers: [InitDecl] = []
    /// `.unique` properties and `#Unique` groups; `#Index` groups (resolved property names).
    var uniqueConstraints: [[String]] = []
    var indexes: [[String]] = []
    /// An unknown base or a cycle: rules about inits, labels and registration skip the entity.
    var hierarchyIsBroken = false
    /// Its base has a base (`flat-hierarchy`, reported): init rules skip the entity.
    var isTooDeep = false
    /// Some member failed to resolve: the label-only check skips the entity.
    var hasInvalidMembers = false

    var name: String { decl.name.name }

    func property(named name: String) -> PropertyInfo? {
        properties.first { $0.name == name }
    }
}

/// A set of names kept as one sorted list and looked up by binary search: for the few property
/// names of an entity, about half the room of a `Set` (whose table keeps a quarter of its slots
/// free), made once at its size.
struct SortedNames {
    private var names: [String] = []

    init() {}

    init(_ names: [String]) {
        var sorted = names.sorted()
        var kept = 0
        for name in sorted where kept == 0 || sorted[kept - 1] != name {
            sorted[kept] = name
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        self.names = sorted.compacted()
    }

    func contains(_ name: String) -> Bool {
        var low = 0
        var high = names.count
        while low < high {
            let middle = (low + high) / 2
            if names[middle] < name { low = middle + 1 } else { high = middle }
        }
        return low < names.count && names[low] == name
    }
}

/// The entities of a run by name, read and changed like a dictionary. The entities are kept in one
/// list (in the order they were added) with a table of positions by name: a dictionary of entities
/// keeps a quarter of its slots free, each as large as an `EntityInfo` (144 bytes).
struct EntityTable {
    private var positions: [String: Int] = [:]
    /// `nil` where an entity was removed.
    private var storage: [EntityInfo?] = []

    mutating func reserveCapacity(_ count: Int) {
        positions.reserveCapacity(count)
        storage.reserveCapacity(count)
    }

    subscript(name: String) -> EntityInfo? {
        get {
            positions[name].flatMap { storage[$0] }
        }
        set {
            if let position = positions[name] {
                storage[position] = newValue
            } else if let newValue {
                positions[name] = storage.count
                storage.append(newValue)
            }
        }
        // In place: changing an entity's properties through the table copies nothing.
        _modify {
            if let position = positions[name] {
                yield &storage[position]
            } else {
                var added: EntityInfo?
                yield &added
                if let added {
                    positions[name] = storage.count
                    storage.append(added)
                }
            }
        }
    }

    /// Removes the entity named `name` and returns it (its place in the list stays, empty).
    @discardableResult
    mutating func removeValue(forKey name: String) -> EntityInfo? {
        guard let position = positions[name] else { return nil }
        let removed = storage[position]
        storage[position] = nil
        return removed
    }
}

/// A container declaration and what it resolves to.
struct ContainerInfo {
    var decl: ContainerDecl
    var listedEntities: [String] = []
    var allEntities: [String] = []
}

/// The whole run, as the rule families see it.
struct SemanticModel {
    var sink = DiagnosticSink()
    var entities = EntityTable()
    /// Entity names in schema order: by file (input order), then position.
    var entityOrder: [String] = []
    /// Top-level enums by name, and their order.
    var topLevelEnums: [String: EnumInfo] = [:]
    var topLevelEnumOrder: [String] = []
    /// Containers in declaration order (duplicates dropped).
    var containers: [ContainerInfo] = []
    /// `@ModelActor actor` declarations in order (duplicates dropped).
    var modelActors: [ModelActorDecl] = []
    /// Every struct, top level and nested, by qualified name (`Palette`, `Theme.Palette`), and their source order.
    var structs: [String: StructInfo] = [:]
    var structOrder: [String] = []
    /// The input files, to sort diagnostics by input order.
    var filePaths: [String] = []

    /// The property named `name` of `entity` or of its base, with the entity that declares it.
    func property(_ name: String, of entity: String) -> PropertyInfo? {
        guard let info = entities[entity] else { return nil }
        if let own = info.property(named: name) { return own }
        if let base = info.baseName, let inherited = entities[base]?.property(named: name) { return inherited }
        return nil
    }

    /// Base properties first, then own (valid hierarchy assumed one level deep).
    func allProperties(of entity: String) -> [PropertyInfo] {
        guard let info = entities[entity] else { return [] }
        if let base = info.baseName, let baseInfo = entities[base] {
            return baseInfo.properties + info.properties
        }
        return info.properties
    }

    /// `entity` is `other` or its direct base is (the hierarchy is flat: deeper levels were reported).
    func entity(_ entity: String, isOrInheritsFrom other: String) -> Bool {
        entity == other || entities[entity]?.baseName == other
    }

    /// The nested enum `name` visible inside `entity` (its own, then its base's).
    func nestedEnum(_ name: String, visibleIn entity: String) -> EnumInfo? {
        guard let info = entities[entity] else { return nil }
        if let own = info.nestedEnums[name] { return own }
        if let base = info.baseName { return entities[base]?.nestedEnums[name] }
        return nil
    }

    /// The nested struct `name` visible inside `entity` (its own, then its base's).
    func nestedStruct(_ name: String, visibleIn entity: String) -> StructInfo? {
        guard let info = entities[entity] else { return nil }
        if info.nestedStructNames.contains(name) { return structs["\(entity).\(name)"] }
        if let base = info.baseName, entities[base]?.nestedStructNames.contains(name) == true { return structs["\(base).\(name)"] }
        return nil
    }

    /// The enum named `qualifiedName` (`Color` or `PersonalTrip.Reason`).
    func enumInfo(_ qualifiedName: String) -> EnumInfo? {
        let parts = qualifiedName.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 ? entities[parts[0]]?.nestedEnums[parts[1]] : topLevelEnums[qualifiedName]
    }
}
