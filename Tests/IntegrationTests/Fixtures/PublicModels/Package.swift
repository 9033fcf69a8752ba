// swift-tools-version:6.0
// Integration fixture: a library target whose `modelgen.json` makes its generated model classes
// `public` (docs/Plugins.md), and an executable target of another module that uses them.
import PackageDescription

let package = Package(
    name: "PublicModels",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ModelGen", path: "../../../.."),
    ],
    targets: [
        // Catalog.model and modelgen.json ({"accessLevel": "public"}).
        .target(
            name: "Catalog",
            dependencies: [.product(name: "ModelStore", package: "ModelGen")],
            plugins: [.plugin(name: "ModelGenPlugin", package: "ModelGen")]
        ),
        .executableTarget(
            name: "Shop",
            dependencies: ["Catalog", .product(name: "ModelStore", package: "ModelGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
