import Foundation
import Testing

/// `modelgen import` through the real binary (docs/CommandLine.md "modelgen import"): exit
/// statuses, what is printed where, which files are written.
@Suite struct ImportCLITests {
    static let swift = """
        import SwiftData

        /// A journey.
        @Model final class Trip {
            var name: String
            var days: Int = 1
            var summary: String { name }
            init(name: String) { self.name = name }
        }

        """

    private func text(_ root: URL, _ path: String) -> String? {
        FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func importWritesTheModelAndReportsWhatItSkipped() throws {
        let root = try TemporaryFolder.make(["App/Models/Trip.swift": Self.swift], prefix: "modelgen-import")
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["import", "--output", "Model", "App"], in: root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "modelgen: imported 'Model/Trip.model'\n")
        #expect(output.stderr == "App/Models/Trip.swift:7: note: computed property 'Trip.summary' is not stored: put it in a Swift extension of the generated class ('extension Trip { … }')\n")
        #expect(text(root, "Model/Trip.model") == """
            // Imported from Trip.swift by 'modelgen import'.

            /// A journey.
            entity Trip {
                name: String
                days: Int = 1

                init(name)
            }

            """)
        // The written model lints clean and is formatted.
        #expect(try ToolRunner.run(["lint", "Model"], in: root).status == 0)
        #expect(try ToolRunner.run(["format", "--check", "Model"], in: root).status == 0)

        // Again: up to date. Edited by hand: refused without --force, replaced with it.
        let again = try ToolRunner.run(["import", "--output", "Model", "App"], in: root)
        #expect(again.status == 0)
        #expect(again.stdout == "modelgen: up to date 'Model/Trip.model'\n")
        try Data("entity Trip {}\n".utf8).write(to: root.appendingPathComponent("Model/Trip.model"))
        let refused = try ToolRunner.run(["import", "--output", "Model", "App"], in: root)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasSuffix("modelgen: 'Model/Trip.model' exists with other content: nothing written (give --force to replace)\n"))
        #expect(text(root, "Model/Trip.model") == "entity Trip {}\n")
        let forced = try ToolRunner.run(["import", "--force", "--output", "Model", "App"], in: root)
        #expect(forced.status == 0)
        #expect(text(root, "Model/Trip.model")?.contains("days: Int = 1") == true)
    }

    @Test func unreadableSwiftIsAnErrorAndWritesNothing() throws {
        let root = try TemporaryFolder.make(["Bad.swift": "@Model final class Trip {\n    var name: String\n"], prefix: "modelgen-import")
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["import", "--output", "Model", "Bad.swift"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr == """
            Bad.swift:3:1: error: expected '}' to close class 'Trip' but found the end of the file
            modelgen: 1 error in the Swift sources: nothing imported

            """)
        #expect(output.stdout.isEmpty)
        #expect(TemporaryFolder.listing(root) == ["Bad.swift"])
    }

    @Test func aModelWithErrorsIsWrittenAndExitsOne() throws {
        // A dictionary is not a type the model holds: the import is written, lint errors shown against it.
        let root = try TemporaryFolder.make(["Tags.swift": "@Model final class Tag {\n    var counts: [String: Int] = [:]\n}\n"], prefix: "modelgen-import")
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try ToolRunner.run(["import", "Tags.swift"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr.contains("Tags.swift:2: note: the default '[:]' of 'Tag.counts' is not a default the model can hold"))
        #expect(output.stderr.contains("Tags.model:4:13: error: "))
        #expect(output.stderr.hasSuffix("modelgen: the imported model has errors (above): edit it by hand until 'modelgen lint' passes\n"))
        #expect(text(root, "Tags.model") != nil)
    }

    @Test func badUsageExitsTwo() throws {
        let root = try TemporaryFolder.make(["Notes.txt": "x", "Empty/Readme.md": "x"], prefix: "modelgen-import")
        defer { try? FileManager.default.removeItem(at: root) }
        for (arguments, message) in [
            ([], "no input: give Swift files or folders holding '@Model' classes"),
            (["Missing.swift"], "no such file or folder: 'Missing.swift'"),
            (["Notes.txt"], "'Notes.txt' is not a .swift file"),
            (["Empty"], "no .swift file found in 'Empty'"),
        ] {
            let output = try ToolRunner.run(["import"] + arguments, in: root)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr == "modelgen: \(message); see 'modelgen help import'\n")
        }
        let help = try ToolRunner.run(["help", "import"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: modelgen import [--output DIR] [--force] INPUT..."))
    }
}
