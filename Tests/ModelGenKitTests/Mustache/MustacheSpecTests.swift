import Foundation
import Testing
@testable import ModelGenKit

/// One case of the official Mustache spec (https://github.com/mustache/spec, copied into `spec/`).
struct MustacheSpecCase: Decodable, CustomTestStringConvertible, Sendable {
    var name: String
    var desc: String
    var data: MustacheValue
    var template: String
    var partials: [String: String]?
    var expected: String
    var file = ""

    enum CodingKeys: String, CodingKey { case name, desc, data, template, partials, expected }

    var testDescription: String { "\(file): \(name)" }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("spec")

    struct SpecFile: Decodable { var tests: [MustacheSpecCase] }

    /// Every case of every JSON file of the spec, in file then case order.
    static func all() throws -> [MustacheSpecCase] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try files.flatMap { file -> [MustacheSpecCase] in
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            return try JSONDecoder().decode(SpecFile.self, from: data).tests.map { test in
                var test = test
                test.file = file
                return test
            }
        }
    }
}

@Suite struct MustacheSpecTests {
    @Test func specFilesAreAllPresent() throws {
        let files = Set(try MustacheSpecCase.all().map(\.file))
        #expect(files == [
            "comments.json", "delimiters.json", "interpolation.json", "inverted.json",
            "partials.json", "sections.json", "~inheritance.json",
        ])
    }

    @Test(arguments: try MustacheSpecCase.all())
    func specCase(_ test: MustacheSpecCase) throws {
        let template = try MustacheTemplate(test.template)
        let renderer = MustacheRenderer(partials: test.partials ?? [:], escaping: .html)
        let rendered = try renderer.render(template, with: test.data)
        #expect(rendered == test.expected, "\(test.desc)\ntemplate: \(test.template.debugDescription)")
    }
}
