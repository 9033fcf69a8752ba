// The check of the model's history, after each version and the current model were checked alone:
// the `migration` declarations name steps of the history, and each step's changes can be migrated
// (inferred, or declared custom). docs/Rules.md `migration-not-inferable`, docs/Migrations.md.

/// One frozen version as the check stage read it.
struct VersionInput {
    var version: SchemaVersion
    var source: ModelSource
    /// The `migration` declarations in the file (an error: steps are declared in the current model).
    var migrations: [MigrationDecl]
    /// Its checked schema; nil when the file has errors (its steps are then not checked).
    var schema: CheckedSchema?
}

/// Checks the history of a model: the versions (sorted), the `migration` declarations of the
/// current model's files, and every step.
enum HistoryChecker {
    /// The history (nil when the current model or a version has errors, or there is no version)
    /// and the diagnostics about it.
    /// `migrations` are the `migration` declarations of the current model's files; `firstPath` is
    /// the first of those files (where a change without a position of its own is reported).
    static func check(
        versions unsorted: [VersionInput], migrations: [MigrationDecl], firstPath: String?, current: CheckedSchema?
    ) -> (MigrationHistory?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        // A step is declared in the current model only: a frozen version is a schema.
        for version in unsorted {
            for declaration in version.migrations {
                diagnostics.append(.error(
                    .syntax,
                    "a 'migration' declaration belongs in the current model (a .model file), not in a frozen version: "
                        + "steps are declared where the model is edited", at: declaration.keywordRange))
            }
        }
        let versions = unsorted.sorted { $0.version < $1.version }
        let known = versions.map(\.version)
        let newest = known.last

        // The steps between frozen versions, and the step to the current model.
        var steps: [MigrationHistory.Step] = []
        var complete = current != nil
        for (older, newer) in zip(versions, versions.dropFirst()) {
            guard let old = older.schema, let new = newer.schema else {
                complete = false
                continue
            }
            steps.append(MigrationHistory.Step(
                from: older.version, to: newer.version, changes: SchemaDiff.changes(from: old, to: new), customDeclaration: nil))
        }
        var unfrozen: MigrationHistory.Step?
        if let newest = versions.last {
            if let old = newest.schema, let current {
                if SchemaDiff.storageSignature(of: old) != SchemaDiff.storageSignature(of: current) {
                    unfrozen = MigrationHistory.Step(
                        from: newest.version, to: nil, changes: SchemaDiff.changes(from: old, to: current), customDeclaration: nil)
                }
            } else {
                complete = false
            }
        }

        // The declarations: each names a step of the history, once.
        var pendingTarget: (version: SchemaVersion, range: SourceRange)?
        var declared: [SchemaVersion: SourceRange] = [:]
        for declaration in migrations {
            guard let from = SchemaVersion(declaration.from.text), let to = SchemaVersion(declaration.to.text) else { continue }
            let frozen = known.isEmpty ? "the model has no frozen version yet" : "frozen versions: " + known.map(\.description).joined(separator: ", ")
            guard known.contains(from) else {
                diagnostics.append(.error(
                    .unknownType, "the migration names version \(from), which no .modelversion input holds (\(frozen))",
                    at: declaration.from.range))
                continue
            }
            guard to > from else {
                diagnostics.append(.error(
                    .unknownType, "the migration goes from \(from) back to \(to): a step goes from a version to a later one",
                    at: declaration.to.range))
                continue
            }
            guard known.contains(to) else {
                if from == newest {
                    // The step to the current model, declared before the model is frozen as `to`.
                    pendingTarget = (to, declaration.to.range)
                    if unfrozen?.needsCode != true {
                        diagnostics.append(.error(
                            .unknownType,
                            "the migration goes to version \(to), which is not frozen yet: freeze the model as \(to) "
                                + "('modelgen freeze --version \(to)'); a custom stage runs between frozen versions only",
                            at: declaration.to.range))
                    }
                } else {
                    diagnostics.append(.error(
                        .unknownType, "the migration names version \(to), which no .modelversion input holds (\(frozen))",
                        at: declaration.to.range))
                }
                continue
            }
            guard let next = known.first(where: { $0 > from }), next == to else {
                let next = known.first { $0 > from }.map(\.description) ?? "?"
                diagnostics.append(.error(
                    .unknownType,
                    "versions \(from) and \(to) are not consecutive: the step from \(from) goes to \(next) (declare each step of the way)",
                    at: declaration.to.range))
                continue
            }
            if let first = declared[from] {
                diagnostics.append(.error(
                    .duplicateDeclaration, "the step \(from) → \(to) is declared custom twice", at: declaration.keywordRange,
                    notes: [DiagnosticNote("first declared here", at: first)]))
                continue
            }
            declared[from] = declaration.keywordRange
            if let index = steps.firstIndex(where: { $0.from == from && $0.to == to }) {
                steps[index].customDeclaration = declaration.range
            }
        }

        // Each step's changes: inferred, or declared custom; never impossible.
        for step in steps {
            guard let to = step.to else { continue }
            for change in step.changes {
                switch change.classification {
                case .inferred:
                    continue
                case .impossible:
                    diagnostics.append(.error(
                        .migrationNotInferable, "the step \(step.from) → \(to) cannot be migrated: \(change.description)",
                        at: range(of: change, in: versions.first { $0.version == to })))
                case .needsCode where !step.isCustom:
                    diagnostics.append(.error(
                        .migrationNotInferable,
                        "the step \(step.from) → \(to) cannot be inferred: \(change.description); declare it custom in the model "
                            + "(migration \"\(step.from)\" -> \"\(to)\" { custom }) and write its code",
                        at: range(of: change, in: versions.first { $0.version == to })))
                case .needsCode:
                    continue
                }
            }
        }
        if let unfrozen {
            let fallback = firstPath.map { SourceRange(file: $0, start: .init(line: 1, column: 1, offset: 0), end: .init(line: 1, column: 1, offset: 0)) }
            for change in unfrozen.changes where change.classification != .inferred {
                let message: String
                if change.classification == .impossible {
                    message = "the model cannot follow version \(unfrozen.from): \(change.description)"
                } else if let pendingTarget {
                    message = "the model cannot follow version \(unfrozen.from) without code: \(change.description); "
                        + "freeze it as \(pendingTarget.version) ('modelgen freeze --version \(pendingTarget.version)'), "
                        + "the version its migration declaration goes to: a custom stage runs between frozen versions only"
                } else {
                    message = "the model cannot follow version \(unfrozen.from) without code: \(change.description); "
                        + "freeze it as a new version ('modelgen freeze --version V') and declare that step custom "
                        + "(migration \"\(unfrozen.from)\" -> \"V\" { custom })"
                }
                if let range = change.range ?? fallback {
                    diagnostics.append(.error(.migrationNotInferable, message, at: range))
                }
            }
        }

        guard complete, let current, !versions.isEmpty else { return (nil, diagnostics) }
        let planNames = current.containers.isEmpty ? ["MigrationPlan"] : current.containers.map { $0.name + "MigrationPlan" }
        let history = MigrationHistory(
            versions: versions.compactMap { version in
                version.schema.map { MigrationHistory.Version(version: version.version, path: version.source.path, schema: $0) }
            },
            steps: steps, unfrozenStep: unfrozen, planNames: planNames)
        return (history, diagnostics)
    }

    /// Where to report a change: its declaration in the newer version, else that file's first line.
    private static func range(of change: SchemaChange, in version: VersionInput?) -> SourceRange {
        if let range = change.range { return range }
        let path = version?.source.path ?? ""
        let start = SourceLocation(line: 1, column: 1, offset: 0)
        return SourceRange(file: path, start: start, end: start)
    }
}
