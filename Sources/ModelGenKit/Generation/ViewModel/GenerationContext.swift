/// What the view models of one run share: the checked schema, its entities by name and its
/// declarations by file, and the access level. Built once per run (`CodeGenerator`).
final class GenerationContext {
    let schema: CheckedSchema
    let accessLevel: AccessLevel
    /// The position of each entity in `schema.entities`, by name (the first one of a name).
    private let entityIndexByName: [String: Int]
    /// The positions of each file's entities, top-level enums and containers, by the file's path.
    private let declarationsByFile: [String: Declarations]

    struct Declarations {
        var entities: [Int] = []
        var enums: [Int] = []
        var containers: [Int] = []
        var structs: [Int] = []
        var modelActors: [Int] = []
    }

    /// Whether the entities generated from this context record their `.model` file for the store
    /// (`modelgen pull`, docs/CommandLine.md): the current model's do, an older version's do not.
    let recordsModelSource: Bool

    init(schema: CheckedSchema, accessLevel: AccessLevel, recordsModelSource: Bool = true) {
        self.schema = schema
        self.accessLevel = accessLevel
        self.recordsModelSource = recordsModelSource
        var indexByName: [String: Int] = Dictionary(minimumCapacity: schema.entities.count)
        var byFile: [String: Declarations] = [:]
        for (index, entity) in schema.entities.enumerated() {
            if indexByName[entity.name] == nil { indexByName[entity.name] = index }
            byFile[entity.range.file, default: Declarations()].entities.append(index)
        }
        for (index, enumeration) in schema.enums.enumerated() {
            byFile[enumeration.range.file, default: Declarations()].enums.append(index)
        }
        for (index, container) in schema.containers.enumerated() {
            byFile[container.range.file, default: Declarations()].containers.append(index)
        }
        for (index, structure) in schema.structs.enumerated() {
            byFile[structure.range.file, default: Declarations()].structs.append(index)
        }
        for (index, actor) in schema.modelActors.enumerated() {
            byFile[actor.range.file, default: Declarations()].modelActors.append(index)
        }
        self.entityIndexByName = indexByName
        self.declarationsByFile = byFile
    }

    /// The entity named `name` (the first one, as `CheckedSchema.entity(named:)` gives).
    func entity(named name: String) -> CheckedEntity? {
        entityIndexByName[name].map { schema.entities[$0] }
    }

    /// What the file at `path` declares, in schema order (top-level structs in source order).
    func declarations(in path: String) -> Declarations {
        declarationsByFile[path] ?? Declarations()
    }

    /// The name of the generated constant holding the text of the `.model` file at `path`
    /// (`_$modelSource_Trip`, after the file's first entity, a name no other file's entity has), or
    /// nil for a file that declares no entity. Module-wide, not `fileprivate`: the classes of a model
    /// that is its newest frozen version are generated in the version's file and name it from there.
    func modelSourceName(ofFile path: String) -> String? {
        declarations(in: path).entities.first.map { "_$modelSource_" + schema.entities[$0].name }
    }

    /// The view model of the file `source`: the entities, top-level enums and containers it declares.
    func file(_ source: ModelSource) -> FileViewModel {
        FileViewModel(source, context: self)
    }

    /// `///` lines of a doc comment (no trailing space on an empty line).
    static func docLines(_ lines: [String]) -> [String] {
        lines.map { $0.isEmpty ? "///" : "/// " + $0 }
    }

    /// The storage kind of a value type, as the runtime names it.
    static func kind(of type: ValueType) -> String {
        switch type {
        case .bool: "bool"
        case .int: "int"
        case .int8: "int8"
        case .int16: "int16"
        case .int32: "int32"
        case .int64: "int64"
        case .uint8: "uint8"
        case .uint16: "uint16"
        case .uint32: "uint32"
        case .double: "double"
        case .float: "float"
        case .string: "string"
        case .date: "date"
        case .uuid: "uuid"
        case .data: "data"
        case .url: "url"
        case .decimal: "decimal"
        case .timeInterval: "double"
        case .cgFloat: "double"
        case .enumeration: "enumeration"
        case .enumWithAssociatedValues: "codable"
        case .composite: "composite"
        case .array: "array"
        }
    }
}
