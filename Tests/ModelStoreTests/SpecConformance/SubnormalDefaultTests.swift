import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Subnormal and underflowing floating-point defaults of `Generated/SpecAllTypes.model.swift`
/// (entity `SpecTiny`, struct `SpecTinyBox`): generated as expressions of the exact value
/// (docs/Generation.md, "Floating-point defaults"), so the file compiles without a warning and
/// every default is the value the model wrote (oracle: `Double`/`Float` reading the model's text).
@Suite struct SubnormalDefaultTests {
    @Test(arguments: StoreKind.allCases) func defaultsAreTheWrittenValues(_ kind: StoreKind) throws {
        func check(_ tiny: SpecTiny, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(tiny.tiny.bitPattern == Double("5e-324")!.bitPattern, sourceLocation: sourceLocation)
            #expect(tiny.negativeTiny.bitPattern == Double("-2.2250738585072e-308")!.bitPattern, sourceLocation: sourceLocation)
            #expect(tiny.tinyFloat.bitPattern == Float("1.1754942e-38")!.bitPattern, sourceLocation: sourceLocation)
            #expect(tiny.interval.bitPattern == Double("4.9e-324")!.bitPattern, sourceLocation: sourceLocation)
            #expect(Double(tiny.width).bitPattern == Double("1e-310")!.bitPattern, sourceLocation: sourceLocation)
            #expect(tiny.underflow.bitPattern == Double("1e-400")!.bitPattern, sourceLocation: sourceLocation)
            #expect(tiny.tinies.map(\.bitPattern) == [Double("5e-324")!.bitPattern, Double("1.5")!.bitPattern], sourceLocation: sourceLocation)
            #expect(tiny.maybe?.bitPattern == Double("3e-320")!.bitPattern, sourceLocation: sourceLocation)
            #expect(tiny.box.tiny.bitPattern == Double("5e-324")!.bitPattern, sourceLocation: sourceLocation)
            #expect(tiny.box.tinyFloat.bitPattern == Float("1e-45")!.bitPattern, sourceLocation: sourceLocation)
        }
        let made = SpecTiny()
        check(made)
        #expect(made.tiny.isSubnormal && made.tinyFloat.isSubnormal && made.negativeTiny.isSubnormal)
        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: SpecLanguageStore.schema))
        context.insert(made)
        try context.save()
        let read = try ModelContext(try store.container(for: SpecLanguageStore.schema)).fetch(FetchDescriptor<SpecTiny>())
        #expect(read.count == 1)
        if let first = read.first { check(first) }
    }

    /// The generated file compiles alone against the built ModelStore module, in Swift 6 language
    /// mode, with warnings as errors (decimal subnormal literals made swiftc warn).
    @Test(.timeLimit(.minutes(3)))
    func theGeneratedFileCompilesWithoutWarnings() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let modules = folder.appendingPathComponent("Modules")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("ModelStore.swiftmodule").path),
                     "no ModelStore.swiftmodule in \(modules.path)")
        let root = BuiltProducts.packageRoot
        let sources = root.appendingPathComponent("Sources")
        let systemLibraries = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
            .filter { FileManager.default.fileExists(atPath: sources.appendingPathComponent($0).appendingPathComponent("module.modulemap").path) }
            .flatMap { ["-I", sources.appendingPathComponent($0).path] }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("subnormal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // What the app adds beside the generated file (the static member its `frame` default names).
        let extra = work.appendingPathComponent("Extra.swift")
        try "import Foundation\nextension SpecRect {\n    static let zero = SpecRect(id: 0, width: 0)\n}\n".write(to: extra, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library", "-I", modules.path]
            + systemLibraries + ["-module-cache-path", work.appendingPathComponent("ModuleCache").path,
                                 root.appendingPathComponent("Tests/ModelStoreTests/Generated/SpecAllTypes.model.swift").path, extra.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swiftc failed:\n\(text)")
        #expect(!text.contains("warning"), "\(text)")
    }
}
