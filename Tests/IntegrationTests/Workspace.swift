import Foundation
import Testing

/// Paths of the repository and of the packages the integration tests build.
enum Workspace {
    /// The ModelGen repository (the folder with the root Package.swift).
    static let root: URL = URL(filePath: #filePath)
        .deletingLastPathComponent()   // IntegrationTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()

    /// `Samples/TripsDemo`: the demo package that uses the build plugin.
    static let tripsDemo = root.appending(path: "Samples/TripsDemo", directoryHint: .isDirectory)

    /// `Samples/MigrationDemo`: the worked example of docs/Migrations.md, a model with a history.
    static let migrationDemo = root.appending(path: "Samples/MigrationDemo", directoryHint: .isDirectory)

    /// The fixture with a target named `Spaced Target` and two `Stop.model` files.
    static let spacedTarget = root.appending(path: "Tests/IntegrationTests/Fixtures/SpacedTarget", directoryHint: .isDirectory)

    /// The fixture whose library target's `modelgen.json` makes its models public to a second target.
    static let publicModels = root.appending(path: "Tests/IntegrationTests/Fixtures/PublicModels", directoryHint: .isDirectory)

    /// An executable of this package built by the outer `swift test` (the test target depends on it).
    static func builtExecutable(_ name: String) throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appending(path: name),
            Bundle.main.bundleURL.appending(path: name),
            root.appending(path: ".build/debug/\(name)"),
        ]
        return try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0.path(percentEncoded: false)) },
            "no built \(name) in \(candidates.map { $0.path(percentEncoded: false) })"
        )
    }

    /// The one build folder of every package these tests build: `.build/integration/shared` at the
    /// root, apart from the folder the outer `swift test` locks, and kept between runs so reruns are
    /// quick. Shared: SwiftPM reuses the products of the ModelGen dependency (ModelStore, the plugins'
    /// tool) from one root package to the next, so they are compiled once, not once per package.
    ///
    /// SwiftPM does not notice source files added to or removed from a path dependency (ModelGen)
    /// in an existing build folder, so the folder is emptied when the list of ModelGen's source
    /// files differs from the one it was built with.
    static let sharedScratchPath: URL = {
        let folder = root.appending(path: ".build/integration/shared", directoryHint: .isDirectory)
        let stamp = root.appending(path: ".build/integration/shared.sources")
        let files = sourceFileList()
        if (try? String(contentsOf: stamp, encoding: .utf8)) != files {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.createDirectory(at: stamp.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? files.write(to: stamp, atomically: true, encoding: .utf8)
        }
        return folder
    }()

    /// The paths of ModelGen's manifest and of every file below `Sources` and `Plugins`, one per line.
    private static func sourceFileList() -> String {
        var paths = ["Package.swift"]
        for folder in ["Sources", "Plugins"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appending(path: folder).path(percentEncoded: false))
            while let path = enumerator?.nextObject() as? String { paths.append("\(folder)/\(path)") }
        }
        return paths.sorted().joined(separator: "\n")
    }
}

/// A package the integration tests build with `swift build` in its folder, into the shared scratch path.
struct SamplePackage {
    /// The package folder.
    var directory: URL
    /// Its scratch path: `Workspace.sharedScratchPath`.
    var scratchPath: URL = Workspace.sharedScratchPath

    /// `swift build` of the whole package; `arguments` are appended.
    func build(_ arguments: [String] = []) async throws -> ProcessResult {
        try await swift(["build", "--scratch-path", scratchPath.path(percentEncoded: false)] + arguments)
    }

    /// `swift ARGUMENTS` in the package folder, run once more if the toolchain crashed (`Shell.runToolchain`).
    ///
    /// When the scratch path was last used by another package, SwiftPM is told to plan the build
    /// afresh (`--disable-build-manifest-caching` after the subcommand): it reuses a cached build
    /// plan while the files it watches are unchanged, and those are the previous package's, so the
    /// package would not be built at all (an empty build that "succeeds"). Planning again recompiles
    /// nothing that is up to date. The next build of the same package runs as a user's does.
    func swift(_ arguments: [String]) async throws -> ProcessResult {
        let marker = scratchPath.deletingLastPathComponent().appending(path: "\(scratchPath.lastPathComponent).last-package")
        let me = directory.standardizedFileURL.path(percentEncoded: false)
        var arguments = arguments
        if (try? String(contentsOf: marker, encoding: .utf8)) != me, !arguments.isEmpty {
            arguments.insert("--disable-build-manifest-caching", at: 1)
        }
        let result = try await Shell.runToolchain("swift", arguments, in: directory)
        try? me.write(to: marker, atomically: true, encoding: .utf8)
        return result
    }

    /// The debug executable `name`, as built by `build()`.
    func executable(_ name: String) -> URL {
        scratchPath.appending(path: "debug/\(name)")
    }

    /// Runs the built executable `name` with `arguments`.
    func run(_ name: String, _ arguments: [String] = []) async throws -> ProcessResult {
        try await Shell.run(executable(name).path(percentEncoded: false), arguments, in: directory)
    }

    /// Where the build plugin writes for this package in the shared scratch path: SwiftPM's folder
    /// of the package's identity (its folder name, lowercased), apart from the other packages'.
    var pluginOutputs: URL {
        scratchPath.appending(path: "plugins/outputs/\(directory.lastPathComponent.lowercased())", directoryHint: .isDirectory)
    }

    /// The text of the Swift file `name` the build plugin wrote for this package.
    func generatedText(_ name: String) throws -> String {
        let outputs = pluginOutputs
        let walker = FileManager.default.enumerator(at: outputs, includingPropertiesForKeys: nil)
        let file = try #require(walker?.compactMap { $0 as? URL }.first { $0.lastPathComponent == name }, "no generated \(name)")
        return try String(contentsOf: file, encoding: .utf8)
    }

    /// The Swift files the build plugin wrote for this package, by file name.
    func generatedFiles() -> [String] {
        let outputs = pluginOutputs
        guard let walker = FileManager.default.enumerator(at: outputs, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { ($0 as? URL)?.lastPathComponent }
            .filter { $0.hasSuffix(".model.swift") || $0.hasSuffix(".modelversion.swift") }.sorted()
    }
}

/// The line `swift build` prints when the build plugin's command runs (its display name).
let generatorRunMarker = "ModelGen: generating Swift for"

extension ProcessResult {
    /// Whether this `swift build` ran the ModelGen build command.
    var ranGenerator: Bool { output.contains(generatorRunMarker) }
}

extension Workspace {
    /// The fixture whose model `modelgen import` wrote from a SwiftData VersionedSchema history.
    static let importedHistory = root.appending(path: "Tests/IntegrationTests/Fixtures/ImportedHistory", directoryHint: .isDirectory)
}
