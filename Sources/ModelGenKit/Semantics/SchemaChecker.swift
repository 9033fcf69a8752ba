/// Resolves the parsed files into one checked schema and applies every rule of SPEC §3.
///
/// Placeholder until the semantic stage lands (issue 3): it reports nothing and builds an empty schema.
public enum SchemaChecker {
    /// Checks all files of one run together. The schema is `nil` when any error was found.
    public static func check(_ files: [ModelFile]) -> (schema: CheckedSchema?, diagnostics: [Diagnostic]) {
        (CheckedSchema(entities: [], enums: [], containers: []), [])
    }
}
