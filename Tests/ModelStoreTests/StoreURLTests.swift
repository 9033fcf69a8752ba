import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A configuration's URL names a store; anything else is refused before a file is written (#20, 1).
@Suite struct StoreURLTests {
    @Test("A URL of another scheme throws naming the scheme and writes nothing", arguments: [
        "https://example.com/modelstore-url-test-https",
        "ftp://host/modelstore-url-test-ftp",
        "sqlite:///tmp/modelstore-url-test-sqlite",
    ])
    func otherSchemesAreRefused(_ text: String) throws {
        let url = try #require(URL(string: text))
        let path = url.path
        #expect(!FileManager.default.fileExists(atPath: path))
        do {
            _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
            Issue.record("opened a store at \(text)")
        } catch let error as ModelStoreError {
            guard case .unsupportedStoreURL(let scheme, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(scheme == url.scheme)
            #expect(error.description.contains("'\(url.scheme!)'"))
        }
        #expect(!FileManager.default.fileExists(atPath: path), "a file was created at \(path)")
    }

    @Test("A URL with no scheme is refused, not taken for a path")
    func schemelessURLIsRefused() throws {
        let url = try #require(URL(string: "modelstore-url-test-relative.store"))
        #expect(throws: ModelStoreError.self) {
            _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
        }
        #expect(!FileManager.default.fileExists(atPath: "modelstore-url-test-relative.store"))
    }

    @Test("A password in a refused URL does not appear in the message")
    func passwordIsRedacted() throws {
        let url = try #require(URL(string: "mysql://user:secret@host/db"))
        do {
            _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
            Issue.record("opened a store at \(url)")
        } catch {
            #expect(!"\(error)".contains("secret"))
            #expect("\(error)".contains("'mysql'"))
        }
    }

    @Test("No secret of a refused URL appears in the error: the password, password= options (#26, 8)", arguments: [
        "mysql://user:hunter2@host/db?password=hunter3&user=bob",
        "redis://host/db?sslmode=require&PASSWORD=hunter3",
        "mysql://host/db?pass%77ord=hunter3&sslpassword=hunter4&access_token=hunter5&app=keep",
        "mongodb://u:hunter2@h/db?authSource=admin&pwd=hunter3#frag",
    ])
    func querySecretsAreRedacted(_ text: String) throws {
        let url = try #require(URL(string: text))
        do {
            _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
            Issue.record("opened a store at \(url)")
        } catch let error as ModelStoreError {
            guard case .unsupportedStoreURL(let scheme, let carried) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            for shown in ["\(error)", String(reflecting: error), carried] {
                #expect(!shown.contains("hunter"), "a secret in \(shown)")
            }
            #expect(carried.contains("***"))
            #expect("\(error)".contains("'\(scheme)'"))
            // What is no secret stays, so the URL can still be recognised.
            if text.contains("app=keep") { #expect(carried.contains("app=keep")) }
            if text.contains("user=bob") { #expect(carried.contains("user=bob")) }
        }
    }

    @Test("A file URL opens a SQLite store at its path")
    func fileURLOpensSQLite() throws {
        let store = try TemporaryStore()
        let container = try ModelContainer(for: Trip.self, configurations: store.configuration)
        let context = ModelContext(container)
        context.insert(Trip(name: "Lisbon", startDate: Day.at(0), endDate: Day.at(1)))
        try context.save()
        #expect(FileManager.default.fileExists(atPath: store.url.path))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}
