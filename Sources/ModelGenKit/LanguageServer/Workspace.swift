import Foundation

// The files the language server knows, grouped into schemas as the build plugin groups them
// (docs/Editors.md, "Which files form one schema"):
//
// 1. the nearest folder above a file (up to the workspace folder) that holds a `modelgen.json`:
//    every `.model` and `.modelversion` file below it, with that configuration;
// 2. else the nearest SwiftPM target folder above it (a folder directly inside `Sources` or
//    `Tests`): every model file below it, as `ModelGenPlugin` takes a target's files;
// 3. else the file alone, with the `.modelversion` files of a `ModelVersions` folder beside it.
//
// Each schema is checked as `modelgen lint` checks its files (`GeneratorPipeline.check`); a file
// is parsed again only when its text changed (docs/Editors.md, "Speed").

/// One file's parse, kept while its text does not change.
struct ParsedDocument {
    var revision: Int
    var tree: ModelFile
    var diagnostics: [Diagnostic]
}

/// The files of one schema and what was last found in them.
final class SchemaGroup {
    /// The folder (rules 1 and 2) or the file (rule 3) the group is named by.
    let root: String
    /// The files, sorted by path below the root (as a folder input is read).
    var paths: [String]
    /// `root/modelgen.json`, when the group has one.
    let configurationPath: String?
    var configuration = GeneratorConfiguration()
    /// Why the configuration could not be read (shown as a diagnostic on it).
    var configurationError: String?

    var parsed: [String: ParsedDocument] = [:]
    /// Diagnostics by path (every path of the group has an entry after `analyze`).
    var diagnostics: [String: [Diagnostic]] = [:]
    /// The syntax trees of the last analysis, in order.
    var trees: [ModelFile] = [] {
        didSet { cachedIndex = nil }
    }
    private var cachedIndex: SchemaIndex?

    /// The names of the schema, indexed when a request first needs them after a change (an edit
    /// only needs diagnostics: indexing every time took a third of an edit's time at 1,000
    /// entities, docs/Editors.md "Speed").
    var index: SchemaIndex {
        if let cachedIndex { return cachedIndex }
        let index = SchemaIndex(files: trees)
        cachedIndex = index
        return index
    }

    init(root: String, paths: [String], configurationPath: String?) {
        self.root = root
        self.paths = paths
        self.configurationPath = configurationPath
    }

    /// The path of a file below the root (its name for a group of one file).
    func relativePath(_ path: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
    }
}

/// Every document the server holds and every schema group.
final class Workspace {
    /// The workspace folders (absolute paths), from `initialize`.
    var roots: [String] = []
    /// Text of every known file: the editor's for an open one, else what was read from disk.
    private(set) var documents: [String: TextDocument] = [:]
    /// A counter per path, raised on every change of its text.
    private(set) var revisions: [String: Int] = [:]
    private(set) var open: Set<String> = []
    private(set) var groups: [String: SchemaGroup] = [:]
    /// The group of each file.
    private var groupOfPath: [String: String] = [:]
    private var nextRevision = 1
    /// Discovery stops after this many files (a workspace folder that is a whole disk).
    static let maximumFiles = 20_000
    /// Discovery looks into at most this many folders below a workspace folder.
    static let maximumFolders = 20_000

    static func isModelFile(_ path: String) -> Bool {
        path.hasSuffix(".model") || path.hasSuffix(".modelversion")
    }

    // MARK: Documents

    func document(_ path: String) -> TextDocument? {
        if let document = documents[path] { return document }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let document = TextDocument(bytes: Array(data))
        setDocument(path, document)
        return document
    }

    private func setDocument(_ path: String, _ document: TextDocument) {
        documents[path] = document
        revisions[path] = nextRevision
        nextRevision += 1
    }

    func openDocument(_ path: String, text: String) {
        open.insert(path)
        setDocument(path, TextDocument(text: text))
    }

    func changeDocument(_ path: String, _ change: (inout TextDocument) -> Void) {
        var document = documents[path] ?? TextDocument(bytes: [])
        change(&document)
        setDocument(path, document)
    }

    /// Closes a document: its text is the file's on disk again (or it is forgotten when gone).
    func closeDocument(_ path: String) {
        open.remove(path)
        documents[path] = nil
        if let data = FileManager.default.contents(atPath: path) {
            setDocument(path, TextDocument(bytes: Array(data)))
        } else {
            revisions[path] = nil
        }
    }

    /// Forgets the disk text of every file that is not open (after the editor reports changes on disk).
    func reloadClosedDocuments() {
        for path in documents.keys where !open.contains(path) {
            documents[path] = nil
            revisions[path] = nil
        }
    }

    // MARK: Groups

    func group(of path: String) -> SchemaGroup? {
        groupOfPath[path].flatMap { groups[$0] }
    }

    /// Finds every model file of the workspace folders (and of the open documents' schemas) and
    /// groups them again. Returns every group.
    @discardableResult
    func discover() -> [SchemaGroup] {
        groups = [:]
        groupOfPath = [:]
        var found: [String] = []
        for root in roots { found += Self.modelFiles(below: root, limit: Self.maximumFiles - found.count) }
        for path in open.sorted() where !found.contains(path) { found.append(path) }
        for path in found { _ = ensureGroup(for: path) }
        return groups.keys.sorted().compactMap { groups[$0] }
    }

    /// The group of `path`, made (with its files found on disk) when the file is new.
    func ensureGroup(for path: String) -> SchemaGroup {
        if let group = group(of: path), group.paths.contains(path) { return group }
        let (root, recursive) = schemaRoot(of: path)
        if let group = groups[root] {
            if !group.paths.contains(path) {
                group.paths.append(path)
                group.paths.sort { group.relativePath($0).utf8.lexicographicallyPrecedes(group.relativePath($1).utf8) }
            }
            groupOfPath[path] = root
            return group
        }
        var paths: [String]
        if recursive {
            paths = Self.modelFiles(below: root, limit: Self.maximumFiles).filter { schemaRoot(of: $0).root == root }
        } else {
            paths = [path]
            let folder = (path as NSString).deletingLastPathComponent
            if path.hasSuffix(".model") {
                paths += Self.modelFiles(below: folder + "/ModelVersions", limit: 1_000).filter { $0.hasSuffix(".modelversion") }
            }
        }
        if !paths.contains(path) { paths.append(path) }
        for open in open where !paths.contains(open) && schemaRoot(of: open).root == root { paths.append(open) }
        let configuration = recursive ? root + "/" + GeneratorConfiguration.fileName : nil
        let group = SchemaGroup(
            root: root, paths: paths,
            configurationPath: configuration.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil })
        group.paths.sort { group.relativePath($0).utf8.lexicographicallyPrecedes(group.relativePath($1).utf8) }
        groups[root] = group
        for member in group.paths { groupOfPath[member] = root }
        return group
    }

    /// Where the schema of a file is rooted (the rules at the top of this file).
    func schemaRoot(of path: String) -> (root: String, recursive: Bool) {
        var folder = (path as NSString).deletingLastPathComponent
        let stops = Set(roots)
        var steps = 0
        while !folder.isEmpty, steps < 64 {
            steps += 1
            if FileManager.default.fileExists(atPath: folder + "/" + GeneratorConfiguration.fileName) { return (folder, true) }
            let parent = (folder as NSString).deletingLastPathComponent
            let parentName = (parent as NSString).lastPathComponent
            if parentName == "Sources" || parentName == "Tests" { return (folder, true) }
            if stops.contains(folder) || parent == folder || folder == "/" { break }
            folder = parent
        }
        return (path, false)
    }

    /// The `.model` and `.modelversion` files below a folder, sorted; hidden folders, `.build`
    /// and `node_modules` are skipped, and the search stops after `maximumFolders` folders (a
    /// workspace folder that is a home folder or `/` must not hold the server up).
    static func modelFiles(below folder: String, limit: Int, recursive: Bool = true) -> [String] {
        guard limit > 0 else { return [] }
        var found: [String] = []
        var pending = [folder]
        var visited = 0
        let manager = FileManager.default
        while let current = pending.popLast(), found.count < limit, visited < maximumFolders {
            visited += 1
            guard let names = try? manager.contentsOfDirectory(atPath: current) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") && name != "node_modules" {
                let path = current + "/" + name
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    let attributes = try? manager.attributesOfItem(atPath: path)
                    if recursive, attributes?[.type] as? FileAttributeType != .typeSymbolicLink { pending.append(path) }
                } else if isModelFile(name) {
                    found.append(path)
                    if found.count >= limit { break }
                }
            }
        }
        return found.sorted()
    }

    // MARK: Analysis

    /// Parses the files of `group` whose text changed, checks the schema, and indexes its names.
    func analyze(_ group: SchemaGroup) {
        loadConfiguration(group)
        var sources: [ModelSource] = []
        for path in group.paths {
            guard let document = document(path) else { continue }
            sources.append(ModelSource(SourceFile(path: path, bytes: document.bytes), relativePath: group.relativePath(path)))
        }
        var trees: [ModelFile] = []
        var syntaxErrors: [Diagnostic] = []
        var parsed: [String: ParsedDocument] = [:]
        for source in sources {
            let revision = revisions[source.path] ?? 0
            let entry: ParsedDocument
            if let cached = group.parsed[source.path], cached.revision == revision {
                entry = cached
            } else {
                let result = Parser.parse(source.file)
                entry = ParsedDocument(revision: revision, tree: result.file, diagnostics: result.diagnostics)
            }
            parsed[source.path] = entry
            trees.append(entry.tree)
            syntaxErrors += entry.diagnostics
        }
        group.parsed = parsed
        var options = GeneratorOptions(output: .lint)
        options.warningsAsErrors = group.configuration.warningsAsErrors ?? false
        let pipeline = GeneratorPipeline(options: options)
        var found: [Diagnostic]
        do {
            try VersionFiles.check(sources)
            found = pipeline.check(ParsedModels(sources: sources, trees: trees, diagnostics: syntaxErrors)).diagnostics
        } catch {
            // Badly named versions stop `modelgen` before it parses: report it on the version file.
            let path = sources.first { $0.isVersionFile && error.message.contains("'\($0.path)'") }?.path ?? sources.first?.path ?? group.root
            let start = SourceLocation(line: 1, column: 1, offset: 0)
            found = syntaxErrors + [Diagnostic.error(.syntax, error.message, at: SourceRange(file: path, start: start, end: start))]
        }
        var byPath: [String: [Diagnostic]] = [:]
        for path in group.paths { byPath[path] = [] }
        for diagnostic in found { byPath[diagnostic.range.file, default: []].append(diagnostic) }
        group.diagnostics = byPath
        group.trees = trees
    }

    private func loadConfiguration(_ group: SchemaGroup) {
        guard let path = group.configurationPath else { return }
        do {
            group.configuration = try GeneratorConfiguration.load(from: URL(fileURLWithPath: path))
            group.configurationError = nil
        } catch {
            group.configuration = GeneratorConfiguration()
            group.configurationError = error.message
        }
    }
}
