// swift-tools-version:6.0
// Integration fixture: a target whose name has a space, with two same-named `.model` files in two
// subfolders (`Flights/Stop.model`, `Trains/Stop.model`) that reference each other's entities.
import PackageDescription

let package = Package(
    name: "SpacedTarget",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ModelGen", path: "../../../.."),
    ],
    targets: [
        .executableTarget(
            name: "Spaced Target",
            dependencies: [.product(name: "ModelStore", package: "ModelGen")],
            plugins: [.plugin(name: "ModelGenPlugin", package: "ModelGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
