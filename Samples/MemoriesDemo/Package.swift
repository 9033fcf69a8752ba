// swift-tools-version:6.0
// MemoriesDemo: a data layer written the way SwiftData apps write theirs (docs/Migrations.md, "The
// app's own SchemaLatest"). `Sources/MemoriesDemo/Memories.model` is the model as it is now, equal to
// its newest frozen version; `modelgen.json` sets `modelsInVersion`, so the generated classes exist
// only inside the versions' enums and the app names them itself (`Schema.swift`): a `SchemaLatest`
// typealias, model typealiases, and its own `SchemaMigrationPlan`. `MemoryService.swift` holds the
// methods of the `@ModelActor` declared in the model.
import PackageDescription

let package = Package(
    name: "MemoriesDemo",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your own package: .package(url: "https://…/ModelGen.git", from: "1.0.0")
        .package(name: "ModelGen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "MemoriesDemo",
            dependencies: [.product(name: "ModelStore", package: "ModelGen")],
            plugins: [.plugin(name: "ModelGenPlugin", package: "ModelGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
