import Foundation

/// What `ModelGen.freeze` did.
public struct FreezeResult: Sendable {
    /// What became of the version file.
    public enum Outcome: Hashable, Sendable {
        /// The version file was written.
        case written
        /// The version was frozen already with this very text: nothing was written.
        case unchanged
        /// Nothing was written: the model has errors (see `diagnostics`).
        case modelErrors
        /// Nothing was written: the version exists with another text, or a newer version exists
        /// (a frozen version is never rewritten; versions only grow). The message says which.
        case refused(String)
    }

    /// The files read, in input order.
    public var sources: [SourceFile]
    /// The diagnostics of the current model (its `.model` files): errors stop the freeze. Problems
    /// of the history (`migration-not-inferable`…) do not: freezing is how a step becomes declarable.
    public var diagnostics: [Diagnostic]
    /// The version file (`DIR/V.modelversion`), or the existing file of the same version.
    public var url: URL
    public var outcome: Outcome
    /// The canonical text of the current model, as frozen (empty when the model has errors).
    public var text: String

    /// Whether `modelgen freeze` exits with status 1 (model errors, or a refused version).
    public var failed: Bool {
        switch outcome {
        case .written, .unchanged: false
        case .modelErrors, .refused: true
        }
    }
}

/// `modelgen freeze`: writes the current model's checked schema, in canonical `.model` text, as a
/// frozen version (docs/Migrations.md).
enum Freezer {
    /// Freezes the `.model` files of `input` as `version` into `directory` (named `spelling` + `.modelversion`).
    static func freeze(
        _ input: GeneratorInput, version: SchemaVersion, spelling: String, directory: URL, pipeline: GeneratorPipeline
    ) throws(GeneratorError) -> FreezeResult {
        let sources = try pipeline.load(input)
        let parsed = pipeline.parse(sources, keepingComments: true)
        let modelTrees = zip(sources, parsed.trees).filter { !$0.0.isVersionFile }.map(\.1)
        let current = pipeline.checkSchema(of: modelTrees, syntaxErrors: parsed.diagnostics)
        let url = directory.appendingPathComponent(spelling + "." + SchemaVersion.fileExtension)
        var result = FreezeResult(
            sources: sources.map(\.file), diagnostics: current.diagnostics.sorted(byFileOrder: sources.map(\.path)),
            url: url, outcome: .modelErrors, text: "")
        guard current.schema != nil else { return result }
        result.text = canonicalText(of: modelTrees, version: version)

        // The versions frozen already: the folder's, and those among the inputs.
        var frozen: [(version: SchemaVersion, url: URL)] = versionFiles(in: directory)
        for source in sources where source.isVersionFile {
            if let number = source.version { frozen.append((number, URL(fileURLWithPath: source.path))) }
        }
        if let same = frozen.first(where: { $0.version == version }) {
            result.url = same.url
            let existing = FileManager.default.contents(atPath: same.url.path).map { String(decoding: $0, as: UTF8.self) }
            if let existing, body(of: existing) == body(of: result.text) {
                result.outcome = .unchanged
            } else {
                result.outcome = .refused(
                    "version \(version) is frozen already in '\(same.url.relativePath)', and the model differs from it: a frozen version "
                        + "is never rewritten (stores were written with it); freeze the model as a new version")
            }
            return result
        }
        if let newest = frozen.max(by: { $0.version < $1.version }), newest.version > version {
            result.outcome = .refused(
                "version \(newest.version) is frozen already ('\(newest.url.relativePath)'): versions only grow; "
                    + "freeze the model as a version after \(newest.version)")
            return result
        }
        do {
            try OutputWriter.write([PlannedOutput(url: url, contents: result.text)])
        } catch {
            throw GeneratorError(.writing, error.description)
        }
        result.outcome = .written
        return result
    }

    /// A frozen text without its header (the `//` lines it starts with, which name the model's files).
    private static func body(of text: String) -> Substring {
        var rest = Substring(text)
        while rest.hasPrefix("//"), !rest.hasPrefix("///") {
            rest = rest.drop { $0 != "\n" }.dropFirst()
        }
        return rest
    }

    /// The `.modelversion` files directly in `directory` that are named by a version.
    private static func versionFiles(in directory: URL) -> [(version: SchemaVersion, url: URL)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            SchemaVersion.ofVersionFile(name).map { ($0, directory.appendingPathComponent(name)) }
        }
    }

    /// The model as one canonical `.model` text: a header, then each file's declarations in the
    /// formatter's layout, with their doc comments (carried into the generated classes) and without
    /// other comments and `migration` declarations (the history is declared in the model, not in a version).
    static func canonicalText(of trees: [ModelFile], version: SchemaVersion) -> String {
        let names = trees.map { $0.source.path.split(separator: "/").last.map(String.init) ?? $0.source.path }
        var text = """
            // Version \(version) of the model, frozen by 'modelgen freeze' from \(names.joined(separator: ", ")).
            // Do not edit: stores were written with this schema. Edit the model, then freeze a new version.

            """
        for tree in trees {
            var dropped: [Range<Int>] = []
            // Steps and model actors are not part of the schema a version records.
            for declaration in tree.declarations {
                let doc: DocComment?
                switch declaration {
                case .migration(let migration): doc = migration.doc
                case .modelActor(let actor): doc = actor.doc
                default: continue
                }
                dropped.append(declaration.range.start.offset..<declaration.range.end.offset)
                if let doc { dropped.append(doc.range.start.offset..<doc.range.end.offset) }
            }
            let declarations = tree.declarations.filter {
                switch $0 {
                case .migration, .modelActor: false
                default: true
                }
            }
            let comments = tree.comments.filter { comment in
                comment.kind == .doc && !dropped.contains { $0.contains(comment.range.start.offset) }
            }
            let formatted = ModelFormatter.format(ModelFile(source: tree.source, declarations: declarations, comments: comments))
            if !formatted.isEmpty { text += "\n" + formatted }
        }
        return text
    }
}
