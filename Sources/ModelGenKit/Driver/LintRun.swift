/// What checking a set of sources found.
public struct LintResult: Sendable {
    /// The sources in input order.
    public var sources: [SourceFile]
    /// The parsed files, in input order.
    public var files: [ModelFile]
    /// The checked schema; `nil` when any error was found.
    public var schema: CheckedSchema?
    /// Every diagnostic, sorted by file (input order), then position.
    public var diagnostics: [Diagnostic]

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }

    /// True when the run should exit with status 1.
    public func fails(warningsAsErrors: Bool) -> Bool {
        errorCount > 0 || (warningsAsErrors && warningCount > 0)
    }
}

/// Parses and checks sources together: the shared front half of `lint` and `generate`.
///
/// Semantic checking runs on whatever parsed, also when some files have `syntax` errors, so one run
/// reports every error; diagnostics that a syntax error may have caused are dropped by
/// `SyntaxCascadeFilter`. A run with any error has no schema.
public enum LintRun {
    /// Parses every source, then checks them together.
    public static func run(_ sources: [SourceFile]) -> LintResult {
        var files: [ModelFile] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            let parsed = Parser.parse(source)
            files.append(parsed.file)
            diagnostics += parsed.diagnostics
        }
        let syntaxErrors = diagnostics
        let checked = SchemaChecker.check(files)
        diagnostics += SyntaxCascadeFilter.filter(checked.diagnostics, files: files, syntaxErrors: syntaxErrors)
        let schema = diagnostics.contains { $0.severity == .error } ? nil : checked.schema
        return LintResult(sources: sources, files: files, schema: schema,
                          diagnostics: sortDiagnostics(diagnostics, fileOrder: sources.map(\.path)))
    }

    /// Sorts by file (in `fileOrder`; unknown files last, by name), then start position; ties keep their order.
    public static func sortDiagnostics(_ diagnostics: [Diagnostic], fileOrder: [String]) -> [Diagnostic] {
        var rank: [String: Int] = [:]
        for (index, path) in fileOrder.enumerated() where rank[path] == nil { rank[path] = index }
        return diagnostics.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.range, rhs.element.range)
            let (rankA, rankB) = (rank[a.file] ?? Int.max, rank[b.file] ?? Int.max)
            if rankA != rankB { return rankA < rankB }
            if a.file != b.file { return a.file < b.file }
            if a.start.offset != b.start.offset { return a.start.offset < b.start.offset }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
