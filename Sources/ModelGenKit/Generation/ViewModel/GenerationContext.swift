internal import SchemaEvolution

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

    /// The run's model files by path: the text each entity's file records (`modelgen pull`).
    private let sourcesByPath: [String: ModelSource]

    init(schema: CheckedSchema, accessLevel: AccessLevel, recordsModelSource: Bool = true, sources: [ModelSource] = []) {
        self.schema = schema
        self.accessLevel = accessLevel
        self.recordsModelSource = recordsModelSource
        self.sourcesByPath = Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
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
    /// nil for a file that declares no entity or whose text the run does not have. `fileprivate`
    /// in each generated file that generates entities of that file (the model file's own, or the
    /// newest frozen version's when the model is that version).
    func modelSourceName(ofFile path: String) -> String? {
        guard recordsModelSource, sourcesByPath[path] != nil else { return nil }
        return declarations(in: path).entities.first.map { "_$modelSource_" + schema.entities[$0].name }
    }

    /// The model files whose entities a generated file generates, as view models of their recorded
    /// text: for a `.model` file, itself (when it generates its entities); for the newest frozen
    /// version that is the current model, every model file declaring entities.
    func modelSources(generatedIn source: ModelSource, generatesAllEntities: Bool, generatesOwnEntities: Bool) -> [ModelSourceViewModel] {
        var paths: [String] = []
        if generatesAllEntities {
            for entity in schema.entities where !paths.contains(entity.range.file) { paths.append(entity.range.file) }
        } else if generatesOwnEntities {
            paths = [source.path]
        }
        return paths.compactMap { path in
            guard let name = modelSourceName(ofFile: path), let file = sourcesByPath[path] else { return nil }
            return ModelSourceViewModel(name: name, source: file)
        }
    }

    /// The view model of the file `source`: the entities, top-level enums and containers it declares.
    func file(_ source: ModelSource) -> FileViewModel {
        FileViewModel(source, context: self)
    }

    /// `///` lines of a doc comment (no trailing space on an empty line).
    static func docLines(_ lines: [String]) -> [String] {
        lines.map { $0.isEmpty ? "///" : "/// " + $0 }
    }

    /// The storage kind of a value type (the `valueKind` key): for a built-in type its row of
    /// SchemaEvolution's `ScalarType` table (`uint16`, `double` for `CGFloat`).
    static func kind(of type: ValueType) -> String {
        switch type {
        case .enumeration: "enumeration"
        case .enumWithAssociatedValues: "codable"
        case .composite: "composite"
        case .array: "array"
        default: type.scalar?.valueKind ?? ""
        }
    }
}
