// The protocols written after a struct's or enum's name (after an enum's raw type): any protocol
// is passed through to the generated type (`Identifiable`, `Comparable`, a protocol of the app),
// and the Swift compiler checks that the type satisfies it (docs/Language.md). Those the generated
// type has already are left out. A name the model declares (an entity, enum or struct) or a
// built-in value type is no protocol: `unknown-type`.

enum Conformances {
    /// What every generated struct and enum conforms to already (an enum with a raw type or a plain
    /// enum is also `CaseIterable`; see the templates).
    static let implied: Set<String> = ["Codable", "Hashable", "Equatable", "Sendable", "Decodable", "Encodable"]

    /// The names of `written` to pass through, in order and without repeats; `unknown-type` for a
    /// name that is a type of the model or a built-in value type. `implied` are left out.
    static func passedThrough(_ written: [Identifier], implied: Set<String>, owner: String, modelTypes: Set<String>,
                              sink: inout DiagnosticSink) -> [String] {
        var result: [String] = []
        for conformance in written {
            let name = conformance.name
            if modelTypes.contains(name) || TypeResolver.builtinTypes[name] != nil {
                sink.error(.unknownType, "'\(name)' in the conformances of \(owner) is a type, not a protocol: a struct or enum of the model inherits from nothing", at: conformance.range)
                continue
            }
            if implied.contains(name) || result.contains(name) { continue }
            result.append(name)
        }
        return result
    }

    /// The names of the model's entities, top-level enums and structs (the types no conformance may name).
    static func modelTypeNames(_ model: SemanticModel) -> Set<String> {
        Set(model.entityOrder + model.topLevelEnumOrder + model.structOrder.filter { !$0.contains(".") })
    }
}
