import Foundation
import Testing
@testable import ModelGenKit

/// A fresh temporary directory, removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Every entry below the directory, relative, sorted (hidden temporary files included).
    func listing() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }
}

func modificationDate(_ url: URL) throws -> Date {
    try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
}

/// Each output's state against the disk.
private func states(_ outputs: [PlannedOutput]) -> [OutputState] {
    outputs.map { OutputWriter.state(of: $0.url, comparedWith: $0.contents) }
}

@Suite struct OutputWriterTests {
    @Test func writesMissingFilesAndReportsStates() throws {
        let directory = try TemporaryDirectory()
        let outputs = [
            PlannedOutput(url: directory.file("A.model.swift"), contents: "a\n"),
            PlannedOutput(url: directory.file("sub/B.model.swift"), contents: "b\n"),
        ]
        #expect(states(outputs) == [.missing, .missing])
        let written = try OutputWriter.write(outputs)
        #expect(written == outputs)
        #expect(try String(contentsOf: outputs[1].url, encoding: .utf8) == "b\n")
        #expect(states(outputs) == [.unchanged, .unchanged])
        #expect(try directory.listing() == ["A.model.swift", "sub", "sub/B.model.swift"])
    }

    @Test func unchangedFileIsNotRewritten() throws {
        let directory = try TemporaryDirectory()
        let output = PlannedOutput(url: directory.file("A.model.swift"), contents: "a\n")
        try OutputWriter.write([output])
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output.url.path)
        #expect(try OutputWriter.write([output]).isEmpty)
        #expect(try modificationDate(output.url) == past)

        let changed = PlannedOutput(url: output.url, contents: "changed\n")
        #expect(states([changed]) == [.stale])
        #expect(try OutputWriter.write([changed]) == [changed])
        #expect(try modificationDate(output.url) != past)
    }

    @Test func failureChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let existing = directory.file("A.model.swift")
        try Data("old\n".utf8).write(to: existing)
        // A regular file where a directory is needed makes the second output unwritable.
        try Data().write(to: directory.file("blocker"))
        let outputs = [
            PlannedOutput(url: existing, contents: "new\n"),
            PlannedOutput(url: directory.file("C.model.swift"), contents: "c\n"),
            PlannedOutput(url: directory.file("blocker/B.model.swift"), contents: "b\n"),
        ]
        #expect(throws: OutputWriteError.self) { try OutputWriter.write(outputs) }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "old\n")
        #expect(try directory.listing() == ["A.model.swift", "blocker"])
    }

    @Test func createdDirectoriesAreRemovedOnFailure() throws {
        let directory = try TemporaryDirectory()
        try Data().write(to: directory.file("blocker"))
        let outputs = [
            PlannedOutput(url: directory.file("new/deeper/A.model.swift"), contents: "a\n"),
            PlannedOutput(url: directory.file("blocker/B.model.swift"), contents: "b\n"),
        ]
        #expect(throws: OutputWriteError.self) { try OutputWriter.write(outputs) }
        #expect(try directory.listing() == ["blocker"])
    }

    @Test func folderInTheWayChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let existing = directory.file("A.model.swift")
        try Data("old\n".utf8).write(to: existing)
        try FileManager.default.createDirectory(at: directory.file("B.model.swift"), withIntermediateDirectories: false)
        let outputs = [
            PlannedOutput(url: existing, contents: "new\n"),
            PlannedOutput(url: directory.file("B.model.swift"), contents: "b\n"),
        ]
        #expect(throws: OutputWriteError.self) { try OutputWriter.write(outputs) }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "old\n")
        #expect(try directory.listing() == ["A.model.swift", "B.model.swift"])
    }
}
