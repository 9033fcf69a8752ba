import Foundation
import FuzzOracle
import ModelGenKit
import Testing

/// Replays every input the fuzzer ever found crashing, hanging or breaking a property
/// (`inputs/`, kept by `Scripts/fuzz.sh`), and the seed corpus (the `.model` files of the folders
/// `Tests/Fuzz/seed-folders.txt` lists, as the script seeds it), through the fuzz target's checks.
@Suite struct FuzzRegressionTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let inputs = here.appendingPathComponent("inputs")
    static let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func files(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The seed files: every `.model` file below each folder of `Tests/Fuzz/seed-folders.txt`.
    static func seeds() throws -> [URL] {
        let list = try String(contentsOf: root.appendingPathComponent("Tests/Fuzz/seed-folders.txt"), encoding: .utf8)
        var seeds: [URL] = []
        for line in list.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let folder = root.appendingPathComponent(String(line))
            let found = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
            try #require(!found.isEmpty, "seed folder \(line) is missing or empty")
            seeds += found.filter { $0.hasSuffix(".model") }.sorted().map { folder.appendingPathComponent($0) }
        }
        return seeds
    }

    @Test func keptInputsBehave() throws {
        for file in Self.files(in: Self.inputs) {
            let violations = FrontEndOracle.check(Array(try Data(contentsOf: file)))
            #expect(violations.isEmpty, "\(file.lastPathComponent): \(violations)")
        }
    }

    @Test func seedCorpusBehaves() throws {
        let files = try Self.seeds()
        #expect(files.count >= 50)
        for file in files {
            let violations = FrontEndOracle.check(Array(try Data(contentsOf: file)))
            #expect(violations.isEmpty, "\(file.lastPathComponent): \(violations)")
        }
    }

    /// The oracle itself notices broken positions (so the fuzz property can fail).
    @Test func lineOfOffsetCountsNewlinesOnly() {
        let bytes = Array("a\r\nb\rc\nd".utf8)
        #expect(FrontEndOracle.lineOfOffset(0, in: bytes) == 1)
        #expect(FrontEndOracle.lineOfOffset(3, in: bytes) == 2)
        #expect(FrontEndOracle.lineOfOffset(7, in: bytes) == 3)
        #expect(FrontEndOracle.lineOfOffset(8, in: bytes) == 3)
        #expect(FrontEndOracle.lineOfOffset(9, in: bytes) == nil)
    }

    @Test func positionOutsideTheInputIsAViolation() {
        let source = SourceFile(path: FrontEndOracle.path, text: "entity A {}\n")
        let outside = SourceRange(file: source.path, start: SourceLocation(line: 1, column: 1, offset: 0),
                                  end: SourceLocation(line: 3, column: 1, offset: 40))
        let wrongLine = SourceRange(file: source.path, start: SourceLocation(line: 2, column: 1, offset: 3),
                                    end: SourceLocation(line: 2, column: 1, offset: 3))
        let good = SourceRange(file: source.path, start: SourceLocation(line: 1, column: 8, offset: 7),
                               end: SourceLocation(line: 1, column: 9, offset: 8))
        func violations(_ range: SourceRange) -> Int {
            FrontEndOracle.positionViolations(range, of: .error(.syntax, "test", at: range), in: source).count
        }
        #expect(violations(outside) == 1)
        #expect(violations(wrongLine) == 1)
        #expect(violations(good) == 0)
    }
}
