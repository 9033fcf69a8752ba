/// Resolves the parsed files into one checked schema and applies every rule of docs/Rules.md.
///
/// The checker runs on whatever the parser produced (declarations that parsed are checked even
/// when others had syntax errors). Each stage marks what it could not resolve, and later stages
/// skip it silently, so one mistake yields one diagnostic. Decisions where the spec is silent are
/// documented in `docs/Rules.md`.
enum SchemaChecker {
    /// Checks all files of one run together. The schema is `nil` when any error was found.
    /// Diagnostics are sorted by file (in input order) and position.
    ///
    /// The files are taken: once the symbol table has collected their declarations, the semantic
    /// model holds the only references to them (unless the caller keeps the files), and building the
    /// schema frees them entity by entity.
    static func check(_ files: consuming [ModelFile]) -> (schema: CheckedSchema?, diagnostics: [Diagnostic]) {
        let model = analyze(consume files)
        let diagnostics = model.sink.diagnostics.sorted(byFileOrder: model.filePaths)
        return (model.sink.hasErrors ? nil : CheckedSchemaBuilder.build(consume model), diagnostics)
    }

    /// Runs every stage in order and returns the resolved model with its diagnostics.
    static func analyze(_ files: consuming [ModelFile]) -> SemanticModel {
        var model = SemanticModel()
        let duplicates = SymbolTable.collect(files, into: &model)
        files = []
        NameRules.reportDuplicates(duplicates, in: &model)
        NameRules.checkTypeNames(&model)
        NameRules.checkModelActors(&model)
        HierarchyRules.resolveBases(&model)
        NameRules.checkEntityAttributes(&model)
        EnumResolver.resolveAll(&model)
        CompositeRules.check(&model)
        NameRules.collectProperties(&model)
        HierarchyRules.checkShadowedProperties(&model)
        AttributeRules.resolveProperties(&model)
        NameRules.checkDeclaredIDs(&model)
        StorageNameRules.check(&model)
        NameRules.checkConstraintMacros(&model)
        RelationshipRules.check(&model)
        CascadeRules.check(&model)
        HierarchyRules.checkLabelOnlySubclasses(&model)
        InitializerRules.check(&model)
        ContainerRules.check(&model)
        return model
    }
}
