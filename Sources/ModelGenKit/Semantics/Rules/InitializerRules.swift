// Rules about inits: `missing-super-init`, `super-init-mismatch`, `super-init-in-base`,
// `uninitialized-property`, `unknown-init-parameter`; also `duplicate-declaration` for two inits
// with the same parameters, `duplicate-property` for a parameter listed twice, and
// `default-type-mismatch` for a default argument (`init(name, startDate = .now)`) that does not fit.
// Entities whose base is unknown, part of a cycle, or itself a subclass are skipped (reported).

enum InitializerRules {
    static func check(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard let info = model.entities[entity], !info.hierarchyIsBroken else { continue }
            var kept: [InitDecl] = []
            var signatures: [[String]: InitDecl] = [:]
            for member in info.decl.members {
                guard case .initializer(let decl) = member else { continue }
                let signature = decl.parameters.map(\.name)
                if let first = signatures[signature] {
                    model.sink.error(.duplicateDeclaration, "entity '\(entity)' declares init(\(signature.joined(separator: ", "))) twice: remove one", at: decl.keywordRange,
                                     notes: [DiagnosticNote("first declared here", at: first.keywordRange)])
                    continue
                }
                signatures[signature] = decl
                kept.append(decl)
            }
            model.entities[entity]?.initializers = kept
        }
        for entity in model.entityOrder {
            guard let info = model.entities[entity], !info.hierarchyIsBroken, !info.isTooDeep else { continue }
            for decl in info.initializers { check(decl, of: info, model: &model) }
        }
    }

    private static func check(_ decl: InitDecl, of info: EntityInfo, model: inout SemanticModel) {
        let entity = info.name
        let parameterNames = decl.parameters.map(\.name)
        let parametersAreKnown = checkParameters(decl, of: info, model: &model)
        if let base = info.baseName {
            checkSuperInit(decl, of: info, base: base, model: &model)
        } else if let call = decl.superInit {
            model.sink.error(.superInitInBase, "entity '\(entity)' has no base, so its init cannot call super.init: remove the call", at: decl.keywordRange,
                             notes: [DiagnosticNote("super.init called here", at: call.range)])
        }
        // An unknown parameter is likely a misspelled property: reporting it unset too would repeat it.
        guard parametersAreKnown else { return }
        let unset = info.properties.filter { !$0.startsInitialized && !parameterNames.contains($0.name) }
        guard !unset.isEmpty else { return }
        let names = unset.map { "'\($0.name)'" }.joined(separator: ", ")
        let fixed = (parameterNames + unset.map(\.name)).joined(separator: ", ")
        var notes = unset.map { DiagnosticNote("'\(entity).\($0.name)' declared here", at: $0.decl.name.range) }
        notes.append(DiagnosticNote("add \(unset.count == 1 ? "it" : "them") to the parameters, 'init(\(fixed))', or give \(unset.count == 1 ? "it a default or make it" : "them defaults or make them") optional"))
        model.sink.error(.uninitializedProperty, "init(\(parameterNames.joined(separator: ", "))) of '\(entity)' leaves \(names) unset", at: decl.keywordRange, notes: notes)
    }

    /// Reports duplicate and unknown parameters; returns false when one is unknown.
    private static func checkParameters(_ decl: InitDecl, of info: EntityInfo, model: inout SemanticModel) -> Bool {
        var allKnown = true
        var seen: [String: Identifier] = [:]
        let baseInfo = info.baseName.flatMap { model.entities[$0] }
        func isKnown(_ name: String) -> Bool {
            info.declaredPropertyNames.contains(name) || baseInfo?.declaredPropertyNames.contains(name) == true
        }
        for (index, parameter) in decl.parameters.enumerated() {
            if let first = seen[parameter.name] {
                model.sink.error(.duplicateProperty, "init of '\(info.name)' lists '\(parameter.name)' twice: remove one", at: parameter.range,
                                 notes: [DiagnosticNote("first listed here", at: first.range)])
                continue
            }
            seen[parameter.name] = parameter
            guard !isKnown(parameter.name) else {
                checkDefault(decl.defaultValue(at: index), of: parameter, in: info, model: &model)
                continue
            }
            allKnown = false
            let candidates = model.allProperties(of: info.name).map(\.name)
            var notes: [DiagnosticNote] = []
            notes += NameDistance.suggestion(for: parameter.name, among: candidates)
            let owners = info.baseName.map { "'\(info.name)' or its base '\($0)'" } ?? "'\(info.name)'"
            model.sink.error(.unknownInitParameter, "init parameter '\(parameter.name)' names no stored property of \(owners): init parameters name the properties they set", at: parameter.range, notes: notes)
        }
        return allKnown
    }

    /// `default-type-mismatch` for a default argument (`init(name, startDate = .now)`) that does
    /// not fit its property's type (the same defaults a property may have).
    private static func checkDefault(_ value: Expression?, of parameter: Identifier, in info: EntityInfo, model: inout SemanticModel) {
        guard let value, let property = model.property(parameter.name, of: info.name), let type = property.type else { return }
        if case .failure(let mismatch) = DefaultValueResolver.resolve(value, for: type, model: model) {
            model.sink.error(.defaultTypeMismatch, "default argument of '\(parameter.name)' in init of '\(info.name)' does not fit its type '\(property.decl.type)': \(mismatch.reason)", at: value.range)
        }
    }

    private static func checkSuperInit(_ decl: InitDecl, of info: EntityInfo, base: String, model: inout SemanticModel) {
        let baseInits = InitializerResolver.initializers(of: base, model: model)
        let parameterNames = decl.parameters.map(\.name)
        guard let call = decl.superInit else {
            var notes: [DiagnosticNote] = []
            for baseInit in baseInits {
                let required = baseInit.parameters.filter { !$0.hasDefaultArgument }.map(\.name)
                let superCall = "super.init(\(required.joined(separator: ", ")))"
                let missing = required.filter { !parameterNames.contains($0) }
                if missing.isEmpty {
                    notes.append(DiagnosticNote("add '\(superCall)'"))
                } else {
                    notes.append(DiagnosticNote("write 'init(\((missing + parameterNames).joined(separator: ", "))) { \(superCall) }'"))
                }
            }
            notes += baseInitLocations(base, model: model)
            model.sink.error(.missingSuperInit, "init(\(parameterNames.joined(separator: ", "))) of subclass '\(info.name)' does not call super.init: the properties of '\(base)' would stay unset", at: decl.keywordRange, notes: notes)
            return
        }
        let arguments = call.arguments.map(\.name)
        if let stray = call.arguments.first(where: { !parameterNames.contains($0.name) }) {
            model.sink.error(.superInitMismatch, "super.init passes '\(stray.name)', which is not a parameter of init(\(parameterNames.joined(separator: ", "))) of '\(info.name)': add it to the init's parameters or remove it from the call", at: call.range)
            return
        }
        guard !baseInits.contains(where: { InitializerResolver.call(arguments, matches: $0) }) else { return }
        let options = baseInits.map { "init(\($0.parameters.map { $0.hasDefaultArgument ? "\($0.name)?" : $0.name }.joined(separator: ", ")))" }
        var notes = [DiagnosticNote("'\(base)' has \(options.joined(separator: " and ")): call one with its parameters in order\(baseInits.contains { $0.isSynthesized } ? " ('?' marks a parameter that may be left out)" : "")")]
        notes += baseInitLocations(base, model: model)
        model.sink.error(.superInitMismatch, "super.init(\(arguments.joined(separator: ", "))) matches no init of '\(base)'", at: call.range, notes: notes)
    }

    private static func baseInitLocations(_ base: String, model: SemanticModel) -> [DiagnosticNote] {
        guard let baseInfo = model.entities[base] else { return [] }
        if baseInfo.initializers.isEmpty {
            return [DiagnosticNote("'\(base)' declared here (with a synthesized memberwise init)", at: baseInfo.decl.name.range)]
        }
        return baseInfo.initializers.map { DiagnosticNote("init of '\(base)' declared here", at: $0.keywordRange) }
    }
}
