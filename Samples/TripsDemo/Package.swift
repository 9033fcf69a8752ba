// swift-tools-version:6.0
// TripsDemo: a package that uses ModelGen the way an app would. `Sources/TripsDemo/Trips.model` is
// turned into Swift at build time by the `ModelGenPlugin` build-tool plugin; `main.swift` uses the
// generated classes with SwiftData's API on ModelStore (SQLite).
import PackageDescription

let package = Package(
    name: "TripsDemo",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your own package: .package(url: "https://…/ModelGen.git", from: "1.0.0")
        .package(name: "ModelGen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "TripsDemo",
            dependencies: [.product(name: "ModelStore", package: "ModelGen")],
            plugins: [.plugin(name: "ModelGenPlugin", package: "ModelGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
