/// Resolves the parsed files into one checked schema and applies every rule of SPEC §3.
///
/// The checker runs on whatever the parser produced (declarations that parsed are checked even
/// when others had syntax errors). Each stage marks what it could not resolve, and later stages
/// skip it silently, so one mistake yields one diagnostic. Decisions where the spec is silent are
/// documented in `docs/Rules.md`.
enum SchemaChecker {
    /// Checks all files of one run together. The schema is `nil` when any error was found.
    /// Diagnostics are sorted by file (in input order) and position.
    public static func check(_ files: [ModelFile]) -> (schema: CheckedSchema?, diagnostics: [Diagnostic]) {
        let model = analyze(files)
        let diagnostics = sorted(model.sink.diagnostics, files: model.filePaths)
        return (model.sink.hasErrors ? nil : CheckedSchemaBuilder.build(model), diagnostics)
    }

    /// Runs every stage in order and returns the resolved model with its diagnostics.
    static func analyze(_ files: [ModelFile]) -> SemanticModel {
        var model = SemanticModel()
        let duplicates = SymbolTable.collect(files, into: &model)
        NameRules.reportDuplicates(duplicates, in: &model)
        NameRules.checkTypeNames(&model)
        HierarchyRules.resolveBases(&model)
        EnumResolver.resolveAll(&model)
        NameRules.collectProperties(&model)
        HierarchyRules.checkShadowedProperties(&model)
        AttributeRules.resolveProperties(&model)
        NameRules.checkConstraintMacros(&model)
        RelationshipRules.check(&model)
        HierarchyRules.checkLabelOnlySubclasses(&model)
        InitializerRules.check(&model)
        ContainerRules.check(&model)
        return model
    }

    private static func sorted(_ diagnostics: [Diagnostic], files: [String]) -> [Diagnostic] {
        let fileOrder = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return diagnostics.enumerated().sorted { lhs, rhs in
            let (l, r) = (lhs.element.range, rhs.element.range)
            let (lf, rf) = (fileOrder[l.file] ?? Int.max, fileOrder[r.file] ?? Int.max)
            if lf != rf { return lf < rf }
            if l.file != r.file { return l.file < r.file }
            if l.start.offset != r.start.offset { return l.start.offset < r.start.offset }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
