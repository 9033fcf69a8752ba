import Foundation

/// One `.model` or `.modelversion` file `modelgen import` produced.
public struct ImportedModelFile: Hashable, Sendable {
    /// `DIR/Stem.model` or `DIR/ModelVersions/V.modelversion`, DIR as given.
    public var path: String
    public var text: String
}

/// What `ModelGen.import` produced.
public struct ImportResult: Sendable {
    /// What became of the files.
    public enum Outcome: Hashable, Sendable {
        /// Written (at least one was missing or different).
        case written
        /// Every file exists already with this very text.
        case unchanged
        /// Kept in memory only (`write: false`).
        case inMemory
        /// Nothing was produced: a Swift source cannot be read (see `messages`).
        case readErrors
        /// Nothing was written: a file exists with other content (and `force` was not given).
        case refused(String)
    }

    /// The Swift sources read, in input order.
    public var sources: [SourceFile]
    /// Errors about the Swift sources and notes about what was not imported, by file then line.
    public var messages: [ImportMessage]
    /// The model files, the current model's first, then the frozen versions oldest first.
    public var files: [ImportedModelFile]
    /// `modelgen lint` of the files: errors mean the import needs hand work.
    public var diagnostics: [Diagnostic]
    public var outcome: Outcome

    /// The files as lint read them (to render `diagnostics`).
    public var modelSources: [SourceFile] { files.map { SourceFile(path: $0.path, text: $0.text) } }

    /// Whether `modelgen import` exits with status 1.
    public var failed: Bool {
        switch outcome {
        case .readErrors, .refused: return true
        case .written, .unchanged, .inMemory: return diagnostics.contains { $0.severity == .error }
        }
    }
}

/// `modelgen import`: Swift sources holding SwiftData models → a `.model` file (and the frozen
/// versions of a `VersionedSchema` history). docs/CommandLine.md "modelgen import".
enum Importer {
    static let versionFolder = "ModelVersions"
    /// Conformances every generated model has already.
    private static let modelConformances: Set<String> = ["PersistentModel", "Identifiable", "Observable", "Hashable", "Equatable", "Sendable"]

    private struct FileScope {
        var source: SourceFile
        var stem: String
        var scope: ImportedScope
    }

    /// One version of a `VersionedSchema` history.
    private struct Version {
        var enumName: String
        var file: Int
        var numbers: [Int]
        var spelling: String { numbers.map(String.init).joined(separator: ".") }
        var entities: [ImportedEntity]
        var enums: [ImportedEnum]
        var structs: [ImportedStruct]
        var modelNames: [String]
    }

    static func run(_ sources: [SourceFile], directory: String, write: Bool, force: Bool) throws(GeneratorError) -> ImportResult {
        var result = ImportResult(sources: sources, messages: [], files: [], diagnostics: [], outcome: .readErrors)
        var files: [FileScope] = []
        for source in sources {
            do {
                let read = try SwiftDeclarationReader.read(path: source.path, bytes: source.bytes)
                var stem = source.path.split(separator: "/").last.map(String.init) ?? source.path
                if stem.hasSuffix(".swift") { stem.removeLast(6) }
                files.append(FileScope(source: source, stem: stem, scope: read.scope))
                result.messages += read.notes
            } catch {
                result.messages.append(ImportMessage(path: source.path, line: error.line, column: error.column, severity: .error, message: error.message))
            }
        }
        guard !result.messages.contains(where: { $0.severity == .error }) else {
            result.messages = sorted(result.messages, sources)
            return result
        }
        var builder = Builder(files: files)
        let produced = builder.build()
        result.messages = sorted(result.messages + builder.messages, sources)
        guard let produced, !builder.messages.contains(where: { $0.severity == .error }) else { return result }

        // The texts: formatted as `modelgen format` would, versions as `modelgen freeze` writes them.
        let folder = directory.isEmpty || directory == "." ? "" : (directory.hasSuffix("/") ? directory : directory + "/")
        for (stem, text) in produced.models {
            let path = folder + stem + ".model"
            result.files.append(ImportedModelFile(path: path, text: ModelFormatter.format(SourceFile(path: path, text: text)).text ?? text))
        }
        for (stem, version, text) in produced.versions {
            let path = folder + versionFolder + "/" + version.description + "." + SchemaVersion.fileExtension
            let parsed = Parser.parse(SourceFile(path: stem + ".model", text: text))
            let canonical = parsed.diagnostics.isEmpty
                ? Freezer.canonicalText(of: [parsed.file], version: version)
                : "// Version \(version) of the model, imported by 'modelgen import' (it does not parse: fix it by hand).\n\n" + text
            result.files.append(ImportedModelFile(path: path, text: canonical))
        }

        var options = GeneratorOptions()
        options.output = .lint
        let lint = try ModelGen.run(
            .sources(result.files.map { ModelSource(SourceFile(path: $0.path, text: $0.text), relativePath: String($0.path.dropFirst(folder.count))) }),
            options: options)
        result.diagnostics = lint.diagnostics

        guard write else {
            result.outcome = .inMemory
            return result
        }
        let planned = result.files.map { PlannedOutput(url: URL(fileURLWithPath: $0.path), contents: $0.text) }
        let stale = planned.filter { OutputWriter.state(of: $0.url, comparedWith: $0.contents) == .stale }
        if !stale.isEmpty, !force {
            result.outcome = .refused(
                "\(stale.map { "'\($0.url.relativePath)'" }.joined(separator: ", ")) exist\(stale.count == 1 ? "s" : "") with other content: "
                    + "nothing written (give --force to replace)")
            return result
        }
        do {
            let written = try OutputWriter.write(planned)
            result.outcome = written.isEmpty ? .unchanged : .written
        } catch {
            throw GeneratorError(.writing, error.description)
        }
        return result
    }

    private static func sorted(_ messages: [ImportMessage], _ sources: [SourceFile]) -> [ImportMessage] {
        let order = Dictionary(sources.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        return messages.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element, rhs.element)
            if order[left.path] != order[right.path] { return (order[left.path] ?? 0) < (order[right.path] ?? 0) }
            if left.line != right.line { return left.line < right.line }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    // MARK: - From declarations to model text

    private struct Produced {
        var models: [(stem: String, text: String)]
        var versions: [(stem: String, version: SchemaVersion, text: String)]
    }

    private struct Builder {
        var files: [FileScope]
        var messages: [ImportMessage] = []
        var aliases: [String: String] = [:]
        var versions: [Version] = []

        init(files: [FileScope]) { self.files = files }

        mutating func error(_ file: Int, _ line: Int, _ message: String) {
            messages.append(ImportMessage(path: files[file].source.path, line: line, column: 1, severity: .error, message: message))
        }

        mutating func note(_ file: Int, _ line: Int, _ message: String) {
            messages.append(ImportMessage(path: files[file].source.path, line: line, column: 1, severity: .note, message: message))
        }

        /// A name through the typealiases (`Trip` → `SchemaLatest.Trip` → `SchemaV3.Trip`).
        func resolve(_ name: String) -> String {
            var parts = name.split(separator: ".").map(String.init)
            var seen = 0
            while let first = parts.first, let target = aliases[first], seen < 32 {
                parts = target.split(separator: ".").map(String.init) + parts.dropFirst()
                seen += 1
            }
            return parts.joined(separator: ".")
        }

        /// A type as the generated model names it: version prefixes dropped, typealiases resolved.
        func modelType(_ type: String) -> String {
            var output = ""
            var word = ""
            func flush() {
                guard !word.isEmpty else { return }
                var parts = resolve(word).split(separator: ".").map(String.init)
                if parts.count > 1, versions.contains(where: { $0.enumName == parts[0] }) { parts.removeFirst() }
                output += parts.joined(separator: ".")
                word = ""
            }
            var inString = false
            var escaped = false
            for character in type {
                if inString || character == "\"" {
                    flush()
                    output.append(character)
                    if character == "\"", !escaped { inString.toggle() }
                    escaped = character == "\\" && !escaped
                    continue
                }
                if character.isLetter || character.isNumber || character == "_" || character == "." || character == "`" {
                    word.append(character)
                } else {
                    flush()
                    output.append(character)
                }
            }
            flush()
            return output
        }

        mutating func build() -> Produced? {
            // Typealiases and versions first: they name what the models refer to.
            var fileVersions: [(file: Int, scope: NamedScope)] = []
            var plans: [(file: Int, scope: NamedScope)] = []
            var extensions: [(file: Int, scope: NamedScope)] = []
            for (index, file) in files.enumerated() {
                messages += file.scope.skipped
                for (name, target, _) in file.scope.typealiases { aliases[name] = target }
                for named in file.scope.scopes {
                    switch named.kind {
                    case .versionedSchema: fileVersions.append((index, named))
                    case .migrationPlan: plans.append((index, named))
                    case .extension: extensions.append((index, named))
                    }
                    for (name, target, _) in named.scope.typealiases where named.kind != .versionedSchema { aliases[name] = target }
                }
            }
            let versionNames = Set(fileVersions.map(\.scope.name))
            for (index, file) in files.enumerated() {
                for (name, target, line) in file.scope.typealiases {
                    let parts = resolve(target).split(separator: ".").map(String.init)
                    guard let first = parts.first, versionNames.contains(first) else {
                        note(index, line, "typealias '\(name)' is not part of the model: keep it in Swift")
                        continue
                    }
                    if parts.count == 1 {
                        note(index, line, "typealias '\(name)' = '\(target)' is resolved; the versions are generated as 'SchemaV<MAJOR>_<MINOR>_<PATCH>': point it at the generated one")
                    } else {
                        note(index, line, "typealias '\(name)' = '\(target)' is resolved: the generated code declares '\(parts.last ?? name)' itself; remove the typealias")
                    }
                }
            }
            var entityNames = Set(files.flatMap { $0.scope.entities.map(\.name) })
            for (_, named) in fileVersions { entityNames.formUnion(named.scope.entities.map(\.name)) }

            // Extensions: of a version (its models), of a model (its nested types), or Swift that stays.
            var versionExtras: [String: ImportedScope] = [:]
            var entityExtras: [String: (enums: [ImportedEnum], structs: [ImportedStruct])] = [:]
            for (file, named) in extensions {
                let target = resolve(named.name)
                if versionNames.contains(target) {
                    var extra = versionExtras[target] ?? ImportedScope()
                    extra.entities += named.scope.entities
                    extra.enums += named.scope.enums
                    extra.structs += named.scope.structs
                    versionExtras[target] = extra
                    messages += named.scope.skipped
                    entityNames.formUnion(named.scope.entities.map(\.name))
                    continue
                }
                let imported = named.scope.enums.count + named.scope.structs.count
                if imported > 0, entityNames.contains(target.split(separator: ".").last.map(String.init) ?? target) {
                    let owner = target.split(separator: ".").last.map(String.init) ?? target
                    var extra = entityExtras[owner] ?? ([], [])
                    extra.enums += named.scope.enums
                    extra.structs += named.scope.structs
                    entityExtras[owner] = extra
                }
                let rest = named.scope.skipped.count + named.scope.entities.count + named.scope.actors.count + named.scope.scopes.count
                if rest > 0 || imported == 0 {
                    note(file, named.line, "extension of '\(named.name)' is not part of the model"
                        + (imported > 0 ? " (the enums and structs in it are imported)" : "") + ": keep it in a Swift file beside the generated code")
                }
            }

            for (file, named) in fileVersions {
                guard let identifier = named.scope.versionIdentifier, (1...3).contains(identifier.numbers.count) else {
                    error(file, named.line, "VersionedSchema '\(named.name)' has no 'versionIdentifier = Schema.Version(MAJOR, MINOR, PATCH)' the importer can read")
                    continue
                }
                let extra = versionExtras[named.name] ?? ImportedScope()
                var numbers = identifier.numbers
                while numbers.count < 3 { numbers.append(0) }
                versions.append(Version(
                    enumName: named.name, file: file, numbers: numbers, entities: named.scope.entities + extra.entities,
                    enums: named.scope.enums + extra.enums, structs: named.scope.structs + extra.structs, modelNames: named.scope.models ?? []))
                messages += named.scope.skipped
                note(file, named.line, "VersionedSchema '\(named.name)' becomes the frozen version \(numbers.map(String.init).joined(separator: ".")) "
                    + "(\(versionFolder)/\(numbers.map(String.init).joined(separator: ".")).modelversion); the generated code declares it as 'SchemaV\(numbers.map(String.init).joined(separator: "_"))': remove the Swift one")
            }
            versions.sort { $0.numbers.lexicographicallyPrecedes($1.numbers) }
            for pair in zip(versions, versions.dropFirst()) where pair.0.numbers == pair.1.numbers {
                error(pair.1.file, 1, "VersionedSchemas '\(pair.0.enumName)' and '\(pair.1.enumName)' have the same version \(pair.0.spelling)")
            }
            for (index, version) in versions.enumerated() {
                // Models listed from elsewhere: another version's (`SchemaV1.Trip.self`) or top-level ones.
                for listed in version.modelNames {
                    let parts = resolve(listed).split(separator: ".").map(String.init)
                    let name = parts.last ?? listed
                    if version.entities.contains(where: { $0.name == name }) { continue }
                    if parts.count == 2, let other = versions.first(where: { $0.enumName == parts[0] }), let entity = other.entities.first(where: { $0.name == name }) {
                        versions[index].entities.append(entity)
                    } else if let entity = files.lazy.flatMap(\.scope.entities).first(where: { $0.name == name }) {
                        versions[index].entities.append(entity)
                    } else {
                        error(version.file, 1, "model '\(listed)' of VersionedSchema '\(version.enumName)' is not declared in the files imported")
                    }
                }
            }
            let topLevelEntities = files.flatMap(\.scope.entities)
            if topLevelEntities.isEmpty, versions.isEmpty {
                if !files.isEmpty, !messages.contains(where: { $0.severity == .error }) {
                    error(0, 1, "no '@Model' class found in \(files.count == 1 ? "this file" : "these files")")
                }
                return nil
            }
            guard !messages.contains(where: { $0.severity == .error }) else { return nil }

            // Migrations and the container of a plan.
            var migrations: [String] = []
            var container: String?
            for (file, named) in plans {
                messages += named.scope.skipped.filter { !$0.message.hasPrefix("func ") }
                var stem = named.name
                if stem.hasSuffix("MigrationPlan") { stem.removeLast("MigrationPlan".count) }
                if !stem.isEmpty { container = stem }
                let generated = stem.isEmpty ? "MigrationPlan" : named.name
                for stage in named.scope.customStages {
                    let from = versions.first { $0.enumName == resolve(stage.from) }
                    let to = versions.first { $0.enumName == resolve(stage.to) }
                    guard let from, let to else {
                        error(file, stage.line, "stage '.custom(fromVersion: \(stage.from).self, toVersion: \(stage.to).self)' names a VersionedSchema that is not imported")
                        continue
                    }
                    migrations.append("migration \"\(from.spelling)\" -> \"\(to.spelling)\" { custom }")
                    let suffix = "V\(from.numbers.map(String.init).joined(separator: "_"))ToV\(to.numbers.map(String.init).joined(separator: "_"))"
                    note(file, stage.line, "the custom stage \(from.spelling) → \(to.spelling) becomes 'migration \"\(from.spelling)\" -> \"\(to.spelling)\" { custom }'; "
                        + "move its willMigrate and didMigrate code into 'extension \(generated) { static func willMigrate\(suffix)(_ context: ModelContext) throws { … }; "
                        + "static func didMigrate\(suffix)(_ context: ModelContext) throws { … } }'")
                }
                note(file, named.line, "migration plan '\(named.name)' is generated from the model's history as '\(generated)'"
                    + (stem.isEmpty ? "" : " (container '\(stem)')") + ": remove the Swift one")
            }

            var produced = Produced(models: [], versions: [])
            let topTypes = topLevelTypes()
            if !topLevelEntities.isEmpty {
                // The current model is the top-level models, each file to its own `.model`.
                var reached = reachable(from: topLevelEntities, entityExtras: entityExtras, candidates: topTypes)
                for (index, file) in files.enumerated() {
                    var writer = ModelTextWriter(builder: self)
                    let entities = file.scope.entities.map { withExtras($0, entityExtras) }
                    let enums = file.scope.enums.filter { reached.contains($0.name) }
                    let structs = file.scope.structs.filter { reached.contains($0.name) }
                    let isFirst = !files[..<index].contains { !$0.scope.entities.isEmpty || !$0.scope.actors.isEmpty }
                    let hasModels = !entities.isEmpty || !enums.isEmpty || !structs.isEmpty || !file.scope.actors.isEmpty
                    guard hasModels || (isFirst && (!migrations.isEmpty || container != nil)) else { continue }
                    writer.header(from: file.source.path)
                    writer.write(enums: enums, structs: structs, entities: entities, actors: file.scope.actors)
                    if isFirst {
                        if let container { writer.container(container, entities: topLevelEntities) }
                        writer.migrations(migrations)
                    }
                    for entity in entities { messages += writer.conformanceNotes(entity, file: file.source.path) }
                    produced.models.append((file.stem, writer.text))
                    reached.subtract(enums.map(\.name) + structs.map(\.name))
                }
                notUsed(topTypes, used: Set(topLevelEntities.isEmpty ? [] : reachable(from: topLevelEntities, entityExtras: entityExtras, candidates: topTypes)))
            } else if let newest = versions.last {
                // The current model is the newest version.
                var writer = ModelTextWriter(builder: self)
                let (entities, enums, structs) = contents(of: newest, topTypes: topTypes, entityExtras: entityExtras)
                writer.header(from: files[newest.file].source.path)
                writer.write(enums: enums, structs: structs, entities: entities, actors: files.flatMap(\.scope.actors))
                if let container { writer.container(container, entities: entities) }
                writer.migrations(migrations)
                for entity in entities { messages += writer.conformanceNotes(entity, file: files[newest.file].source.path) }
                produced.models.append((files[newest.file].stem, writer.text))
                var used = Set<String>()
                for version in versions {
                    used.formUnion(reachable(from: version.entities, entityExtras: entityExtras, candidates: topTypes))
                }
                notUsed(topTypes, used: used)
            }
            let currentStem = produced.models.first?.stem ?? files[0].stem
            for version in versions {
                var writer = ModelTextWriter(builder: self)
                let (entities, enums, structs) = contents(of: version, topTypes: topTypes, entityExtras: entityExtras)
                writer.write(enums: enums, structs: structs, entities: entities, actors: [])
                if let container { writer.container(container, entities: entities) }
                guard let number = SchemaVersion(version.spelling) else { continue }
                produced.versions.append((currentStem, number, writer.text))
            }
            return produced
        }

        /// Top-level enums and structs of every file.
        private func topLevelTypes() -> [(file: Int, enums: [ImportedEnum], structs: [ImportedStruct])] {
            files.enumerated().map { ($0.offset, $0.element.scope.enums, $0.element.scope.structs) }
        }

        private mutating func notUsed(_ types: [(file: Int, enums: [ImportedEnum], structs: [ImportedStruct])], used: Set<String>) {
            for (file, enums, structs) in types {
                for enumeration in enums where !used.contains(enumeration.name) {
                    note(file, enumeration.line, "enum '\(enumeration.name)' is not used by a model: not imported; keep it in Swift")
                }
                for structure in structs where !used.contains(structure.name) {
                    note(file, structure.line, "struct '\(structure.name)' is not used by a model: not imported; keep it in Swift")
                }
            }
        }

        private func withExtras(_ entity: ImportedEntity, _ extras: [String: (enums: [ImportedEnum], structs: [ImportedStruct])]) -> ImportedEntity {
            var entity = entity
            if let extra = extras[entity.name] {
                entity.enums += extra.enums
                entity.structs += extra.structs
            }
            return entity
        }

        /// A version's models, and the types they use: its own, then top-level ones.
        private func contents(
            of version: Version, topTypes: [(file: Int, enums: [ImportedEnum], structs: [ImportedStruct])],
            entityExtras: [String: (enums: [ImportedEnum], structs: [ImportedStruct])]
        ) -> ([ImportedEntity], [ImportedEnum], [ImportedStruct]) {
            let entities = version.entities.map { withExtras($0, entityExtras) }
            let candidates = [(version.file, version.enums, version.structs)] + topTypes
            let reached = reachable(from: entities, entityExtras: entityExtras, candidates: candidates)
            var enums: [ImportedEnum] = []
            var structs: [ImportedStruct] = []
            for (_, candidateEnums, candidateStructs) in candidates {
                for item in candidateEnums where reached.contains(item.name) && !enums.contains(where: { $0.name == item.name }) { enums.append(item) }
                for item in candidateStructs where reached.contains(item.name) && !structs.contains(where: { $0.name == item.name }) { structs.append(item) }
            }
            return (entities, enums, structs)
        }

        /// The names of the candidate types the entities use, directly or through other types.
        private func reachable(
            from entities: [ImportedEntity], entityExtras: [String: (enums: [ImportedEnum], structs: [ImportedStruct])],
            candidates: [(file: Int, enums: [ImportedEnum], structs: [ImportedStruct])]
        ) -> Set<String> {
            var words = Set<String>()
            func add(_ type: String) {
                for word in modelType(type).split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
                    words.insert(String(word))
                }
            }
            for entity in entities.map({ withExtras($0, entityExtras) }) {
                entity.properties.forEach { add($0.type) }
                entity.structs.forEach { $0.fields.forEach { add($0.type) } }
                entity.enums.forEach { $0.cases.forEach { add($0.text) } }
            }
            var reached = Set<String>()
            var changed = true
            while changed {
                changed = false
                for (_, enums, structs) in candidates {
                    for item in enums where words.contains(item.name) && !reached.contains(item.name) {
                        reached.insert(item.name)
                        item.cases.forEach { add($0.text) }
                        changed = true
                    }
                    for item in structs where words.contains(item.name) && !reached.contains(item.name) {
                        reached.insert(item.name)
                        item.fields.forEach { add($0.type) }
                        changed = true
                    }
                }
            }
            return reached
        }

        func isConformanceOfEveryModel(_ name: String) -> Bool { Importer.modelConformances.contains(name) }
    }

    // MARK: - Writing `.model` text

    private struct ModelTextWriter {
        let builder: Builder
        var text = ""

        init(builder: Builder) { self.builder = builder }

        mutating func header(from path: String) {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            text += "// Imported from \(name) by 'modelgen import'.\n"
        }

        private mutating func doc(_ lines: [String], indent: String) {
            for line in lines { text += indent + (line.isEmpty ? "///" : "/// " + line) + "\n" }
        }

        mutating func write(enums: [ImportedEnum], structs: [ImportedStruct], entities: [ImportedEntity], actors: [(doc: [String], name: String)]) {
            for enumeration in enums { self.enumeration(enumeration, indent: "") }
            for structure in structs { self.structure(structure, indent: "") }
            for entity in entities { self.entity(entity) }
            for actor in actors {
                text += "\n"
                doc(actor.doc, indent: "")
                text += "@ModelActor actor \(actor.name)\n"
            }
        }

        private func inheritance(_ names: [String]) -> String {
            names.isEmpty ? "" : ": " + names.map { builder.modelType($0) }.joined(separator: ", ")
        }

        private mutating func enumeration(_ enumeration: ImportedEnum, indent: String) {
            text += "\n"
            doc(enumeration.doc, indent: indent)
            text += "\(indent)enum \(enumeration.name)\(inheritance(enumeration.inheritance)) {\n"
            for item in enumeration.cases {
                doc(item.doc, indent: indent + "    ")
                text += indent + "    " + builder.modelType(item.text) + "\n"
            }
            text += "\(indent)}\n"
        }

        private mutating func structure(_ structure: ImportedStruct, indent: String) {
            text += "\n"
            doc(structure.doc, indent: indent)
            text += "\(indent)struct \(structure.name)\(inheritance(structure.inheritance)) {\n"
            for field in structure.fields { property(field, indent: indent + "    ") }
            text += "\(indent)}\n"
        }

        private mutating func property(_ property: ImportedProperty, indent: String) {
            if property.blankLineBefore, !text.hasSuffix("{\n"), !text.hasSuffix("\n\n") { text += "\n" }
            doc(property.doc, indent: indent)
            for attribute in property.attributes { text += indent + attribute + "\n" }
            text += indent + property.name + ": " + builder.modelType(property.type)
            if let value = property.defaultValue { text += " = " + value }
            text += "\n"
        }

        private func base(of entity: ImportedEntity) -> String? {
            guard let first = entity.inheritance.first else { return nil }
            let name = builder.modelType(first)
            let isModel = builder.files.contains { $0.scope.entities.contains { $0.name == name } }
                || builder.versions.contains { $0.entities.contains { $0.name == name } }
            return isModel ? name : nil
        }

        /// Notes for the protocols a model class adopts beyond those every generated model has.
        func conformanceNotes(_ entity: ImportedEntity, file: String) -> [ImportMessage] {
            let protocols = entity.inheritance.dropFirst(base(of: entity) == nil ? 0 : 1).map { builder.modelType($0) }
            return protocols.filter { !builder.isConformanceOfEveryModel($0) }.map {
                ImportMessage(path: file, line: entity.line, column: 1, severity: .note,
                              message: "the conformance of '\(entity.name)' to '\($0)' is not part of the model: add it in a Swift extension ('extension \(entity.name): \($0) { … }')")
            }
        }

        private mutating func entity(_ entity: ImportedEntity) {
            text += "\n"
            doc(entity.doc, indent: "")
            text += "entity \(entity.name)" + (base(of: entity).map { ": " + $0 } ?? "") + " {\n"
            let nested = text.count
            for enumeration in entity.enums { self.enumeration(enumeration, indent: "    ") }
            for structure in entity.structs { self.structure(structure, indent: "    ") }
            if text.count > nested {
                text.remove(at: text.index(text.startIndex, offsetBy: nested))  // no blank line after '{'
                text += "\n"
            }
            for property in entity.properties { self.property(property, indent: "    ") }
            if !entity.macros.isEmpty { text += "\n" }
            for macro in entity.macros { text += "    " + macro + "\n" }
            for initializer in entity.inits {
                text += "\n"
                doc(initializer.doc, indent: "    ")
                let parameters = initializer.parameters.map { $0.name + ($0.defaultValue.map { " = " + $0 } ?? "") }
                text += "    init(" + parameters.joined(separator: ", ") + ")"
                if let superArguments = initializer.superArguments {
                    text += " {\n        super.init(" + superArguments.joined(separator: ", ") + ")\n    }"
                }
                text += "\n"
            }
            text += "}\n"
        }

        /// `container Name { … }` listing the models without a base (subclasses come with theirs).
        mutating func container(_ name: String, entities: [ImportedEntity]) {
            let listed = entities.filter { base(of: $0) == nil }.map(\.name)
            text += "\ncontainer \(name) { \(listed.joined(separator: ", ")) }\n"
        }

        mutating func migrations(_ lines: [String]) {
            if !lines.isEmpty { text += "\n" + lines.joined(separator: "\n") + "\n" }
        }
    }
}
