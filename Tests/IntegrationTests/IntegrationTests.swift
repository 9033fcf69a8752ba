import Foundation
import StoreTestSupport
import Testing

/// End-to-end tests: real `swift build` runs of packages that use the ModelGen plugins.
///
/// Every package (the samples TripsDemo, MigrationDemo and MemoriesDemo; the fixtures SpacedTarget,
/// PublicModels and ImportedHistory) is built as a user builds it, `swift build` in its own folder,
/// but all into ONE scratch folder (`Workspace.sharedScratchPath`): SwiftPM keeps the products of
/// the ModelGen dependency they share, so ModelStore and the plugins' tool are compiled once for
/// all six rather than once per package (a cold package costs minutes, the next one seconds:
/// docs/Plugins.md, "Tests"). Switching to another package relinks the plugins' tool and reruns the
/// generator once; each test brings its package up to date itself, so the order does not matter.
///
/// Serialized, and the only suite that runs `swift build`: the tests share that scratch folder (two
/// builds at once would wait on its lock, and only fight over the machine's cores), and while a
/// package builds the suite holds one thread of the test run (`Shell.run`), leaving the others to
/// the rest of the tests (two such suites held both threads of a 2-core machine for 10 minutes). Set `MODELGEN_SKIP_INTEGRATION=1` to skip them while iterating on something else
/// (CI never sets it).
@Suite(
    "Integration: SwiftPM plugins, demo and prebuild script",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["MODELGEN_SKIP_INTEGRATION"] == nil)
)
struct IntegrationTests {
    let tripsDemo = SamplePackage(directory: Workspace.tripsDemo)
    let spaced = SamplePackage(directory: Workspace.spacedTarget)
    let publicModels = SamplePackage(directory: Workspace.publicModels)

    /// Builds `package` once, or twice when the first build ran the generator, failing on a build error.
    ///
    /// On Linux, SwiftPM 6.3 relinks a plugin's tool once more on the build that follows a fresh one
    /// (its "Wrapping AST" step), and the generator reruns with it; from then on an unchanged package
    /// builds without running anything, which is what the callers check.
    func buildUntilSettled(_ package: SamplePackage) async throws {
        for _ in 0..<2 {
            let result = try await package.build()
            try #require(result.status == 0, "swift build failed:\n\(result.output)")
            if !result.ranGenerator { return }
        }
    }

    /// Sets a file's modification date to now, as an editor saving it would.
    func touch(_ file: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path(percentEncoded: false))
    }
}

// MARK: - TripsDemo

extension IntegrationTests {
    @Test("TripsDemo builds with the plugin and runs the SwiftData walkthrough")
    func tripsDemoBuildsAndRuns() async throws {
        let build = try await tripsDemo.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        #expect(!build.output.contains("error:"), "a successful build printed errors:\n\(build.output)")
        #expect(tripsDemo.generatedFiles().contains("Trips.model.swift"))

        let run = try await tripsDemo.run("TripsDemo")
        #expect(run.status == 0, "TripsDemo failed:\n\(run.output)")
        // The #Predicate steps print "(skipped: …)" while ModelStore cannot translate them; once it can,
        // their results are checked too.
        for expected in Self.tripsDemoLines + (run.output.contains("(skipped: ") ? [] : Self.tripsDemoPredicateLines) {
            #expect(run.output.contains(expected), "TripsDemo output lacks \(expected):\n\(run.output)")
        }
    }

    /// What every TripsDemo run prints, whatever the store.
    static let tripsDemoLines = [
        "Alps has 2 accommodations before saving",              // inverse set in memory
        "Offsite [BusinessTrip]", "Alps [PersonalTrip]", "Visit [Trip]",   // dynamic types
        "Beach: vacation, with nobody", "business trips: Offsite for Acme", // subclass fetches
        "trips: 4, personal: 2, accommodations: 3",              // fetchCount
        "trips: 3, accommodations: 1",                           // cascade delete
        "Done.",
    ]
    static let tripsDemoPredicateLines = [
        "is BusinessTrip: Offsite", "vacations: Beach", "from June on, except Beach: Alps",
        "fetched twice, same instance: true",
    ]

    @Test("TripsDemo runs unchanged against PostgreSQL: only the store URL differs")
    func tripsDemoRunsOnPostgreSQL() async throws {
        let build = try await tripsDemo.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        // A fresh database on the test server (MODELSTORE_TEST_POSTGRES_URL, else a throwaway one).
        let database = try PostgresTestServer.shared().makeDatabase()
        let url = try #require(database.storeURL)
        // Twice: the second run starts on the database the first one left.
        for round in 1...2 {
            let run = try await tripsDemo.run("TripsDemo", [url.absoluteString])
            #expect(run.status == 0, "TripsDemo failed on PostgreSQL (run \(round)):\n\(run.output)")
            #expect(!run.output.contains("(skipped: "), "\(run.output)")
            for expected in Self.tripsDemoLines + Self.tripsDemoPredicateLines {
                #expect(run.output.contains(expected), "TripsDemo output on PostgreSQL (run \(round)) lacks \(expected):\n\(run.output)")
            }
        }
        try await expectPullGivesBackTheModel(of: url.absoluteString)
    }

    @Test("modelgen pull gives back the .model a TripsDemo SQLite store was written with")
    func pullFromASQLiteStore() async throws {
        let build = try await tripsDemo.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        let folder = FileManager.default.temporaryDirectory.appending(path: "pull-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appending(path: "Trips.store").path(percentEncoded: false)
        let run = try await tripsDemo.run("TripsDemo", [store])
        try #require(run.status == 0, "TripsDemo failed:\n\(run.output)")
        try await expectPullGivesBackTheModel(of: store)
    }

    /// `modelgen pull --url STORE --output FILE` writes Samples/Trips.model byte for byte (the
    /// model TripsDemo's generated code recorded), and a second pull into the same file is refused
    /// only when the file was edited since.
    private func expectPullGivesBackTheModel(of store: String) async throws {
        let modelgen = try Workspace.builtExecutable("modelgen").path(percentEncoded: false)
        let pulled = FileManager.default.temporaryDirectory.appending(path: "pulled-\(UUID().uuidString).model")
        defer { try? FileManager.default.removeItem(at: pulled) }
        let path = pulled.path(percentEncoded: false)
        let pull = try await Shell.run(modelgen, ["pull", "--url", store, "--output", path], in: Workspace.root)
        #expect(pull.status == 0, "modelgen pull failed:\n\(pull.output)")
        let sample = try Data(contentsOf: Workspace.root.appending(path: "Samples/Trips.model"))
        #expect(try Data(contentsOf: pulled) == sample)
        try Data("// edited\n".utf8).write(to: pulled)
        let refused = try await Shell.run(modelgen, ["pull", "--url", store, "--output", path], in: Workspace.root)
        #expect(refused.status == 1 && refused.output.contains("exists with other content"), "\(refused.output)")
        #expect(try Data(contentsOf: pulled) == Data("// edited\n".utf8))
    }

    @Test("A build with nothing changed does not run the generator")
    func noOpBuildDoesNotRegenerate() async throws {
        try await buildUntilSettled(tripsDemo)
        let again = try await tripsDemo.build()
        #expect(again.status == 0, "swift build failed:\n\(again.output)")
        #expect(!again.ranGenerator, "the generator ran on a no-op build:\n\(again.output)")
        #expect(!again.output.contains("Compiling TripsDemo"), "TripsDemo was recompiled on a no-op build:\n\(again.output)")
        // Nothing is compiled at all (ModelGenKit included) and nothing is reported.
        // (SwiftPM may list "Compiling plugin …" steps: they come from its plugin cache.)
        let compiled = again.output.split(separator: "\n").filter { $0.contains("Compiling ") && !$0.contains("Compiling plugin ") }
        #expect(compiled.isEmpty, "a no-op build compiled something:\n\(again.output)")
        #expect(!again.output.contains("error:"), "a successful no-op build printed errors:\n\(again.output)")
    }

    @Test("Touching the model reruns the generator, once")
    func touchingTheModelRegenerates() async throws {
        try await buildUntilSettled(tripsDemo)
        try touch(Workspace.tripsDemo.appending(path: "Sources/TripsDemo/Trips.model"))

        let afterTouch = try await tripsDemo.build()
        #expect(afterTouch.status == 0, "swift build failed:\n\(afterTouch.output)")
        #expect(afterTouch.ranGenerator, "the generator did not run after the model changed:\n\(afterTouch.output)")
        #expect(afterTouch.output.contains("\(generatorRunMarker) 'TripsDemo' from 1 model file"))

        let next = try await tripsDemo.build()
        #expect(!next.ranGenerator, "the generator ran again with nothing changed:\n\(next.output)")
    }

    @Test("TripsDemo's Trips.model is a copy of Samples/Trips.model")
    func tripsDemoModelMatchesTheSample() throws {
        let sample = try Data(contentsOf: Workspace.root.appending(path: "Samples/Trips.model"))
        let copy = try Data(contentsOf: Workspace.tripsDemo.appending(path: "Sources/TripsDemo/Trips.model"))
        #expect(sample == copy, "Samples/TripsDemo/Sources/TripsDemo/Trips.model differs from Samples/Trips.model: copy it again")
    }
}

// MARK: - A target name with a space, two same-named models

extension IntegrationTests {
    static let spacedSources = "Sources/Spaced Target"

    @Test("A target named with a space and two same-named models in subfolders builds and runs")
    func spacedTargetBuildsAndRuns() async throws {
        let build = try await spaced.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        // The work folder may also hold outputs of models deleted since (not compiled: not declared).
        #expect(Set(spaced.generatedFiles()).isSuperset(of: ["Flights_Stop.model.swift", "Trains_Stop.model.swift"]))

        let run = try await spaced.run("Spaced Target")
        #expect(run.status == 0, "Spaced Target failed:\n\(run.output)")
        #expect(run.output.contains("stations: Zürich Flughafen -> ZRH"), "unexpected output:\n\(run.output)")
    }

    @Test("A model error fails the build with an absolute file:line:col: error: line")
    func modelErrorsShowInTheBuildOutput() async throws {
        let broken = Workspace.spacedTarget.appending(path: "\(Self.spacedSources)/Broken.model")
        try "entity Broken {\n    name: String\n    BROKEN ???\n}\n".write(to: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: broken) }

        let build = try await spaced.build()
        #expect(build.status != 0, "swift build succeeded with a broken model:\n\(build.output)")
        let expectedStart = "\(broken.path(percentEncoded: false)):3:"
        let diagnostic = build.output.split(separator: "\n").first { $0.hasPrefix(expectedStart) }
        #expect(diagnostic?.contains(": error: ") == true, "no absolute diagnostic line for Broken.model:\n\(build.output)")
    }
}

// MARK: - modelgen.json (docs/Plugins.md)

extension IntegrationTests {
    static let catalogConfiguration = "Sources/Catalog/modelgen.json"

    @Test("A library target's modelgen.json makes its models public to a second target, which builds and runs")
    func configurationMakesModelsPublicAcrossModules() async throws {
        let build = try await publicModels.build()
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        let run = try await publicModels.run("Shop")
        #expect(run.status == 0, "Shop failed:\n\(run.output)")
        #expect(run.output.contains("products: Lamp 19.5 ([4])"), "unexpected output:\n\(run.output)")
    }

    /// The contract's hooks (SPI `ModelStoreGenerated`) stay out of a client's sight even on public
    /// models: Shop, which uses the models' API, builds without a warning (Swift 6 mode); a file of
    /// Shop that calls a hook does not compile.
    @Test("A client of public models sees their API, not the hooks of generated code")
    func clientOfPublicModelsSeesNoHooks() async throws {
        try await buildUntilSettled(publicModels)
        try touch(Workspace.publicModels.appending(path: "Sources/Shop/main.swift"))
        let clean = try await publicModels.build()
        try #require(clean.status == 0, "swift build failed:\n\(clean.output)")
        #expect(!clean.output.contains("warning:"), "Shop does not build warning-free:\n\(clean.output)")
        let probe = Workspace.publicModels.appending(path: "Sources/Shop/HookProbe.swift")
        defer { try? FileManager.default.removeItem(at: probe) }
        for use in ["_ = Product.schemaMetadata", "_ = product._$modelObject", "_ = product._$observationRegistrar"] {
            let text = "import Catalog\nimport ModelStore\n\nfunc probe(_ product: Product) {\n    \(use)\n}\n"
            try text.write(to: probe, atomically: true, encoding: .utf8)
            let build = try await publicModels.build()
            #expect(build.status != 0, "a client compiled a hook of generated code (\(use)):\n\(build.output)")
            #expect(build.output.contains("HookProbe.swift") && build.output.contains("@_spi"),
                    "not refused as SPI (\(use)):\n\(build.output)")
        }
        try FileManager.default.removeItem(at: probe)
        let restored = try await publicModels.build()
        #expect(restored.status == 0, "swift build failed:\n\(restored.output)")
    }

    @Test("Editing modelgen.json reruns the generator with its settings")
    func editingTheConfigurationRegenerates() async throws {
        let configuration = Workspace.publicModels.appending(path: Self.catalogConfiguration)
        let original = try String(contentsOf: configuration, encoding: .utf8)
        defer { try? original.write(to: configuration, atomically: true, encoding: .utf8) }
        try await buildUntilSettled(publicModels)

        // Internal models are invisible to the Shop module: its build fails.
        try "{\"accessLevel\": \"internal\"}\n".write(to: configuration, atomically: true, encoding: .utf8)
        let internalBuild = try await publicModels.build()
        #expect(internalBuild.ranGenerator, "editing modelgen.json did not rerun the generator:\n\(internalBuild.output)")
        #expect(internalBuild.status != 0, "Shop built against internal models:\n\(internalBuild.output)")

        // An unknown key is a usage error naming the key, shown in the build output.
        try "{\"acessLevel\": \"public\"}\n".write(to: configuration, atomically: true, encoding: .utf8)
        let unknown = try await publicModels.build()
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("unknown key 'acessLevel'"), "no message naming the key:\n\(unknown.output)")

        try original.write(to: configuration, atomically: true, encoding: .utf8)
        let restored = try await publicModels.build()
        #expect(restored.status == 0, "swift build failed after restoring modelgen.json:\n\(restored.output)")
    }

    /// With the templates inside the target's folder (as docs/Plugins.md advises), adding them
    /// makes SwiftPM run the plugin again, which declares them as inputs.
    @Test("Templates named by modelgen.json inside the target are inputs of the build: editing one regenerates")
    func configurationTemplatesAreInputs() async throws {
        let configuration = Workspace.publicModels.appending(path: Self.catalogConfiguration)
        let original = try String(contentsOf: configuration, encoding: .utf8)
        let templates = Workspace.publicModels.appending(path: "Sources/Catalog/Templates", directoryHint: .isDirectory)
        defer {
            try? original.write(to: configuration, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(at: templates)
        }
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let header = templates.appending(path: "file.mustache")
        func writeHeader(_ text: String) throws {
            try "{{<file}}{{$header}}// \(text) {{fileName}}{{/header}}{{/file}}\n".write(to: header, atomically: true, encoding: .utf8)
        }
        try writeHeader("First header for")
        try "{\"accessLevel\": \"public\", \"templates\": \"Templates\"}\n".write(to: configuration, atomically: true, encoding: .utf8)
        try await buildUntilSettled(publicModels)
        #expect(try publicModels.generatedText("Catalog.model.swift").hasPrefix("// First header for Catalog.model\n"))

        try writeHeader("Second header for")
        let edited = try await publicModels.build()
        #expect(edited.status == 0, "swift build failed:\n\(edited.output)")
        #expect(edited.ranGenerator, "editing a template did not rerun the generator:\n\(edited.output)")
        #expect(try publicModels.generatedText("Catalog.model.swift").hasPrefix("// Second header for Catalog.model\n"))
    }

    @Test("generate-models passes the target's modelgen.json")
    func commandPluginReadsTheConfiguration() async throws {
        let generated = Workspace.publicModels.appending(path: "Sources/Catalog/Generated", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: generated)
        defer { try? FileManager.default.removeItem(at: generated) }
        let result = try await publicModels.swift(["package", "--scratch-path", publicModels.scratchPath.path(percentEncoded: false),
                                             "--allow-writing-to-package-directory", "generate-models", "--target", "Catalog"])
        try #require(result.status == 0, "generate-models failed:\n\(result.output)")
        let text = try String(contentsOf: generated.appending(path: "Catalog.model.swift"), encoding: .utf8)
        #expect(text.contains("public class Product: ModelStore.ModelObject, ModelStore.PersistentModel {"))
    }
}

// MARK: - The generate-models command plugin

extension IntegrationTests {
    @Test("generate-models writes into the target's Generated folder, and --check tells stale from fresh")
    func commandPluginGeneratesAndChecks() async throws {
        let generated = Workspace.spacedTarget.appending(path: "\(Self.spacedSources)/Generated", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: generated)
        defer { try? FileManager.default.removeItem(at: generated) }
        let command = ["package", "--scratch-path", spaced.scratchPath.path(percentEncoded: false),
                       "--allow-writing-to-package-directory", "generate-models"]

        let missing = try await spaced.swift(command + ["--check"])
        #expect(missing.status != 0, "--check passed with nothing generated:\n\(missing.output)")

        let generate = try await spaced.swift(command + ["--target", "Spaced Target"])
        try #require(generate.status == 0, "generate-models failed:\n\(generate.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: generated.path(percentEncoded: false)).sorted()
        #expect(names == ["Flights_Stop.model.swift", "Trains_Stop.model.swift"])

        let fresh = try await spaced.swift(command + ["--check"])
        #expect(fresh.status == 0, "--check failed right after generating:\n\(fresh.output)")

        let edited = generated.appending(path: "Trains_Stop.model.swift")
        try (String(contentsOf: edited, encoding: .utf8) + "// edited by hand\n").write(to: edited, atomically: true, encoding: .utf8)
        let stale = try await spaced.swift(command + ["--check"])
        #expect(stale.status != 0, "--check passed with an edited generated file:\n\(stale.output)")
    }
}
