// `migration "1.0.0" -> "2.0.0" { custom }`: the one declaration about the model's history.
extension Parser {
    /// A `migration` declaration, the current token being the word `migration` (followed by a string).
    func parseMigration(doc: DocComment?) throws -> MigrationDecl {
        let keyword = advance()
        let from = try parseVersionLiteral(after: "'migration'")
        guard current.isPunctuation("->") else {
            throw fail(expected: "'->' and the version the step goes to (migration \"\(from.text)\" -> \"2.0.0\" { custom })")
        }
        advance()
        let to = try parseVersionLiteral(after: "'->'")
        guard current.isPunctuation("{") else {
            throw fail(expected: "'{ custom }' after the versions of the migration")
        }
        advance()
        skipSeparators()
        guard current.kind == .identifier, !current.isEscaped, current.text == "custom" else {
            throw fail(expected: "'custom' in the braces of the migration (a declared step is custom: its code is written in Swift)")
        }
        let kindToken = advance()
        skipSeparators()
        guard current.isPunctuation("}") else { throw fail(expected: "'}' after 'custom'") }
        advance()
        return MigrationDecl(
            doc: doc, from: from, to: to, kind: Identifier(kindToken.text, range: kindToken.range),
            keywordRange: keyword.range, range: range(from: keyword.range.start))
    }

    /// A string literal holding a version (`"1.0.0"`, `"2"`), or a `syntax` error.
    private func parseVersionLiteral(after what: String) throws -> MigrationDecl.VersionLiteral {
        guard current.kind == .stringLiteral else {
            throw fail(expected: "a version string (\"1.0.0\") after \(what)")
        }
        let token = advance()
        guard SchemaVersion(token.text) != nil else {
            collector.error("expected a version MAJOR[.MINOR[.PATCH]] (\"1.0.0\") but found \(SwiftLiteral.string(token.text))", at: token.range)
            throw Failure()
        }
        return MigrationDecl.VersionLiteral(text: token.text, range: token.range)
    }
}
