// The checked schema: the semantic stage's output and the only input of generation, `diagram`
// and anything else downstream. Built only when the model has no errors. Everything in it is
// resolved: types, inverses, delete rules, inits (declared or synthesized), container contents.

internal import SchemaEvolution

/// The whole model of one run (all input files together).
public struct CheckedSchema: Hashable, Sendable {
    /// Entities in a deterministic order: by file (in input order), then by position.
    public var entities: [CheckedEntity]
    /// Top-level enums (nested ones live in `CheckedEntity.enums`).
    public var enums: [CheckedEnum]
    public var containers: [CheckedContainer]
    /// Top-level structs (nested ones live in `CheckedEntity.structs`), in source order.
    public var structs: [CheckedStruct]
    /// `@ModelActor actor` declarations, in source order.
    public var modelActors: [CheckedModelActor]

    package init(entities: [CheckedEntity], enums: [CheckedEnum], containers: [CheckedContainer], structs: [CheckedStruct] = [],
                modelActors: [CheckedModelActor] = []) {
        self.entities = entities
        self.enums = enums
        self.containers = containers
        self.structs = structs
        self.modelActors = modelActors
    }

    public func entity(named name: String) -> CheckedEntity? {
        entities.first { $0.name == name }
    }

    /// The struct named `qualifiedName` (`Palette`, or `Theme.Palette` for one nested in an entity).
    public func structure(named qualifiedName: String) -> CheckedStruct? {
        if let found = structs.first(where: { $0.qualifiedName == qualifiedName }) { return found }
        for entity in entities {
            if let found = entity.structs.first(where: { $0.qualifiedName == qualifiedName }) { return found }
        }
        return nil
    }

    /// The enum named `qualifiedName` (`Color`, or `PersonalTrip.Reason` for one nested in an entity).
    public func enumeration(named qualifiedName: String) -> CheckedEnum? {
        if let found = enums.first(where: { $0.qualifiedName == qualifiedName }) { return found }
        for entity in entities {
            if let found = entity.enums.first(where: { $0.qualifiedName == qualifiedName }) { return found }
        }
        return nil
    }
}

/// An entity: a class in generated code.
public struct CheckedEntity: Hashable, Sendable {
    public var name: String
    public var doc: [String]
    /// The file that declares it (as the user named it) and where.
    public var range: SourceRange
    /// The base entity's name, for a subclass.
    public var baseName: String?
    /// Direct subclasses, in schema order (only a base has them: the hierarchy is flat).
    public var subclassNames: [String]
    /// The entity's own stored and transient properties in declaration order (not the base's).
    public var properties: [CheckedProperty]
    /// Enums declared inside this entity.
    public var enums: [CheckedEnum]
    /// Declared inits, or one synthesized memberwise init when none is declared.
    public var initializers: [CheckedInitializer]
    /// `.unique` attributes and `#Unique` groups, each a list of property names.
    public var uniqueConstraints: [[String]]
    /// `#Index` groups, each a list of property names.
    public var indexes: [[String]]
    /// Structs declared inside this entity (named `Entity.Struct` outside it).
    public var structs: [CheckedStruct]
    /// The entity's name in the previous schema, from `@Entity(originalName: "Old")` (for migrations).
    public var originalName: String?
    /// The user-declared property that is the model's `Identifiable.id` (always `"id"`): set on the
    /// entity that declares it (a base, never a subclass) and on its subclasses, which inherit it.
    /// `nil` when the hierarchy declares no `id`, and the runtime's identity is `Identifiable.id`.
    public var idPropertyName: String?

    package init(name: String, doc: [String], range: SourceRange, baseName: String?, subclassNames: [String], properties: [CheckedProperty], enums: [CheckedEnum], initializers: [CheckedInitializer], uniqueConstraints: [[String]], indexes: [[String]],
                structs: [CheckedStruct] = [], originalName: String? = nil, idPropertyName: String? = nil) {
        self.name = name
        self.doc = doc
        self.range = range
        self.baseName = baseName
        self.subclassNames = subclassNames
        self.properties = properties
        self.enums = enums
        self.initializers = initializers
        self.uniqueConstraints = uniqueConstraints
        self.indexes = indexes
        self.structs = structs
        self.originalName = originalName
        self.idPropertyName = idPropertyName
    }
}

/// A property of an entity.
public struct CheckedProperty: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case attribute(CheckedAttribute)
        case relationship(CheckedRelationship)
    }

    public var name: String
    public var doc: [String]
    public var range: SourceRange
    public var kind: Kind
    /// `@Transient`: in memory only (always an attribute with a default).
    public var isTransient: Bool

    package init(name: String, doc: [String], range: SourceRange, kind: Kind, isTransient: Bool) {
        self.name = name
        self.doc = doc
        self.range = range
        self.kind = kind
        self.isTransient = isTransient
    }
}

/// A storable value type (docs/Language.md), never a relationship.
public indirect enum ValueType: Hashable, Sendable {
    case bool, int, int8, int16, int32, int64, uint8, uint16, uint32
    case double, float, string, date, uuid, data, url, decimal
    /// `TimeInterval`: Foundation's alias of `Double`, stored as a `Double` and spelled `TimeInterval`.
    case timeInterval
    /// `CGFloat` (Foundation's, on Linux too): stored as a `Double` and spelled `CGFloat`.
    case cgFloat
    /// A declared enum with a raw type, by qualified name (`PersonalTrip.Reason` or `Color`).
    case enumeration(qualifiedName: String, rawType: EnumRawType)
    /// A declared enum whose cases carry associated values (no raw type), by qualified name: Codable,
    /// stored as JSON text. Its cases are in `CheckedSchema.enumeration(named:)`.
    case enumWithAssociatedValues(qualifiedName: String)
    /// A declared struct (a composite attribute), by qualified name (`Palette` or `Theme.Palette`):
    /// stored flattened, one column per field. Its fields are in `CheckedSchema.structure(named:)`.
    case composite(qualifiedName: String)
    /// `[T]` of a non-array, non-optional value type, stored as one JSON column.
    case array(ValueType)
}

extension ValueType: CustomStringConvertible {
    /// The type as Swift spells it, enums by qualified name (`Int16`, `[String]`, `PersonalTrip.Reason`).
    public var description: String {
        switch self {
        case .enumeration(let qualifiedName, _): qualifiedName
        case .enumWithAssociatedValues(let qualifiedName): qualifiedName
        case .composite(let qualifiedName): qualifiedName
        case .array(let element): "[\(element)]"
        default: scalar?.swiftName ?? ""
        }
    }
}

/// A default value, resolved against the property's type.
public enum DefaultValue: Hashable, Sendable {
    case string(String)
    /// Integer literal text as written (sign included, `_` removed), known to fit the type.
    case integer(String)
    /// Floating-point literal text as written (`_` removed).
    case float(String)
    case bool(Bool)
    case `nil`
    /// `.caseName` of the property's enum type.
    case enumCase(String)
    /// `[]` or an array of literals (each a non-array default).
    case array([DefaultValue])
    /// `UUID()`
    case newUUID
    /// `Date()`, `.now` or `Date.now`: the moment the model is created.
    case now
    /// `.distantPast` or `Date.distantPast`.
    case distantPast
    /// `.distantFuture` or `Date.distantFuture`.
    case distantFuture
    /// `Date(timeIntervalSinceReferenceDate: n)`: the number literal as written (`_` removed, sign included).
    case dateSinceReferenceDate(String)
    /// `S()` for a struct `S` whose every field has a default or is optional: its memberwise init
    /// with no arguments.
    case defaultStruct
    /// `.member` or `S.member` for a struct `S` (`.zero`, `Rect.zero`): a static member of the
    /// struct, which the model cannot see: the Swift compiler checks it in the generated code.
    case staticMember(String)
}

public struct CheckedAttribute: Hashable, Sendable {
    public var type: ValueType
    public var isOptional: Bool
    public var defaultValue: DefaultValue?
    public var isUnique: Bool
    public var preserveValueOnDeletion: Bool
    public var externalStorage: Bool
    public var originalName: String?

    package init(type: ValueType, isOptional: Bool, defaultValue: DefaultValue?, isUnique: Bool, preserveValueOnDeletion: Bool, externalStorage: Bool, originalName: String?) {
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isUnique = isUnique
        self.preserveValueOnDeletion = preserveValueOnDeletion
        self.externalStorage = externalStorage
        self.originalName = originalName
    }
}

public enum DeleteRule: String, Hashable, Sendable {
    case cascade, nullify, deny, noAction
}

public struct CheckedRelationship: Hashable, Sendable {
    /// The destination entity's name.
    public var destination: String
    /// `[E]` (to-many) or `E?` (to-one).
    public var isToMany: Bool
    public var deleteRule: DeleteRule
    /// The inverse property's name on `destination` (or on its base), when there is one.
    public var inverseName: String?
    /// True when the inverse was written on this side (`inverse:` argument); false when written
    /// on the other side only or inferred.
    public var inverseDeclaredHere: Bool
    public var minimumModelCount: Int?
    public var maximumModelCount: Int?
    public var originalName: String?
    /// The default as written: `nil` for a to-one, `[]` (or `nil` when optional) for a to-many, or none.
    public var hasDefault: Bool
    /// An optional to-many (`[E]?`): stored as a to-many, spelled `[E]?` (nil and `[]` alike).
    public var isOptionalToMany: Bool

    package init(destination: String, isToMany: Bool, deleteRule: DeleteRule, inverseName: String?, inverseDeclaredHere: Bool, minimumModelCount: Int?, maximumModelCount: Int?, originalName: String?, hasDefault: Bool,
                isOptionalToMany: Bool = false) {
        self.isOptionalToMany = isOptionalToMany
        self.destination = destination
        self.isToMany = isToMany
        self.deleteRule = deleteRule
        self.inverseName = inverseName
        self.inverseDeclaredHere = inverseDeclaredHere
        self.minimumModelCount = minimumModelCount
        self.maximumModelCount = maximumModelCount
        self.originalName = originalName
        self.hasDefault = hasDefault
    }
}

/// An init of an entity, declared or synthesized.
public struct CheckedInitializer: Hashable, Sendable {
    public struct Parameter: Hashable, Sendable {
        /// The stored property it sets (also the argument label).
        public var name: String
        /// The entity that declares the property (this entity or its base).
        public var owner: String
        /// Whether it gets a default argument: for a synthesized init, an optional or defaulted
        /// property; for a declared one, a default argument written (`startDate = .now`).
        public var hasDefaultArgument: Bool
        /// The default argument written in a declared init, resolved against the property's type
        /// (`nil` for a synthesized init, whose default arguments are the properties' initial values).
        public var defaultValue: DefaultValue?

        package init(name: String, owner: String, hasDefaultArgument: Bool, defaultValue: DefaultValue? = nil) {
            self.name = name
            self.owner = owner
            self.hasDefaultArgument = hasDefaultArgument
            self.defaultValue = defaultValue
        }
    }

    public var doc: [String]
    public var parameters: [Parameter]
    /// The arguments of `super.init(...)`, in order, for a subclass init; `nil` for a base.
    public var superArguments: [String]?
    public var isSynthesized: Bool

    package init(doc: [String], parameters: [Parameter], superArguments: [String]?, isSynthesized: Bool) {
        self.doc = doc
        self.parameters = parameters
        self.superArguments = superArguments
        self.isSynthesized = isSynthesized
    }
}

public enum EnumRawType: String, Hashable, Sendable {
    case string = "String"
    case int = "Int"
}

/// One associated value of an enum case (`radius: Double`).
public struct CheckedAssociatedValue: Hashable, Sendable {
    /// The label, when written (`radius`); `nil` for an unlabeled value (`square(Double)`).
    public var label: String?
    public var type: ValueType
    public var isOptional: Bool

    package init(label: String?, type: ValueType, isOptional: Bool) {
        self.label = label
        self.type = type
        self.isOptional = isOptional
    }
}

public struct CheckedEnum: Hashable, Sendable {
    public struct Case: Hashable, Sendable {
        public var name: String
        public var doc: [String]
        /// The raw value as Swift source would spell it: for String the unescaped string
        /// (written or implied = name), for Int the number (written or implied) as decimal text.
        /// `nil` for an enum without raw type (one whose cases carry associated values).
        public var rawValue: String?
        /// The values the case carries, in order (empty for a case without any).
        public var associatedValues: [CheckedAssociatedValue]

        package init(name: String, doc: [String], rawValue: String?, associatedValues: [CheckedAssociatedValue] = []) {
            self.name = name
            self.doc = doc
            self.rawValue = rawValue
            self.associatedValues = associatedValues
        }
    }

    /// The simple name (`Reason`).
    public var name: String
    /// `Entity.Name` for a nested enum, else `name`.
    public var qualifiedName: String
    /// The entity it is nested in.
    public var ownerEntity: String?
    /// `String` or `Int`; `nil` for an enum whose cases carry associated values (stored as JSON).
    /// A plain enum (no raw type written, no associated values) is stored by case name: its
    /// `rawType` is `String` and each case's `rawValue` its name, and `hasDeclaredRawType` is false.
    public var rawType: EnumRawType?
    public var cases: [Case]
    public var doc: [String]
    public var range: SourceRange
    /// False for a plain enum (`enum Provider: Codable { case ollama }`): generated without a raw
    /// type, stored by case name (docs/Language.md).
    public var hasDeclaredRawType: Bool
    /// The protocols written after the raw type (or after the name) that the generated enum does not
    /// conform to already (`Comparable`, `Identifiable`), in the order written: passed through.
    public var conformances: [String]

    /// True for an enum whose cases carry associated values (`rawType` is then `nil`).
    public var hasAssociatedValues: Bool { rawType == nil }

    package init(name: String, qualifiedName: String, ownerEntity: String?, rawType: EnumRawType?, cases: [Case], doc: [String], range: SourceRange,
                hasDeclaredRawType: Bool = true, conformances: [String] = []) {
        self.name = name
        self.qualifiedName = qualifiedName
        self.ownerEntity = ownerEntity
        self.rawType = rawType
        self.cases = cases
        self.doc = doc
        self.range = range
        self.hasDeclaredRawType = hasDeclaredRawType
        self.conformances = conformances
    }
}

public struct CheckedContainer: Hashable, Sendable {
    public var name: String
    public var doc: [String]
    /// Entities as listed (duplicates and redundant subclasses removed, a missing base added),
    /// followed by nothing else: subclasses are implied through `allEntities`.
    public var listedEntities: [String]
    /// Every entity the store holds: listed ones, their bases and all their subclasses, in schema order.
    public var allEntities: [String]
    public var range: SourceRange

    package init(name: String, doc: [String], listedEntities: [String], allEntities: [String], range: SourceRange) {
        self.name = name
        self.doc = doc
        self.listedEntities = listedEntities
        self.allEntities = allEntities
        self.range = range
    }
}

/// A struct: SwiftData's composite attribute, a `Codable, Hashable, Sendable` value type with a
/// memberwise init. A property of this type is stored flattened (one column per field); `[S]` is one
/// JSON column. Structs never hold relationships, and never hold themselves (no cycles).
public struct CheckedStruct: Hashable, Sendable {
    /// A field of the struct: an attribute (value types, enums, other structs, optionals, arrays).
    public struct Field: Hashable, Sendable {
        public var name: String
        public var doc: [String]
        public var range: SourceRange
        public var type: ValueType
        public var isOptional: Bool
        /// The default as written and resolved against `type`, when there is one.
        public var defaultValue: DefaultValue?

        package init(name: String, doc: [String], range: SourceRange, type: ValueType, isOptional: Bool, defaultValue: DefaultValue?) {
            self.name = name
            self.doc = doc
            self.range = range
            self.type = type
            self.isOptional = isOptional
            self.defaultValue = defaultValue
        }
    }

    /// The simple name (`Palette`).
    public var name: String
    /// `Entity.Name` for a struct nested in an entity, else `name`.
    public var qualifiedName: String
    /// The entity it is nested in.
    public var ownerEntity: String?
    /// The fields in declaration order.
    public var fields: [Field]
    public var doc: [String]
    public var range: SourceRange
    /// The protocols written after the name that the generated struct does not conform to already
    /// (`Identifiable`, `Comparable`), in the order written: passed through.
    public var conformances: [String]

    package init(name: String, qualifiedName: String, ownerEntity: String?, fields: [Field], doc: [String], range: SourceRange, conformances: [String] = []) {
        self.name = name
        self.qualifiedName = qualifiedName
        self.ownerEntity = ownerEntity
        self.fields = fields
        self.doc = doc
        self.range = range
        self.conformances = conformances
    }
}

/// `@ModelActor actor Name`: an actor generated as SwiftData's `@ModelActor` macro expands (its
/// executor, its container and `init(modelContainer:)`); the app writes its methods in an extension.
public struct CheckedModelActor: Hashable, Sendable {
    public var name: String
    public var doc: [String]
    public var range: SourceRange

    package init(name: String, doc: [String], range: SourceRange) {
        self.name = name
        self.doc = doc
        self.range = range
    }
}
