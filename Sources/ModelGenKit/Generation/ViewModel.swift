// The view model: everything a template prints, computed by `SchemaTranslator`. Templates only lay
// it out. Keys are the property names below (see docs/Generation.md). Every list element carries
// `index`, `isFirst` and `isLast` so templates can place separators without logic. No key is ever
// absent (no optionals): a missing value is "" or false, so a lookup never falls through to an
// enclosing context by accident.

/// Marks list elements with their position.
protocol PositionedViewModel {
    var index: Int { get set }
    var isFirst: Bool { get set }
    var isLast: Bool { get set }
}

extension Array where Element: PositionedViewModel {
    /// The elements with `index`, `isFirst` and `isLast` set for this list.
    func positioned() -> [Element] {
        enumerated().map { offset, element in
            var element = element
            element.index = offset
            element.isFirst = offset == 0
            element.isLast = offset == count - 1
            return element
        }
    }
}

/// The root of one generated file (template `file`).
struct FileViewModel: Encodable {
    /// The input's file name (`Trips.model`), for the header.
    var fileName: String
    /// The access keyword followed by a space (`public `), or "" for internal.
    var access: String
    /// `internal`, `public` or `package`.
    var accessLevel: String
    var entities: [EntityViewModel]
    /// Top-level enums declared in the file.
    var enums: [EnumViewModel]
    var containers: [ContainerViewModel]
    var hasEntities: Bool
    var hasEnums: Bool
    var hasContainers: Bool
}

/// A name with its Swift spelling, in a list.
struct NameViewModel: Encodable, PositionedViewModel {
    var name: String
    var swiftName: String
    var nameLiteral: String
    /// The name as an argument label in a call (`super.init(default: …)`).
    var argumentLabel: String
    var index = 0
    var isFirst = false
    var isLast = false
}

/// An entity (templates `entity`, `persistence`).
struct EntityViewModel: Encodable, PositionedViewModel {
    var name: String
    var swiftName: String
    var nameLiteral: String
    var docLines: [String]
    /// `final class` for a subclass, else `class`.
    var classKeyword: String
    var isSubclass: Bool
    var hasSubclasses: Bool
    var isFinal: Bool
    /// Same as `swiftName`, under a name no property shadows (for use inside property lists).
    var entitySwiftName: String
    /// The base's name ("" for a base or a standalone entity).
    var baseName: String
    var baseSwiftName: String
    /// The hierarchy's root: the base, or the entity itself.
    var rootName: String
    var rootSwiftName: String
    /// `override ` in a subclass, else "".
    var overrideKeyword: String
    var subclasses: [NameViewModel]
    /// The entity's own properties (stored and transient), in declaration order.
    var properties: [PropertyViewModel]
    /// Own stored properties (not transient).
    var storedProperties: [PropertyViewModel]
    /// Own stored attributes.
    var attributes: [PropertyViewModel]
    /// Own relationships.
    var relationships: [PropertyViewModel]
    /// Own `@Transient` properties.
    var transientProperties: [PropertyViewModel]
    /// The base's stored properties (empty unless a subclass).
    var inheritedProperties: [PropertyViewModel]
    var hasInheritedProperties: Bool
    /// Own attributes, stored or transient: the ones with a private `_name` storage.
    var valueProperties: [PropertyViewModel]
    var hasStoredProperties: Bool
    var hasRelationships: Bool
    var hasTransientProperties: Bool
    var enums: [EnumViewModel]
    var hasEnums: Bool
    var initializers: [InitializerViewModel]
    /// `.unique` attributes and `#Unique` groups.
    var uniqueConstraints: [KeyPathGroupViewModel]
    var indexes: [KeyPathGroupViewModel]
    var hasUniqueConstraints: Bool
    var hasIndexes: Bool
    var index = 0
    var isFirst = false
    var isLast = false
}

/// A property of an entity.
struct PropertyViewModel: Encodable, Equatable, PositionedViewModel {
    var name: String
    var swiftName: String
    var nameLiteral: String
    var docLines: [String]
    /// The entity that declares it.
    var ownerName: String
    var ownerSwiftName: String
    /// The Swift type as declared (`String?`, `[Accommodation]`, `PersonalTrip.Reason`).
    var type: String
    /// The type without `?` (for a to-one relationship, the destination entity).
    var wrappedType: String
    var isOptional: Bool
    var isAttribute: Bool
    var isRelationship: Bool
    var isToOne: Bool
    var isToMany: Bool
    var isTransient: Bool
    var isStored: Bool
    /// Whether a default was written.
    var hasDefault: Bool
    /// The default as a Swift expression ("" when none was written).
    var defaultExpression: String
    /// Whether the default is a constant (a literal, an enum case, an array; not `UUID()`, `Date()` or `nil`).
    var hasConstantDefault = false
    /// The value the property starts with when no init sets it: the default, `nil` for an optional,
    /// `[]` for a to-many relationship ("" when there is none: an init must set it).
    var initialValue: String
    var hasInitialValue: Bool
    /// The storage kind of an attribute (`bool`, `int16`, `string`, `date`, `uuid`, `decimal`, `enumeration`,
    /// `array`, …; "" for a relationship).
    var valueKind: String
    var isEnum: Bool
    var isArray: Bool
    /// For an array attribute, the element's Swift type and kind.
    var elementType: String
    var elementKind: String
    /// For an enum attribute (or an array of enum values): `String` or `Int`.
    var enumRawType: String
    var isUnique: Bool
    var preserveValueOnDeletion: Bool
    var externalStorage: Bool
    var hasOriginalName: Bool
    var originalName: String
    var originalNameLiteral: String
    /// Relationship only: the destination entity, the delete rule (`cascade`…), the inverse.
    var destination: String
    var destinationSwiftName: String
    var deleteRule: String
    var hasInverse: Bool
    var inverseName: String
    var inverseSwiftName: String
    var inverseNameLiteral: String
    var inverseDeclaredHere: Bool
    var hasMinimumModelCount: Bool
    var minimumModelCount: Int
    var hasMaximumModelCount: Bool
    var maximumModelCount: Int
    /// The position among the hierarchy's stored attributes or relationships as the entity sees them
    /// (the base's first, then its own): an attribute's column number, a relationship's slot.
    var slot = 0
    var index = 0
    var isFirst = false
    var isLast = false
}

/// An init, declared or synthesized.
struct InitializerViewModel: Encodable, PositionedViewModel {
    var docLines: [String]
    var isSynthesized: Bool
    /// `override ` when a subclass init has the signature of one of its base's, or an init of a
    /// base has no parameters (it overrides `ModelObject.init()`); else "".
    var overrideKeyword: String
    var parameters: [ParameterViewModel]
    var hasParameters: Bool
    /// Own attributes set before `super.init`, from a parameter or their initial value
    /// (`self._name = name`, `self._days = []`); a transient one only when it is a parameter
    /// (else its storage starts with its default).
    var assignments: [AssignmentViewModel]
    var hasSuperInit: Bool
    var superArguments: [NameViewModel]
    /// Set through their setters after `super.init` (`self.trip = trip`): the entity's own
    /// relationships that are parameters, and base properties that are parameters not passed to `super.init`.
    var assignmentsAfterSuperInit: [AssignmentViewModel]
    var index = 0
    var isFirst = false
    var isLast = false
}

/// A parameter of an init.
struct ParameterViewModel: Encodable, PositionedViewModel {
    var name: String
    var swiftName: String
    var type: String
    var hasDefaultArgument: Bool
    /// The default argument expression ("" when none).
    var defaultArgument: String
    var index = 0
    var isFirst = false
    var isLast = false
}

/// `self.property = value` in an init.
struct AssignmentViewModel: Encodable, PositionedViewModel {
    var name: String
    var swiftName: String
    var value: String
    /// Whether the value is a parameter of the init (else a default).
    var isParameter: Bool
    var index = 0
    var isFirst = false
    var isLast = false
}

/// A `#Unique` / `#Index` group (or a `.unique` attribute) as a list of property names.
struct KeyPathGroupViewModel: Encodable, PositionedViewModel {
    var properties: [NameViewModel]
    var index = 0
    var isFirst = false
    var isLast = false
}

/// An enum (template `enum`).
struct EnumViewModel: Encodable, PositionedViewModel {
    var name: String
    var swiftName: String
    var qualifiedName: String
    var docLines: [String]
    /// `String` or `Int`.
    var rawType: String
    var cases: [EnumCaseViewModel]
    var index = 0
    var isFirst = false
    var isLast = false
}

struct EnumCaseViewModel: Encodable, PositionedViewModel {
    var name: String
    var swiftName: String
    var docLines: [String]
    /// The raw value as a Swift literal (`"bee"`, `2`).
    var rawValueLiteral: String
    /// Whether the raw value must be written (a String case whose raw value is not its name, or an Int case).
    var hasExplicitRawValue: Bool
    var index = 0
    var isFirst = false
    var isLast = false
}

/// A `container` (template `container`).
struct ContainerViewModel: Encodable, PositionedViewModel {
    var name: String
    var swiftName: String
    var docLines: [String]
    /// Every entity the store holds (listed ones, their bases and subclasses), in schema order.
    var entities: [NameViewModel]
    /// The entities as listed (redundant subclasses removed, missing bases added).
    var listedEntities: [NameViewModel]
    var index = 0
    var isFirst = false
    var isLast = false
}
