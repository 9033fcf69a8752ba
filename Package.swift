// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ModelGen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "modelgen", targets: ["modelgen"]),
        .library(name: "ModelGenKit", targets: ["ModelGenKit"]),
        .library(name: "ModelStore", targets: ["ModelStore"]),
        .plugin(name: "ModelGenPlugin", targets: ["ModelGenPlugin"]),
        .plugin(name: "GenerateModels", targets: ["GenerateModels"]),
        // Benchmarks: `swift run -c release modelstore-bench`, `swift run -c release modelgen-bench`,
        // `swift run -c release migration-bench`.
        .executable(name: "modelstore-bench", targets: ["ModelStoreBench"]),
        .executable(name: "modelgen-bench", targets: ["ModelGenBench"]),
        .executable(name: "migration-bench", targets: ["MigrationBench"]),
    ],
    targets: [
        // System SQLite (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // System libpq, PostgreSQL's client library (Debian: libpq-dev), for the PostgreSQL store (docs/PostgreSQL.md).
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // What the generator and the runtime share: the table of built-in value types (ScalarType) and the
        // schema-evolution rules (type widening, version text, rename matching, struct fields); no dependencies. ModelStore imports it `internal`ly, so
        // neither its public API nor generated code mention it.
        .target(
            name: "SchemaEvolution"
        ),
        // Runtime imported by generated code.
        .target(
            name: "ModelStore",
            dependencies: ["CSQLite", "CLibPQ", "SchemaEvolution"]
        ),
        // The generator as a library: syntax, semantics, generation, diagnostics, output.
        // `Generation/BuiltinTemplates.swift` holds Templates/*.mustache, written by TemplateEmbedder and
        // checked by IntegrationTests' BuiltinTemplatesTests (MODELGEN_UPDATE_GOLDENS=1 rewrites it).
        // Not a build plugin: SwiftPM 6.3 does not run a dependency's build plugins when it builds the
        // tool of another plugin (ModelGenPlugin's modelgen), so every build of a package using
        // ModelGenPlugin printed errors and recompiled ModelGenKit (swiftlang/swift-package-manager#7936).
        .target(
            name: "ModelGenKit",
            dependencies: ["SchemaEvolution"]
        ),
        // Writes Templates/*.mustache as Swift string literals (Generation/BuiltinTemplates.swift).
        .executableTarget(
            name: "TemplateEmbedder",
            path: "Tests/Helpers/TemplateEmbedder"
        ),
        // The command line's commands, all but `pull`; ModelGenKit only (docs/Architecture.md, "The command line").
        .target(
            name: "ModelGenCommandLine",
            dependencies: ["ModelGenKit"]
        ),
        // Thin command-line front end: ModelGenCommandLine's commands and `pull`.
        .executableTarget(
            name: "modelgen",
            // ModelStore: `modelgen pull` reads the model a store records.
            dependencies: ["ModelGenCommandLine", "ModelGenKit", "ModelStore"]
        ),
        // The tool the plugins run: `modelgen` without `pull`, so without ModelStore. A package using
        // the plugins then compiles ModelStore once (for itself), not twice (for the tool too).
        .executableTarget(
            name: "ModelGenPluginTool",
            dependencies: ["ModelGenCommandLine"]
        ),
        // Build-tool plugin: generates a target's `.model` files at build time.
        .plugin(
            name: "ModelGenPlugin",
            capability: .buildTool(),
            dependencies: ["ModelGenPluginTool"]
        ),
        // Command plugin: `swift package generate-models` writes generated code into the sources.
        .plugin(
            name: "GenerateModels",
            capability: .command(
                intent: .custom(
                    verb: "generate-models",
                    description: "Generate Swift code from the .model files of the package's targets into their sources"
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the generated Swift files into each target's Generated folder"),
                ]
            ),
            dependencies: ["ModelGenPluginTool"]
        ),
        // The properties every front-end input must satisfy (fuzz target and its regression tests).
        .target(
            name: "FuzzOracle",
            dependencies: ["ModelGenKit"],
            path: "Tests/Fuzz/FuzzOracle"
        ),
        // Hands ModelFuzz over to libFuzzer, when Scripts/fuzz.sh compiles and links it in.
        .target(
            name: "ModelFuzzDriver",
            path: "Tests/Fuzz/ModelFuzzDriver"
        ),
        // libFuzzer target over the front end (Scripts/fuzz.sh); built normally, it replays files.
        .executableTarget(
            name: "ModelFuzz",
            dependencies: ["FuzzOracle", "ModelFuzzDriver"],
            path: "Tests/Fuzz/ModelFuzz"
        ),
        // What the language server must do with any edits and requests (its fuzz target and the
        // tests run it in process); under `Tests/`, not `Sources/`: it is test and fuzzing code.
        .target(
            name: "LanguageServerOracle",
            dependencies: ["ModelGenKit"],
            path: "Tests/Fuzz/LanguageServerOracle"
        ),
        // libFuzzer target over `modelgen lsp` (Scripts/fuzz.sh --target lsp); built normally, it replays files.
        .executableTarget(
            name: "LanguageServerFuzz",
            dependencies: ["LanguageServerOracle", "ModelFuzzDriver"],
            path: "Tests/Fuzz/LanguageServerFuzz"
        ),
        // Child process of the crash-durability test: saves batches of Trips and acknowledges each.
        .executableTarget(
            name: "CrashWriter",
            dependencies: ["ModelStore"],
            path: "Tests/Helpers/CrashWriter",
            plugins: ["ModelGenPlugin"]  // Trips.model there links to Samples/Trips.model
        ),
        // Child process of the history tests: writes a scripted history, or prints the history it reads.
        .executableTarget(
            name: "HistoryProbe",
            dependencies: ["ModelStore"],
            path: "Tests/Helpers/HistoryProbe",
            plugins: ["ModelGenPlugin"]  // Trips.model there links to Samples/Trips.model
        ),
        // Golden files (compare, or rewrite under MODELGEN_UPDATE_GOLDENS=1) for every test target.
        .target(
            name: "GoldenFiles",
            path: "Tests/GoldenFiles"
        ),
        .testTarget(
            name: "ModelGenKitTests",
            dependencies: ["ModelGenKit", "SchemaEvolution", "FuzzOracle", "GoldenFiles", "LanguageServerOracle"],
            exclude: [
                "Diagram/Goldens", "Formatting/Fixtures", "Formatting/Goldens", "FuzzRegressions/inputs", "History/Fixtures", "History/Goldens",
                "Import/Fixtures", "Import/Goldens", "Mustache/spec", "PublicAPI/ModelGenKit.api", "Syntax/Fixtures",
            ]
        ),
        // What store tests share: a throwaway PostgreSQL server (`PostgresTestServer`), or the one
        // named by MODELSTORE_TEST_POSTGRES_URL, and a fresh database per test (docs/PostgreSQL.md).
        .target(
            name: "StoreTestSupport",
            dependencies: ["ModelStore"],
            path: "Tests/StoreTestSupport"
        ),
        // End-to-end tests that run the built `modelgen` binary.
        .testTarget(
            name: "modelgenTests",
            dependencies: ["modelgen"]
        ),
        // Child process of the multi-process upsert test: upserts members and badges, one save at a
        // time, into a SQLite file or a PostgreSQL database several writers share.
        .executableTarget(
            name: "UpsertWriter",
            dependencies: ["ModelStore"],
            path: "Tests/Helpers/UpsertWriter",
            plugins: ["ModelGenPlugin"]
        ),
        // Child process of the migration crash test: migrates a store through a plan until killed.
        .executableTarget(
            name: "CrashMigrator",
            dependencies: ["ModelStore"],
            path: "Tests/Helpers/CrashMigrator",
            plugins: ["ModelGenPlugin"]  // Crash.model and its versions (ModelVersions/): classes and plan
        ),
        // Child process of the multi-process misuse tests (#20): holds a store's write lock, or
        // shares one ModelContext between two threads.
        .executableTarget(
            name: "MisuseProbe",
            dependencies: ["ModelStore", "CSQLite"],
            path: "Tests/Helpers/MisuseProbe",
            plugins: ["ModelGenPlugin"]  // Trips.model there links to Samples/Trips.model
        ),
        .testTarget(
            name: "ModelStoreTests",
            dependencies: ["ModelStore", "SchemaEvolution", "CrashWriter", "CrashMigrator", "HistoryProbe", "UpsertWriter", "StoreTestSupport", "MisuseProbe", "GoldenFiles"],
            exclude: ["Goldens", "Fixtures/Zoo.model", "Fixtures/Badges.model", "Fixtures/Warehouse.model", "Fixtures/Walkers.model"]
        ),
        // Builds and runs Samples/TripsDemo and the fixture packages with `swift build`; runs the
        // benchmark executables' debug builds at a small size.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["modelgen", "TemplateEmbedder", "GoldenFiles", "StoreTestSupport", "ModelStoreBench"],
            exclude: ["Fixtures"]
        ),
        // Timing, peak memory, arguments and tables shared by the benchmarks.
        .target(
            name: "BenchSupport",
            path: "Benchmarks/BenchSupport"
        ),
        // Generated Trips code against hand-written SQLite (or libpq: --store postgresql): ModelGenPlugin generates it at build
        // time from `Trips.model` there (a link to Samples/Trips.model).
        .executableTarget(
            name: "ModelStoreBench",
            dependencies: ["ModelStore", "CSQLite", "CLibPQ", "BenchSupport", "StoreTestSupport"],
            path: "Benchmarks/ModelStoreBench",
            plugins: ["ModelGenPlugin"]
        ),
        // A 1,000,000-row store migrated on open by ModelStore against the same migration by hand in SQL;
        // its model versions are generated from Bench.model's history.
        .executableTarget(
            name: "MigrationBench",
            dependencies: ["ModelStore", "CSQLite", "BenchSupport"],
            path: "Benchmarks/MigrationBench",
            plugins: ["ModelGenPlugin"]  // Bench.model and its versions (ModelVersions/)
        ),
        // Parse + check + generate time of synthesized models of 100 to 10,000 entities.
        .executableTarget(
            name: "ModelGenBench",
            dependencies: ["ModelGenKit", "BenchSupport"],
            path: "Benchmarks/ModelGenBench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
