import Foundation
import Testing
import ModelStore
@testable import StoreTestSupport

/// The throwaway server leaves nothing behind: its watchdog stops it and removes its folder when
/// the process that owns it dies (here a `sleep` killed with SIGKILL, as a crashed or killed test
/// process would be), and the next start removes folders whose owner is gone.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MODELSTORE_TEST_POSTGRES_URL"] == nil))
struct PostgreSQLTestServerTests {
    @Test func serverStopsAndFolderGoesWhenItsOwnerIsKilled() throws {
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: "/bin/sleep")
        owner.arguments = ["120"]
        try owner.run()
        let environment = ProcessInfo.processInfo.environment
        let cluster = try ThrowawayCluster.create(binaries: PostgresTestServer.findBinaries(environment),
                                                  runAs: PostgresTestServer.runUser(environment), owner: owner.processIdentifier)
        let url = PostgresURL(user: "postgres", database: "postgres", options: ["host": cluster.folder])
        try cluster.waitUntilReady(url: url)
        let server = try #require(cluster.serverPID)
        let connection = try PostgresConnection(url: url)
        #expect(try connection.rows("SELECT 1") == [[.integer(1)]])
        #expect(try connection.rows("SHOW listen_addresses") == [[.text("")]], "socket only, no TCP")

        kill(owner.processIdentifier, SIGKILL)
        owner.waitUntilExit()
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline, FileManager.default.fileExists(atPath: cluster.folder) || kill(server, 0) == 0 {
            usleep(20_000)
        }
        #expect(!FileManager.default.fileExists(atPath: cluster.folder))
        #expect(kill(server, 0) != 0, "the server process \(server) still runs")
        let error = try #require(throws: PostgresError.self) { try connection.rows("SELECT 1") }
        #expect(error.kind == .connectionFailed || error.kind == .connectionLost, "\(error)")
    }

    @Test func foldersOfGoneOwnersAreRemovedAtTheNextStart() throws {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        var template = Array("\(ThrowawayCluster.parent)/\(ThrowawayCluster.folderPrefix)XXXXXX".utf8CString)
        let folder = String(cString: try #require(mkdtemp(&template)))
        try String(gone.processIdentifier).write(toFile: folder + "/owner", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        // A live owner's folder stays.
        var liveTemplate = Array("\(ThrowawayCluster.parent)/\(ThrowawayCluster.folderPrefix)XXXXXX".utf8CString)
        let live = String(cString: try #require(mkdtemp(&liveTemplate)))
        defer { try? FileManager.default.removeItem(atPath: live) }
        try String(getpid()).write(toFile: live + "/owner", atomically: false, encoding: .utf8)

        ThrowawayCluster.removeStale()
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    @Test func sharedServerRunsAsAnotherUserOnASocketOnly() throws {
        let server = try PostgresTestServer.shared()
        #expect(server.isThrowaway)
        let folder = try #require(server.folder)
        let connection = try server.adminConnection()
        #expect(try connection.rows("SHOW listen_addresses") == [[.text("")]])
        #expect(try connection.rows("SHOW unix_socket_directories") == [[.text(folder)]])
        #expect(try connection.rows("SHOW fsync") == [[.text("off")]])
        if geteuid() == 0 {
            let owner = try FileManager.default.attributesOfItem(atPath: folder)[.ownerAccountID] as? NSNumber
            #expect(owner.map { $0.intValue != 0 } == true, "the cluster is not root's")
        }
        #expect(server.startSeconds > 0 && server.startSeconds < 30)
    }
}
