// LANG-GENERATION: the constructs the language front end checks (issue #14) but generation does not
// support yet. A run that generates (`GeneratorPipeline.run`, any `OutputMode` but `.lint`) reports
// each as an error instead of emitting wrong code; this file goes away when generation supports them.

/// Finds what a checked schema uses that the generator cannot generate yet.
enum PendingGeneration {
    /// One `unsupported-type` error per use of a construct that is not generated yet: a struct, an enum
    /// whose cases carry associated values, a declared `id`. Sorted by
    /// position within each file; empty when everything can be generated.
    static func diagnostics(for schema: CheckedSchema) -> [Diagnostic] {
        var found: [Diagnostic] = []
        func pending(_ what: String, at range: SourceRange) {
            found.append(.error(.unsupportedType, "\(what) is not generated yet: 'modelgen lint' accepts it, but this version of 'generate' cannot write its Swift code", at: range))
        }
        for structure in schema.structs { pending("struct '\(structure.qualifiedName)'", at: structure.range) }
        for enumeration in schema.enums where enumeration.hasAssociatedValues {
            pending("enum '\(enumeration.qualifiedName)' with associated values", at: enumeration.range)
        }
        for entity in schema.entities {
            for structure in entity.structs { pending("struct '\(structure.qualifiedName)'", at: structure.range) }
            for enumeration in entity.enums where enumeration.hasAssociatedValues {
                pending("enum '\(enumeration.qualifiedName)' with associated values", at: enumeration.range)
            }
            if entity.idPropertyName != nil, let property = entity.properties.first(where: { $0.name == entity.idPropertyName }) {
                pending("property 'id' of entity '\(entity.name)' (a declared Identifiable.id)", at: property.range)
            }
        }
        return found.sorted { ($0.range.file, $0.range.start.offset) < ($1.range.file, $1.range.start.offset) }
    }
}
