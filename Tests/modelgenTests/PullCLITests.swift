import Foundation
import Testing

/// `modelgen pull`'s refusals through the real binary (docs/CommandLine.md "modelgen pull"). What it
/// pulls from real stores, SQLite and PostgreSQL, written by an app the plugin built, is checked by
/// IntegrationTests (TripsDemo); what a store records, by ModelStoreTests' RecordedModelTests.
@Suite struct PullCLITests {
    @Test func usageErrorsExitWithStatusTwo() throws {
        let noURL = try ToolRunner.run(["pull"])
        #expect(noURL.status == 2)
        #expect(noURL.stderr.contains("no store: give --url URL"), "\(noURL.stderr)")
        let positional = try ToolRunner.run(["pull", "Trips.store"])
        #expect(positional.status == 2)
        #expect(positional.stderr.contains("the store is named by --url"), "\(positional.stderr)")
    }

    @Test func aMissingFileOrAFileThatIsNoStoreIsRefusedAndLeftAlone() throws {
        let root = try TemporaryFolder.make(["notes.txt": "not a database"], prefix: "modelgen-pull")
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try ToolRunner.run(["pull", "--url", "missing.store"], in: root)
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no store at") && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("missing.store").path))

        let notAStore = try ToolRunner.run(["pull", "--url", "notes.txt", "--output", "Out.model"], in: root)
        #expect(notAStore.status == 1)
        #expect(notAStore.stderr.hasPrefix("modelgen: "), "\(notAStore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Out.model").path))
        #expect(FileManager.default.contents(atPath: root.appendingPathComponent("notes.txt").path) == Data("not a database".utf8))
    }

    @Test func aPasswordInTheURLIsNeverPrinted() throws {
        // Nothing listens on this socket folder: the connection fails, and the error must not show the password.
        let pull = try ToolRunner.run(["pull", "--url", "postgresql://app:s3cret-word@/app?host=/nonexistent-modelgen-socket"])
        #expect(pull.status == 1)
        #expect(!pull.stderr.contains("s3cret-word"), "\(pull.stderr)")
    }
}
