import Foundation
import Testing
@testable import ModelGenKit

@Suite struct InputDiscoveryTests {
    /// A temporary folder with the given files; the caller removes it.
    private func makeFolder(_ files: [String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for path in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("entity X {}\n".utf8).write(to: url)
        }
        return root
    }

    @Test func foldersAreSearchedRecursivelyAndSorted() throws {
        let root = try makeFolder(["Travel/Trips.model", "B.model", "a/Z.model", "notes.txt", "Travel/.hidden.model", "Travel/deep/er/X.model"])
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = try InputDiscovery.discover([root.path])
        #expect(inputs.map(\.relativePath) == ["B.model", "Travel/Trips.model", "Travel/deep/er/X.model", "a/Z.model"])
        #expect(inputs.map(\.path) == inputs.map { root.path + "/" + $0.relativePath })
    }

    @Test func filesKeepTheirPathAsNamedAndArgumentOrder() throws {
        let root = try makeFolder(["Travel/Trips.model", "B.model"])
        defer { try? FileManager.default.removeItem(at: root) }
        let trips = root.path + "/Travel/Trips.model"
        let inputs = try InputDiscovery.discover([trips, root.path + "/"])
        #expect(inputs.map(\.path) == [trips, root.path + "/B.model"])
        #expect(inputs.map(\.relativePath) == ["Trips.model", "B.model"])
    }

    @Test func problemsAreInputErrors() throws {
        let root = try makeFolder(["notes.txt"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: InputError.self) { try InputDiscovery.discover([]) }
        #expect(throws: InputError.self) { try InputDiscovery.discover([root.path]) }
        #expect(throws: InputError.self) { try InputDiscovery.discover([root.path + "/notes.txt"]) }
        #expect(throws: InputError.self) { try InputDiscovery.discover([root.path + "/missing.model"]) }
    }

    @Test func symbolicLinkLoopsAreNotFollowed() throws {
        let root = try makeFolder(["m/A.model"])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: root.path + "/m/loop", withDestinationPath: root.path + "/m")
        let inputs = try InputDiscovery.discover([root.path])
        #expect(inputs.map(\.relativePath) == ["m/A.model"])
    }

    @Test func loaderReadsBytesInOrder() throws {
        let root = try makeFolder(["one.model", "two.model"])
        defer { try? FileManager.default.removeItem(at: root) }
        let loaded = try SourceLoader.load([root.path + "/two.model", root.path + "/one.model"], maximumBytes: 1000)
        #expect(loaded.map(\.relativePath) == ["two.model", "one.model"])
        #expect(loaded.allSatisfy { $0.file.bytes == Array("entity X {}\n".utf8) })
    }

    /// Inputs past the size limit stop the run with an input error before they are read.
    @Test func inputsPastTheLimitAreRefused() throws {
        let root = try makeFolder(["one.model", "two.model"])
        defer { try? FileManager.default.removeItem(at: root) }
        let size = "entity X {}\n".utf8.count
        #expect(try SourceLoader.load([root.path], maximumBytes: 2 * size).count == 2)
        #expect(throws: InputError.self) { try SourceLoader.load([root.path], maximumBytes: 2 * size - 1) }
        let options = GeneratorOptions(output: .lint, maximumInputBytes: 2 * size - 1)
        do {
            _ = try ModelGen.run(.paths([root.path]), options: options)
            Issue.record("a run past the limit did not stop")
        } catch {
            #expect(error.kind == .input)
            #expect(error.message.contains("more than"), "\(error.message)")
        }
        let inMemory = ModelSource(path: "Big.model", text: String(repeating: " ", count: 11))
        #expect(throws: GeneratorError.self) {
            try ModelGen.run(.sources([inMemory]), options: GeneratorOptions(maximumInputBytes: 10))
        }
    }
}
