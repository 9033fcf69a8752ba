// The view models of one generated file, built from the checked schema. Each type's
// `templateKeys` is the one list of what templates can read from it (docs/Generation.md is
// checked against these lists). Templates only lay the values out; everything is computed here.
// A value is read when a template asks for it, so keys no template uses cost nothing. No key is
// ever absent (no optionals): a missing value is "" or false, so a lookup never falls through to
// an enclosing context by accident.

/// The root of one generated file (template `file`).
final class FileViewModel: ViewModel {
    let source: ModelSource
    let context: GenerationContext
    /// For a `.model` file whose model is its newest frozen version: that version's `SchemaV…` enum,
    /// which holds the classes, enums and structs (docs/Migrations.md "What is generated"); nil otherwise.
    let modelHost: String?
    /// Whether the file names the hosted declarations at top level (`typealias Trip = SchemaV3_0_0.Trip`):
    /// false under `modelsInVersion`.
    let namesModelsAtTopLevel: Bool
    private(set) lazy var entities: [EntityViewModel] = modelHost != nil ? [] : context.declarations(in: source.path).entities.map {
        EntityViewModel(context.schema.entities[$0], context: context)
    }
    private(set) lazy var enums: [EnumViewModel] = modelHost != nil ? [] : context.declarations(in: source.path).enums.map {
        EnumViewModel(context.schema.enums[$0])
    }
    private(set) lazy var containers: [ContainerViewModel] = context.declarations(in: source.path).containers.map {
        ContainerViewModel(context.schema.containers[$0], modelHost: modelHost)
    }
    private(set) lazy var structs: [StructViewModel] = modelHost != nil ? [] : context.declarations(in: source.path).structs.map {
        StructViewModel(context.schema.structs[$0], context: context)
    }
    private(set) lazy var modelActors: [ModelActorViewModel] = context.declarations(in: source.path).modelActors.map {
        ModelActorViewModel(context.schema.modelActors[$0])
    }
    /// The top-level names of the hosted declarations the file declares: enums, structs, then entities.
    private(set) lazy var typeAliases: [TypeAliasViewModel] = {
        guard let modelHost, namesModelsAtTopLevel else { return [] }
        let declared = context.declarations(in: source.path)
        return declared.enums.map { TypeAliasViewModel(context.schema.enums[$0].name, doc: context.schema.enums[$0].doc, host: modelHost) }
            + declared.structs.map { TypeAliasViewModel(context.schema.structs[$0].name, doc: context.schema.structs[$0].doc, host: modelHost) }
            + declared.entities.map { TypeAliasViewModel(context.schema.entities[$0].name, doc: context.schema.entities[$0].doc, host: modelHost) }
    }()

    /// For a frozen version's file: its version (the file's context is the version's schema).
    let version: VersionViewModel?
    /// The migration plans the file holds (the newest version's file holds them all).
    let plans: [PlanViewModel]

    init(
        _ source: ModelSource, context: GenerationContext, version: VersionViewModel? = nil, plans: [PlanViewModel] = [],
        modelHost: String? = nil, namesModelsAtTopLevel: Bool = true
    ) {
        self.source = source
        self.context = context
        self.version = version
        self.plans = plans
        self.modelHost = modelHost
        self.namesModelsAtTopLevel = namesModelsAtTopLevel
    }

    static let templateKeys = TemplateKeys<FileViewModel>(listElement: false, [
        .string("fileName", "the model file's name (`Trips.model`), for the header") { $0.source.fileName },
        .string("access", "the access keyword and a space (`internal `, `public `, `package `)") { $0.context.accessLevel.keyword },
        .string("accessLevel", "`internal`, `public` or `package`") { $0.context.accessLevel.rawValue },
        .string("hookAccess", "how the hooks ModelStore calls are declared: `@_spi(ModelStoreGenerated) public ` at the public level (so a client of the module does not see them), else as `access`") {
            $0.context.accessLevel.hookKeyword
        },
        .list("entities", "the entities the file declares (empty when `isModelInVersion`: they are in the version's enum)") { $0.entities },
        .list("enums", "the top-level enums the file declares (empty when `isModelInVersion`)") { $0.enums },
        .list("structs", "the top-level structs the file declares (empty when `isModelInVersion`)") { $0.structs },
        .list("containers", "the containers the file declares") { $0.containers },
        .bool("hasEntities", "whether `entities` is not empty") { !$0.entities.isEmpty },
        .bool("hasEnums", "whether `enums` is not empty") { !$0.enums.isEmpty },
        .bool("hasStructs", "whether `structs` is not empty") { !$0.structs.isEmpty },
        .bool("hasContainers", "whether `containers` is not empty") { !$0.containers.isEmpty },
        .list("modelActors", "the `@ModelActor` actors the file declares") { $0.modelActors },
        .bool("isModelInVersion", "whether the model is its newest frozen version, whose `SchemaV…` enum holds its entities, enums and structs (a `.model` file then declares `typeAliases`)") {
            $0.modelHost != nil
        },
        .list("typeAliases", "the top-level names of the file's entities, enums and structs when `isModelInVersion` (`typealias Trip = SchemaV3_0_0.Trip`); empty under `modelsInVersion`") {
            $0.typeAliases
        },
        .bool("isVersion", "whether the file is a frozen version (`.modelversion`): its declarations go in its `SchemaV…` enum") { $0.version != nil },
        .list("version", "the frozen version of a `.modelversion` file, a list of one (empty for a `.model` file)") { $0.version.map { [$0] } ?? [] },
        .list("plans", "the migration plans, in the newest version's file (empty in every other file)") { $0.plans },
        .bool("hasPlans", "whether `plans` is not empty") { !$0.plans.isEmpty },
        .list("modelSources", "the `.model` files whose entities the file generates, each with the text its entities record in the store (`modelgen pull`): the file itself, or every model file in the newest version's file when it holds the model's classes") {
            $0.context.modelSources(generatedIn: $0.source, generatesAllEntities: $0.version?.isCurrentModel == true,
                                    generatesOwnEntities: $0.version == nil && !$0.entities.isEmpty)
        },
    ])
}

/// A `.model` file's recorded text, in a generated file (template `file`'s `modelSources`).
final class ModelSourceViewModel: ViewModel {
    let name: String
    let source: ModelSource

    init(name: String, source: ModelSource) {
        self.name = name
        self.source = source
    }

    static let templateKeys = TemplateKeys<ModelSourceViewModel>(listElement: true, [
        .string("name", "the constant's name (`_$modelSource_Trip`, after the file's first entity)") { $0.name },
        .string("pathLiteral", "the model file's path below its input folder, as a Swift string literal (`\"Trips.model\"`)") {
            SwiftLiteral.string($0.source.relativePath)
        },
        .list("lines", "the model file's text, one Swift string literal per line (`\"entity Trip {\"`), in `modelgen format`'s layout") {
            ModelSourceText.lines(of: $0.source).map(SwiftLiteral.string)
        },
    ])
}

/// The text of a `.model` file as the generated code records it, for the store to keep
/// (docs/CommandLine.md, `modelgen pull`): the file in `modelgen format`'s layout (comments kept),
/// so that formatting a model never changes its generated code, as lines without terminators.
enum ModelSourceText {
    static func lines(of source: ModelSource) -> [String] {
        // A file that generates has no syntax errors, so it formats; the text as read otherwise.
        var text = ModelFormatter.format(source.file).text ?? String(decoding: source.file.bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
    }
}

/// A top-level name of a declaration that the newest version's enum holds (a `.model` file's `typeAliases`).
final class TypeAliasViewModel: ViewModel {
    let name: String
    let doc: [String]
    let host: String

    init(_ name: String, doc: [String], host: String) {
        self.name = name
        self.doc = doc
        self.host = host
    }

    static let templateKeys = TemplateKeys<TypeAliasViewModel>(listElement: true, [
        .string("name", "the declaration's name") { $0.name },
        .string("swiftName", "the name as Swift spells it (backticked when a keyword)") { SwiftIdentifier.escaped($0.name) },
        .list("docLines", "the declaration's doc comment, each line `/// …`") { GenerationContext.docLines($0.doc) },
        .string("target", "the type it names, in the version's enum (`SchemaV3_0_0.Trip`)") { $0.host + "." + SwiftIdentifier.escaped($0.name) },
    ])
}

/// A name with its Swift spellings, in a list (subclasses, a `super.init` call's arguments, …).
final class NameViewModel: ViewModel {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    static let templateKeys = TemplateKeys<NameViewModel>(listElement: true, [
        .string("name", "the name as declared") { $0.name },
        .string("swiftName", "the name as Swift spells it (backticked when a keyword)") { SwiftIdentifier.escaped($0.name) },
        .string("nameLiteral", "the name as a Swift string literal (`\"Trip\"`)") { SwiftLiteral.string($0.name) },
        .string("argumentLabel", "the name as a call's argument label (`super.init(default: …)`)") { SwiftIdentifier.argumentLabel($0.name) },
    ])
}

/// An entity (templates `entity`, `persistence`).
final class EntityViewModel: ViewModel {
    let entity: CheckedEntity
    /// The base entity, for a subclass.
    let base: CheckedEntity?
    let swiftName: String
    private let context: GenerationContext

    init(_ entity: CheckedEntity, context: GenerationContext) {
        self.entity = entity
        self.base = entity.baseName.flatMap(context.entity(named:))
        self.swiftName = SwiftIdentifier.escaped(entity.name)
        self.context = context
    }

    /// The base's stored properties, numbered from 0.
    private(set) lazy var inheritedProperties: [PropertyViewModel] = base.map { base in
        Self.numbered(base.properties.filter { !$0.isTransient }, of: base, after: [], context: context)
    } ?? []
    /// The entity's own properties (stored and transient), in declaration order, numbered after the base's.
    private(set) lazy var properties: [PropertyViewModel] = Self.numbered(
        entity.properties, of: entity, after: base?.properties.filter { !$0.isTransient } ?? [], context: context)
    private(set) lazy var storedProperties: [PropertyViewModel] = properties.filter { !$0.property.isTransient }
    private(set) lazy var initializers: [InitializerViewModel] = entity.initializers.map {
        InitializerViewModel($0, of: self)
    }

    /// View models of `properties` of `owner`: stored attributes and relationships each numbered
    /// separately (their `slot`: `AttributeIndex`, `RelationshipIndex`), continuing after those of
    /// `inherited` (the base's first).
    private static func numbered(
        _ properties: [CheckedProperty], of owner: CheckedEntity, after inherited: [CheckedProperty], context: GenerationContext
    ) -> [PropertyViewModel] {
        var nextAttribute = inherited.count { $0.asAttribute != nil }
        var nextRelationship = inherited.count { $0.asRelationship != nil }
        return properties.map { property in
            var slot = 0
            if !property.isTransient {
                if property.asAttribute != nil {
                    slot = nextAttribute
                    nextAttribute += 1
                } else {
                    slot = nextRelationship
                    nextRelationship += 1
                }
            }
            return PropertyViewModel(property, of: owner, slot: slot, context: context)
        }
    }

    static let templateKeys = TemplateKeys<EntityViewModel>(listElement: true, [
        .string("name", "the entity's name") { $0.entity.name },
        .string("swiftName", "the name as Swift spells it (backticked when a keyword)") { $0.swiftName },
        .string("nameLiteral", "the name as a Swift string literal (`\"Trip\"`)") { SwiftLiteral.string($0.entity.name) },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.entity.doc) },
        .bool("recordsModelSource", "whether the entity records its `.model` file in the store (`modelgen pull`): an entity of the current model, not of an older version") {
            $0.context.modelSourceName(ofFile: $0.entity.range.file) != nil
        },
        .string("modelSourceName", "the constant holding that file's text (`_$modelSource_Trip`, declared in the same generated file), \"\" when it records none") {
            $0.context.modelSourceName(ofFile: $0.entity.range.file) ?? ""
        },
        .string("classKeyword", "`final class` for a subclass, else `class`") { $0.base == nil ? "class" : "final class" },
        .bool("isSubclass", "whether it has a base") { $0.base != nil },
        .bool("hasSubclasses", "whether it is the base of others") { !$0.entity.subclassNames.isEmpty },
        .bool("isFinal", "whether the class is final (a subclass)") { $0.base != nil },
        .string("entitySwiftName", "the same as `swiftName`, under a name no property shadows") { $0.swiftName },
        .string("baseName", "the base's name (\"\" for a base or a standalone entity)") { $0.base?.name ?? "" },
        .string("baseSwiftName", "the base's name as Swift spells it") { $0.base.map { SwiftIdentifier.escaped($0.name) } ?? "" },
        .string("rootName", "the hierarchy's root: the base, or the entity itself") { $0.base?.name ?? $0.entity.name },
        .string("rootSwiftName", "the root's name as Swift spells it") { SwiftIdentifier.escaped($0.base?.name ?? $0.entity.name) },
        .string("overrideKeyword", "`override ` in a subclass, else \"\"") { $0.base == nil ? "" : "override " },
        .list("subclasses", "the direct subclasses (names)") { $0.entity.subclassNames.map(NameViewModel.init) },
        .list("properties", "the entity's own properties, stored and transient, in declaration order") { $0.properties },
        .list("storedProperties", "own stored properties (not transient)") { $0.storedProperties },
        .list("attributes", "own stored attributes") { $0.storedProperties.filter(\.isAttribute) },
        .list("relationships", "own relationships") { $0.storedProperties.filter { !$0.isAttribute } },
        .list("transientProperties", "own `@Transient` properties") { $0.properties.filter(\.property.isTransient) },
        .list("inheritedProperties", "the base's stored properties (empty unless a subclass)") { $0.inheritedProperties },
        .bool("hasInheritedProperties", "whether `inheritedProperties` is not empty") { !$0.inheritedProperties.isEmpty },
        .list("valueProperties", "own attributes, stored or transient: those with a private `_name` storage") {
            $0.properties.filter(\.isAttribute)
        },
        .bool("hasStoredProperties", "whether `storedProperties` is not empty") { !$0.storedProperties.isEmpty },
        .bool("hasRelationships", "whether `relationships` is not empty") { $0.storedProperties.contains { !$0.isAttribute } },
        .bool("hasTransientProperties", "whether `transientProperties` is not empty") { $0.properties.contains(where: \.property.isTransient) },
        .list("enums", "the enums declared inside the entity") { $0.entity.enums.map(EnumViewModel.init) },
        .bool("hasEnums", "whether `enums` is not empty") { !$0.entity.enums.isEmpty },
        .list("structs", "the structs declared inside the entity") { model in model.entity.structs.map { StructViewModel($0, context: model.context) } },
        .bool("hasStructs", "whether `structs` is not empty") { !$0.entity.structs.isEmpty },
        .bool("hasPersistentIdentity", "whether the class declares `id` as its `persistentModelID`: a base or standalone entity whose hierarchy declares no `id` attribute") {
            $0.base == nil && $0.entity.idPropertyName == nil
        },
        .bool("usesPersistentIdentity", "whether the model's `id` is its `persistentModelID` (the hierarchy declares no `id` attribute)") {
            $0.entity.idPropertyName == nil
        },
        .bool("hasOriginalName", "whether `@Entity(originalName:)` was given") { $0.entity.originalName != nil },
        .string("originalName", "the entity's name in earlier schema versions (`@Entity(originalName:)`)") { $0.entity.originalName ?? "" },
        .string("originalNameLiteral", "that name as a Swift string literal") { $0.entity.originalName.map(SwiftLiteral.string) ?? "" },
        .list("initializers", "the declared inits, or the synthesized memberwise one") { $0.initializers },
        .list("uniqueConstraints", "`.unique` attributes and `#Unique` groups, each with `properties` (names)") {
            $0.entity.uniqueConstraints.map(KeyPathGroupViewModel.init)
        },
        .list("indexes", "`#Index` groups, each with `properties` (names)") { $0.entity.indexes.map(KeyPathGroupViewModel.init) },
        .bool("hasUniqueConstraints", "whether `uniqueConstraints` is not empty") { !$0.entity.uniqueConstraints.isEmpty },
        .bool("hasIndexes", "whether `indexes` is not empty") { !$0.entity.indexes.isEmpty },
    ])
}

/// A property of an entity (template `property`; also the lists of `entity` and `persistence`).
final class PropertyViewModel: ViewModel {
    let property: CheckedProperty
    let owner: CheckedEntity
    /// The position among the hierarchy's stored attributes or relationships as the entity sees
    /// them (the base's first, then its own): an attribute's column number, a relationship's slot.
    let slot: Int
    let swiftName: String
    /// The Swift type as declared, inside the owner (`String?`, `[Accommodation]`, `Reason`).
    let type: String

    private let context: GenerationContext?

    init(_ property: CheckedProperty, of owner: CheckedEntity, slot: Int, context: GenerationContext?) {
        self.property = property
        self.owner = owner
        self.slot = slot
        self.swiftName = SwiftIdentifier.escaped(property.name)
        self.type = SwiftTypeName.of(property, in: owner.name)
        self.context = context
    }

    /// For a struct attribute: each value column's field path and key-path suffix (after the class).
    var fieldPaths: [FieldPathViewModel] {
        guard let attribute, case .composite(let name) = attribute.type, let context else { return [] }
        return FieldPathViewModel.paths(of: name, name: property.name, suffix: "." + swiftName + (attribute.isOptional ? "?" : ""), schema: context.schema)
    }

    var attribute: CheckedAttribute? { property.asAttribute }
    var relationship: CheckedRelationship? { property.asRelationship }
    var isAttribute: Bool { property.asAttribute != nil }

    /// The default as a Swift expression ("" when none was written).
    var defaultExpression: String {
        if let attribute {
            return attribute.defaultValue.map { SwiftLiteral.defaultExpression($0, for: attribute.type, in: owner.name) } ?? ""
        }
        return relationship?.hasDefault == true ? initialValue : ""
    }

    /// The value the property starts with when no init sets it: the default, `nil` for an
    /// optional, `[]` for a to-many relationship ("" when there is none: an init must set it).
    var initialValue: String {
        if let attribute {
            if let value = attribute.defaultValue { return SwiftLiteral.defaultExpression(value, for: attribute.type, in: owner.name) }
            return attribute.isOptional ? "nil" : ""
        }
        return relationship?.isToMany == true ? "[]" : "nil"
    }

    /// The element type of an array attribute.
    private var arrayElement: ValueType? {
        if case .array(let element) = attribute?.type { return element }
        return nil
    }

    private var originalName: String? { attribute?.originalName ?? relationship?.originalName }

    static let templateKeys = TemplateKeys<PropertyViewModel>(listElement: true, [
        .string("name", "the property's name") { $0.property.name },
        .string("swiftName", "the name as Swift spells it (backticked when a keyword)") { $0.swiftName },
        .string("nameLiteral", "the name as a Swift string literal") { SwiftLiteral.string($0.property.name) },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.property.doc) },
        .string("ownerName", "the entity that declares it") { $0.owner.name },
        .string("ownerSwiftName", "that entity's name as Swift spells it") { SwiftIdentifier.escaped($0.owner.name) },
        .string("type", "the Swift type as declared (`String?`, `[Accommodation]`, `Reason`; an entity's own nested enums are named without the entity)") { $0.type },
        .string("wrappedType", "the type without `?` (for a to-one relationship, the destination entity)") { model in
            if let attribute = model.attribute { return SwiftTypeName.of(attribute.type, in: model.owner.name) }
            guard let relationship = model.relationship else { return "" }
            return relationship.isToMany ? "[\(SwiftIdentifier.escaped(relationship.destination))]" : SwiftIdentifier.escaped(relationship.destination)
        },
        .bool("isOptional", "whether the type is optional (a to-one relationship always is, an optional to-many `[E]?` too)") {
            $0.attribute?.isOptional ?? ($0.relationship?.isToMany == false || $0.relationship?.isOptionalToMany == true)
        },
        .bool("isAttribute", "whether it is an attribute") { $0.isAttribute },
        .bool("isRelationship", "whether it is a relationship") { !$0.isAttribute },
        .bool("isToOne", "whether it is a to-one relationship") { $0.relationship?.isToMany == false },
        .bool("isToMany", "whether it is a to-many relationship") { $0.relationship?.isToMany == true },
        .bool("isTransient", "whether it is `@Transient` (in memory only)") { $0.property.isTransient },
        .bool("isStored", "whether it is stored (not transient)") { !$0.property.isTransient },
        .bool("hasDefault", "whether a default was written") { $0.attribute.map { $0.defaultValue != nil } ?? ($0.relationship?.hasDefault == true) },
        .string("defaultExpression", "the default as a Swift expression (\"\" when none was written)") { $0.defaultExpression },
        .bool("hasConstantDefault", "whether the default is a constant: a literal, an enum case, an array or a fixed date; not `UUID()`, `Date()`/`.now`, `nil` or a struct's `S()`") {
            guard let value = $0.attribute?.defaultValue else { return false }
            if case .composite? = $0.attribute?.type { return false }
            return ![.newUUID, .now, .nil, .defaultStruct].contains(value)
        },
        .string("initialValue", "the value it starts with when no init sets it: the default, `nil` for an optional, `[]` for a to-many (\"\" when an init must set it)") { $0.initialValue },
        .bool("hasInitialValue", "whether `initialValue` is not empty") { !$0.initialValue.isEmpty },
        .string("valueKind", "an attribute's storage kind: `bool`, `int`…`uint32`, `double`, `float`, `string`, `date`, `uuid`, `data`, `url`, `decimal`, `enumeration`, `codable` (an enum with associated values: JSON), `composite` (a struct: a column per field), `array` (\"\" for a relationship)") {
            $0.attribute.map { GenerationContext.kind(of: $0.type) } ?? ""
        },
        .bool("isComposite", "whether it is a struct attribute (stored as a column per field)") {
            if case .composite = $0.attribute?.type { return true }
            return false
        },
        .list("fieldPaths", "for a struct attribute, each value column: `name` (`palette.primary`), `nameLiteral`, `keyPathSuffix` (`.palette?.primary`, after the class name)") { $0.fieldPaths },
        .bool("isEnum", "whether it is an enum attribute") {
            if case .enumeration = $0.attribute?.type { return true }
            return false
        },
        .bool("isArray", "whether it is an array attribute") { $0.arrayElement != nil },
        .string("elementType", "an array attribute's element type") { model in
            model.arrayElement.map { SwiftTypeName.of($0, in: model.owner.name) } ?? ""
        },
        .string("elementKind", "an array attribute's element storage kind") { $0.arrayElement.map(GenerationContext.kind(of:)) ?? "" },
        .string("enumRawType", "for an enum attribute (or an array of enum values): `String` or `Int`") {
            if case .enumeration(_, let rawType) = $0.arrayElement ?? $0.attribute?.type { return rawType.rawValue }
            return ""
        },
        .bool("isUnique", "`@Attribute(.unique)`") { $0.attribute?.isUnique ?? false },
        .bool("preserveValueOnDeletion", "`@Attribute(.preserveValueOnDeletion)`") { $0.attribute?.preserveValueOnDeletion ?? false },
        .bool("externalStorage", "`@Attribute(.externalStorage)`") { $0.attribute?.externalStorage ?? false },
        .bool("hasOriginalName", "whether an `originalName` was given") { $0.originalName != nil },
        .string("originalName", "the name in earlier schema versions") { $0.originalName ?? "" },
        .string("originalNameLiteral", "that name as a Swift string literal") { $0.originalName.map(SwiftLiteral.string) ?? "" },
        .string("destination", "a relationship's destination entity") { $0.relationship?.destination ?? "" },
        .string("destinationSwiftName", "the destination as Swift spells it") { $0.relationship.map { SwiftIdentifier.escaped($0.destination) } ?? "" },
        .string("deleteRule", "`cascade`, `nullify`, `deny` or `noAction`") { $0.relationship?.deleteRule.rawValue ?? "" },
        .bool("hasInverse", "whether the relationship has an inverse") { $0.relationship?.inverseName != nil },
        .string("inverseName", "the inverse's name") { $0.relationship?.inverseName ?? "" },
        .string("inverseSwiftName", "the inverse's name as Swift spells it") { $0.relationship?.inverseName.map(SwiftIdentifier.escaped) ?? "" },
        .string("inverseNameLiteral", "the inverse's name as a Swift string literal") { $0.relationship?.inverseName.map(SwiftLiteral.string) ?? "" },
        .bool("inverseDeclaredHere", "whether `inverse:` was written on this side") { $0.relationship?.inverseDeclaredHere ?? false },
        .bool("hasMinimumModelCount", "whether a `minimumModelCount` was given") { $0.relationship?.minimumModelCount != nil },
        .int("minimumModelCount", "it (0 when none)") { $0.relationship?.minimumModelCount ?? 0 },
        .bool("hasMaximumModelCount", "whether a `maximumModelCount` was given") { $0.relationship?.maximumModelCount != nil },
        .int("maximumModelCount", "it (0 when none)") { $0.relationship?.maximumModelCount ?? 0 },
        .int("slot", "the position among the hierarchy's stored attributes, or among its relationships, the base's first: the number of its `AttributeIndex` or `RelationshipIndex`") { $0.slot },
    ])
}

extension CheckedProperty {
    /// The attribute, when the property is one.
    fileprivate var asAttribute: CheckedAttribute? {
        if case .attribute(let attribute) = kind { return attribute }
        return nil
    }

    /// The relationship, when the property is one.
    fileprivate var asRelationship: CheckedRelationship? {
        if case .relationship(let relationship) = kind { return relationship }
        return nil
    }
}

/// An init, declared or synthesized (template `initializer`).
final class InitializerViewModel: ViewModel {
    let initializer: CheckedInitializer
    let parameters: [ParameterViewModel]
    /// Own attributes set before `super.init`, from a parameter or their initial value
    /// (`self._name = name`, `self._days = []`); a transient one only when it is a parameter
    /// (else its storage starts with its default).
    let assignments: [AssignmentViewModel]
    /// Set through their setters after `super.init` (`self.trip = trip`): the entity's own
    /// relationships that are parameters, and base properties that are parameters not passed to `super.init`.
    let assignmentsAfterSuperInit: [AssignmentViewModel]
    /// `override ` when a subclass init has the signature of one of its base's, or an init of a
    /// base has no parameters (it overrides `ModelObject.init()`); else "".
    let overrideKeyword: String

    init(_ initializer: CheckedInitializer, of entity: EntityViewModel) {
        self.initializer = initializer
        let base = entity.base
        let parameterNames = Set(initializer.parameters.map(\.name))
        let allProperties = (base?.properties ?? []) + entity.entity.properties
        parameters = initializer.parameters.map { parameter in
            let declared = allProperties.first { $0.name == parameter.name }
            let owner = parameter.owner == entity.entity.name ? entity.entity : (base ?? entity.entity)
            let model = declared.map { PropertyViewModel($0, of: owner, slot: 0, context: nil) }
            let defaultArgument: String
            if let value = parameter.defaultValue {
                // Written in a declared init: spelled for the property's type, inside its owner.
                defaultArgument = SwiftLiteral.defaultExpression(value, for: declared.flatMap(\.asAttribute)?.type, in: owner.name)
            } else {
                defaultArgument = parameter.hasDefaultArgument ? (model?.initialValue ?? "") : ""
            }
            return ParameterViewModel(name: parameter.name, type: model?.type ?? "", defaultArgument: defaultArgument)
        }
        // Own attributes (from a parameter or their initial value) are set before `super.init`;
        // relationships (kept by the runtime) and base properties not passed to `super.init` are
        // set through their setters after it.
        let superArguments = initializer.superArguments ?? []
        var before: [AssignmentViewModel] = []
        var after: [AssignmentViewModel] = []
        for own in entity.properties {
            let name = own.property.name
            let isParameter = parameterNames.contains(name)
            if !own.isAttribute {
                if isParameter { after.append(AssignmentViewModel(name: name, value: own.swiftName, isParameter: true)) }
            } else if !own.property.isTransient || isParameter {
                // A transient property starts with its default where it is declared.
                let value = isParameter ? own.swiftName : own.initialValue
                if !value.isEmpty { before.append(AssignmentViewModel(name: name, value: value, isParameter: isParameter)) }
            }
        }
        for inherited in base?.properties ?? [] where parameterNames.contains(inherited.name) && !superArguments.contains(inherited.name) {
            after.append(AssignmentViewModel(name: inherited.name, value: SwiftIdentifier.escaped(inherited.name), isParameter: true))
        }
        assignments = before
        assignmentsAfterSuperInit = after
        // An init with the labels and types of one of the base's inits overrides it; a base's
        // `init()` overrides the runtime base class's `ModelObject.init()`.
        func signature(_ parameters: [CheckedInitializer.Parameter]) -> [String] {
            parameters.map { parameter in
                let declared = allProperties.first { $0.name == parameter.name }
                return parameter.name + ":" + (declared.map { SwiftTypeName.of($0) } ?? "")
            }
        }
        let overridesBase = base?.initializers.contains { signature($0.parameters) == signature(initializer.parameters) }
            ?? initializer.parameters.isEmpty
        overrideKeyword = overridesBase ? "override " : ""
    }

    static let templateKeys = TemplateKeys<InitializerViewModel>(listElement: true, [
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.initializer.doc) },
        .bool("isSynthesized", "whether it is the synthesized memberwise init") { $0.initializer.isSynthesized },
        .string("overrideKeyword", "`override ` when a subclass init has the signature of a base init, or a base's init has no parameters (it overrides `ModelObject.init()`), else \"\"") { $0.overrideKeyword },
        .list("parameters", "the parameters, each with `name`, `swiftName`, `type`, `hasDefaultArgument`, `defaultArgument`") { $0.parameters },
        .bool("hasParameters", "whether `parameters` is not empty") { !$0.parameters.isEmpty },
        .list("assignments", "own attributes set before `super.init`, each with `name`, `swiftName`, `value`, `isParameter`") { $0.assignments },
        .bool("hasSuperInit", "whether it calls `super.init(…)` with arguments (a subclass init)") { $0.initializer.superArguments != nil },
        .list("superArguments", "the arguments of `super.init` (names; `argumentLabel` is the name as a call's label)") {
            ($0.initializer.superArguments ?? []).map(NameViewModel.init)
        },
        .list("assignmentsAfterSuperInit", "own relationships and base properties set through their setters after `super.init`") {
            $0.assignmentsAfterSuperInit
        },
    ])
}

/// A parameter of an init.
final class ParameterViewModel: ViewModel {
    let name: String
    let type: String
    /// The default argument expression ("" when none).
    let defaultArgument: String

    init(name: String, type: String, defaultArgument: String) {
        self.name = name
        self.type = type
        self.defaultArgument = defaultArgument
    }

    static let templateKeys = TemplateKeys<ParameterViewModel>(listElement: true, [
        .string("name", "the parameter's name (the property it sets)") { $0.name },
        .string("swiftName", "the name as Swift spells it") { SwiftIdentifier.escaped($0.name) },
        .string("type", "its Swift type") { $0.type },
        .bool("hasDefaultArgument", "whether it has a default argument") { !$0.defaultArgument.isEmpty },
        .string("defaultArgument", "the default argument expression (\"\" when none)") { $0.defaultArgument },
    ])
}

/// `self.property = value` in an init.
final class AssignmentViewModel: ViewModel {
    let name: String
    let value: String
    let isParameter: Bool

    init(name: String, value: String, isParameter: Bool) {
        self.name = name
        self.value = value
        self.isParameter = isParameter
    }

    static let templateKeys = TemplateKeys<AssignmentViewModel>(listElement: true, [
        .string("name", "the property set") { $0.name },
        .string("swiftName", "its name as Swift spells it") { SwiftIdentifier.escaped($0.name) },
        .string("value", "the expression assigned") { $0.value },
        .bool("isParameter", "whether the value is a parameter of the init (else a default)") { $0.isParameter },
    ])
}

/// A `#Unique` / `#Index` group (or a `.unique` attribute) as a list of property names.
final class KeyPathGroupViewModel: ViewModel {
    let names: [String]

    init(_ names: [String]) {
        self.names = names
    }

    static let templateKeys = TemplateKeys<KeyPathGroupViewModel>(listElement: true, [
        .list("properties", "the properties of the group (names)") { $0.names.map(NameViewModel.init) },
    ])
}

/// An enum (template `enum`).
final class EnumViewModel: ViewModel {
    let enumeration: CheckedEnum

    init(_ enumeration: CheckedEnum) {
        self.enumeration = enumeration
    }

    static let templateKeys = TemplateKeys<EnumViewModel>(listElement: true, [
        .string("name", "the enum's name") { $0.enumeration.name },
        .string("swiftName", "the name as Swift spells it") { SwiftIdentifier.escaped($0.enumeration.name) },
        .string("qualifiedName", "`Entity.Name` for a nested enum, else the name") { $0.enumeration.qualifiedName },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.enumeration.doc) },
        .string("rawType", "`String` or `Int` (\"\" for an enum whose cases carry associated values)") { $0.enumeration.rawType?.rawValue ?? "" },
        .bool("hasRawType", "whether it has a raw type written (else it is plain, or its cases carry associated values and it is stored as JSON)") {
            $0.enumeration.rawType != nil && $0.enumeration.hasDeclaredRawType
        },
        .bool("isPlain", "whether it is a plain enum: no raw type written, no associated values; stored by case name") {
            $0.enumeration.rawType != nil && !$0.enumeration.hasDeclaredRawType
        },
        .string("conformanceList", "the protocols written that the generated enum does not have already, each after `, ` (`, Comparable`)") {
            $0.enumeration.conformances.map { ", " + $0 }.joined()
        },
        .list("cases", "the cases, each with `name`, `swiftName`, `docLines`, `rawValueLiteral`, `hasExplicitRawValue`, `associatedValues`") { model in
            model.enumeration.cases.map { EnumCaseViewModel($0, rawType: model.enumeration.rawType, owner: model.enumeration.ownerEntity) }
        },
    ])
}

/// A case of an enum.
final class EnumCaseViewModel: ViewModel {
    let enumCase: CheckedEnum.Case
    let rawType: EnumRawType?
    /// The raw value as written or implied ("" for a case of an enum with associated values).
    let rawValue: String
    /// The entity the enum is nested in (its types are spelled from there).
    let owner: String?

    init(_ enumCase: CheckedEnum.Case, rawType: EnumRawType?, owner: String?) {
        self.enumCase = enumCase
        self.rawType = rawType
        self.rawValue = enumCase.rawValue ?? ""
        self.owner = owner
    }

    /// `(radius: Double, _: String?)`-style list of the associated values ("" for none).
    var associatedValues: String {
        guard !enumCase.associatedValues.isEmpty else { return "" }
        return "(" + enumCase.associatedValues.map { value in
            let type = SwiftTypeName.of(value.type, in: owner) + (value.isOptional ? "?" : "")
            return value.label.map { SwiftIdentifier.argumentLabel($0) + ": " + type } ?? type
        }.joined(separator: ", ") + ")"
    }

    static let templateKeys = TemplateKeys<EnumCaseViewModel>(listElement: true, [
        .string("name", "the case's name") { $0.enumCase.name },
        .string("swiftName", "the name as Swift spells it") { SwiftIdentifier.escaped($0.enumCase.name) },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.enumCase.doc) },
        .string("nameLiteral", "the case's name as a Swift string literal (what a plain enum stores)") { SwiftLiteral.string($0.enumCase.name) },
        .string("rawValueLiteral", "the raw value as a Swift literal (`\"bee\"`, `2`)") {
            $0.rawType == .string ? SwiftLiteral.string($0.rawValue) : $0.rawValue
        },
        .bool("hasExplicitRawValue", "whether the raw value must be written (a String case whose raw value is not its name, or an Int case)") {
            $0.rawType == .int || ($0.rawType == .string && $0.rawValue != $0.enumCase.name)
        },
        .string("associatedValues", "the associated values as the case declares them, `(radius: Double)` (\"\" for none)") { $0.associatedValues },
    ])
}

/// A `container` (template `container`).
final class ContainerViewModel: ViewModel {
    let container: CheckedContainer
    /// The enum that holds the entities' classes (the newest version's, when the model is that version).
    let modelHost: String?

    init(_ container: CheckedContainer, modelHost: String? = nil) {
        self.container = container
        self.modelHost = modelHost
    }

    static let templateKeys = TemplateKeys<ContainerViewModel>(listElement: true, [
        .string("name", "the container's name") { $0.container.name },
        .string("swiftName", "the name as Swift spells it") { SwiftIdentifier.escaped($0.container.name) },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.container.doc) },
        .list("entities", "every entity the store holds: listed ones, their bases and subclasses, in schema order (names)") {
            $0.container.allEntities.map(NameViewModel.init)
        },
        .list("listedEntities", "the entities as listed (redundant subclasses removed, missing bases added; names)") {
            $0.container.listedEntities.map(NameViewModel.init)
        },
        .string("modelPrefix", "what qualifies an entity's class: `SchemaV3_0_0.` when the model is its newest frozen version (whose enum holds the classes), else \"\"") {
            $0.modelHost.map { $0 + "." } ?? ""
        },
    ])
}

/// A struct (template `struct`): SwiftData's composite attribute.
final class StructViewModel: ViewModel {
    let structure: CheckedStruct
    let fields: [StructFieldViewModel]

    init(_ structure: CheckedStruct, context: GenerationContext) {
        self.structure = structure
        self.fields = structure.fields.map { StructFieldViewModel($0, owner: structure.ownerEntity) }
    }

    static let templateKeys = TemplateKeys<StructViewModel>(listElement: true, [
        .string("name", "the struct's name") { $0.structure.name },
        .string("swiftName", "the name as Swift spells it") { SwiftIdentifier.escaped($0.structure.name) },
        .string("qualifiedName", "`Entity.Name` for a nested struct, else the name") { $0.structure.qualifiedName },
        .string("structSwiftPath", "the qualified name as Swift spells it (`Theme.Border`)") { SwiftIdentifier.escapedPath($0.structure.qualifiedName) },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.structure.doc) },
        .string("conformanceList", "the protocols written that the generated struct does not have already, each after `, ` (`, Identifiable`)") {
            $0.structure.conformances.map { ", " + $0 }.joined()
        },
        .list("fields", "the fields in declaration order, each with `name`, `swiftName`, `nameLiteral`, `docLines`, `type`, `hasDefaultArgument`, `defaultArgument`") { $0.fields },
    ])
}

/// A field of a struct.
final class StructFieldViewModel: ViewModel {
    let field: CheckedStruct.Field
    let type: String
    /// The memberwise init's default argument: the default, or `nil` for an optional ("" for none).
    let defaultArgument: String

    init(_ field: CheckedStruct.Field, owner: String?) {
        self.field = field
        self.type = SwiftTypeName.of(field.type, in: owner) + (field.isOptional ? "?" : "")
        if let value = field.defaultValue {
            defaultArgument = SwiftLiteral.defaultExpression(value, for: field.type, in: owner)
        } else {
            defaultArgument = field.isOptional ? "nil" : ""
        }
    }

    static let templateKeys = TemplateKeys<StructFieldViewModel>(listElement: true, [
        .string("name", "the field's name") { $0.field.name },
        .string("swiftName", "the name as Swift spells it") { SwiftIdentifier.escaped($0.field.name) },
        .string("nameLiteral", "the name as a Swift string literal") { SwiftLiteral.string($0.field.name) },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.field.doc) },
        .string("type", "the Swift type (`String?`, `[Shade]`, `Accent`)") { $0.type },
        .bool("hasDefaultArgument", "whether the memberwise init gives it a default argument (a default was written, or it is optional)") { !$0.defaultArgument.isEmpty },
        .string("defaultArgument", "that default argument (\"\" when none)") { $0.defaultArgument },
    ])
}

/// One value column of a struct attribute: its field path and the key path to it.
final class FieldPathViewModel: ViewModel {
    /// `palette.primary`.
    let name: String
    /// `.palette?.primary`: the key path's components after the class name.
    let keyPathSuffix: String

    init(name: String, keyPathSuffix: String) {
        self.name = name
        self.keyPathSuffix = keyPathSuffix
    }

    /// The value columns of a struct named `structName` reached through `name` and the key-path
    /// components `suffix` (ending in `?` when the struct is optional), nested structs flattened.
    static func paths(of structName: String, name: String, suffix: String, schema: CheckedSchema) -> [FieldPathViewModel] {
        guard let structure = schema.structure(named: structName) else { return [] }
        var paths: [FieldPathViewModel] = []
        for field in structure.fields {
            let fieldName = name + "." + field.name
            let fieldSuffix = suffix + "." + SwiftIdentifier.escaped(field.name)
            if case .composite(let nested) = field.type {
                paths += Self.paths(of: nested, name: fieldName, suffix: fieldSuffix + (field.isOptional ? "?" : ""), schema: schema)
            } else {
                paths.append(FieldPathViewModel(name: fieldName, keyPathSuffix: fieldSuffix))
            }
        }
        return paths
    }

    static let templateKeys = TemplateKeys<FieldPathViewModel>(listElement: true, [
        .string("name", "the field path (`palette.primary`)") { $0.name },
        .string("nameLiteral", "the field path as a Swift string literal") { SwiftLiteral.string($0.name) },
        .string("keyPathSuffix", "the key path after the class name (`.palette?.primary`)") { $0.keyPathSuffix },
    ])
}

/// A `@ModelActor actor` (in template `file`): what SwiftData's macro expands to.
final class ModelActorViewModel: ViewModel {
    let actor: CheckedModelActor

    init(_ actor: CheckedModelActor) {
        self.actor = actor
    }

    static let templateKeys = TemplateKeys<ModelActorViewModel>(listElement: true, [
        .string("name", "the actor's name") { $0.actor.name },
        .string("swiftName", "the name as Swift spells it") { SwiftIdentifier.escaped($0.actor.name) },
        .list("docLines", "the doc comment, each line `/// …`") { GenerationContext.docLines($0.actor.doc) },
    ])
}
