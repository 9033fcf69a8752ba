// swift-tools-version:6.0
// MigrationDemo: a model with a history (docs/Migrations.md). `Sources/MigrationDemo/Trips.model` is
// the model as it is now; `ModelVersions/` holds its frozen versions, written by `modelgen freeze`.
// The `ModelGenPlugin` build-tool plugin generates the classes of the model and of each version, and
// the migration plan; `DurationStage.swift` is the code of the plan's one custom stage.
import PackageDescription

let package = Package(
    name: "MigrationDemo",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your own package: .package(url: "https://…/ModelGen.git", from: "1.0.0")
        .package(name: "ModelGen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "MigrationDemo",
            dependencies: [.product(name: "ModelStore", package: "ModelGen")],
            plugins: [.plugin(name: "ModelGenPlugin", package: "ModelGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
