// swift-tools-version:6.0
// Integration fixture: the model of Tests/ModelGenKitTests/Import/Fixtures/History (a SwiftData
// VersionedSchema history with a migration plan), imported by `modelgen import` into
// Sources/Memories, built by the plugin, and run: a store written with version 1.0.0 opens through
// the generated migration plan, the custom stage merging duplicate albums as the Swift one did.
import PackageDescription

let package = Package(
    name: "ImportedHistory",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ModelGen", path: "../../../.."),
    ],
    targets: [
        .executableTarget(
            name: "Memories",
            dependencies: [.product(name: "ModelStore", package: "ModelGen")],
            plugins: [.plugin(name: "ModelGenPlugin", package: "ModelGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
