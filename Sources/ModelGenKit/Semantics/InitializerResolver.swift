// The inits of an entity as generation sees them: the declared ones, or one synthesized
// memberwise init when none is declared.
//
// Synthesized init: for a subclass, the parameters of the base's first init (declared or
// synthesized) come first and are passed to `super.init`; then the entity's own stored,
// non-transient properties in declaration order. A parameter gets a default argument when its
// property is optional, has a default, or is a to-many relationship (`[]`). A declared init's
// parameter has the default argument written for it (`init(name, startDate = .now)`) and no other:
// the declared init is the app's own, with the defaults its author gave it (docs/Language.md).

enum InitializerResolver {
    /// The inits of `entity` (declared ones in order, else one synthesized).
    static func initializers(of entity: String, model: SemanticModel) -> [CheckedInitializer] {
        initializers(of: entity, model: model, depth: 0)
    }

    private static func initializers(of entity: String, model: SemanticModel, depth: Int) -> [CheckedInitializer] {
        guard let info = model.entities[entity] else { return [] }
        if !info.initializers.isEmpty {
            return info.initializers.map { declared($0, of: info, model: model) }
        }
        var parameters: [CheckedInitializer.Parameter] = []
        var superArguments: [String]?
        // A valid hierarchy is one level deep; deeper ones were reported and are not followed further.
        if let base = info.baseName, depth < 2 {
            let baseInit = initializers(of: base, model: model, depth: depth + 1).first
            parameters = baseInit?.parameters ?? []
            superArguments = parameters.map(\.name)
        }
        for property in info.properties where property.isValid && !property.options.isTransient {
            parameters.append(.init(name: property.name, owner: entity, hasDefaultArgument: property.startsInitialized))
        }
        return [CheckedInitializer(doc: [], parameters: parameters, superArguments: superArguments, isSynthesized: true)]
    }

    private static func declared(_ decl: InitDecl, of info: EntityInfo, model: SemanticModel) -> CheckedInitializer {
        let parameters = decl.parameters.enumerated().map { index, parameter -> CheckedInitializer.Parameter in
            let owner = info.property(named: parameter.name) != nil ? info.name : (info.baseName ?? info.name)
            var value: DefaultValue?
            if let written = decl.defaultValue(at: index), let type = model.property(parameter.name, of: info.name)?.type,
               case .success(let resolved) = DefaultValueResolver.resolve(written, for: type, model: model) {
                value = resolved
            }
            return .init(name: parameter.name, owner: owner, hasDefaultArgument: value != nil, defaultValue: value)
        }
        let superArguments = info.baseName == nil ? nil : (decl.superInit?.arguments.map(\.name) ?? [])
        return CheckedInitializer(doc: decl.doc?.lines ?? [], parameters: parameters, superArguments: superArguments, isSynthesized: false)
    }

    /// True when `super.init(arguments)` can call `initializer`: the arguments name its
    /// parameters in order, and every parameter left out has a default argument.
    static func call(_ arguments: [String], matches initializer: CheckedInitializer) -> Bool {
        var remaining = initializer.parameters[...]
        for argument in arguments {
            while let next = remaining.first, next.name != argument {
                guard next.hasDefaultArgument else { return false }
                remaining = remaining.dropFirst()
            }
            guard !remaining.isEmpty else { return false }
            remaining = remaining.dropFirst()
        }
        return remaining.allSatisfy(\.hasDefaultArgument)
    }
}
