import Foundation
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A store file in a fresh temporary directory, removed when released.
final class TemporaryStore {
    let directory: URL
    let url: URL

    init(name: String = "test.store") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelstore-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent(name)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var configuration: ModelConfiguration { ModelConfiguration(url: url) }

    /// A raw connection to the file, for checking what is really stored.
    func rawConnection() throws -> SQLiteConnection {
        try SQLiteConnection(path: url.path, isFile: true)
    }
}

/// Dates used across tests.
enum Day {
    static func at(_ day: Int) -> Date { Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(day) * 86_400) }
}
