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
        let loaded = try ModelLoader.load([root.path + "/two.model", root.path + "/one.model"])
        #expect(loaded.map(\.input.relativePath) == ["two.model", "one.model"])
        #expect(loaded.allSatisfy { $0.source.bytes == Array("entity X {}\n".utf8) })
    }
}
