import Foundation
import Testing
@testable import ModelStore

/// Multi-host URLs and ModelStore's own `read_from` option, without a server (docs/Scaling.md).
@Suite struct ClusterURLTests {
    static func parameters(_ url: PostgresURL) -> [String: String] {
        Dictionary(url.connectionParameters.map { ($0.keyword, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    @Test func readFromIsModelStoresOwnAndNeverReachesLibpq() throws {
        let url = try PostgresURL("postgresql://app:s3cret@h1,h2:5433,h3/shop?target_session_attrs=read-write&read_from=prefer-standby")
        #expect(url.storeOptions == ["read_from": "prefer-standby"])
        #expect(url.options == ["target_session_attrs": "read-write"])
        #expect(Self.parameters(url)["read_from"] == nil)
        #expect(Self.parameters(url)["host"] == "h1,h2,h3")
        #expect(Self.parameters(url)["port"] == ",5433,")
        #expect(url.description == "postgresql://app:***@h1,h2:5433,h3/shop?read_from=prefer-standby&target_session_attrs=read-write")
        #expect(try PostgresURL(url.description.replacingOccurrences(of: "***", with: "s3cret")) == url)
        for value in ["primary", "standby", "prefer-standby"] {
            #expect(try PostgresURL("postgresql:///db?read_from=\(value)").storeOptions["read_from"] == value)
            #expect(ModelConfiguration.ReadSource(rawValue: value) != nil)
        }
    }

    @Test func badReadFromValuesAreClearErrorsWithoutThePassword() {
        #expect { try PostgresURL("postgresql://u:hunter2@h/db?read_from=replica") } throws: {
            "\($0)" == "PostgreSQL error: invalid PostgreSQL URL: read_from must be one of primary, standby, prefer-standby, not \"replica\""
        }
        #expect { try PostgresURL("postgresql://u:hunter2@h/db?read_from=standby&read_from=primary") } throws: {
            "\($0)".contains("\"read_from\" is given twice") && !"\($0)".contains("hunter2")
        }
    }

    @Test func eachHostIsAStandbyCandidateOfItsOwn() throws {
        let query = try PostgresURL("postgresql:///app?host=/tmp/a,/tmp/b,/tmp/c&port=5432,5433,5434&user=u")
        let sockets = PostgresReadRouter.standbyURLs(query)
        #expect(sockets.map { $0.options["host"] } == ["/tmp/a", "/tmp/b", "/tmp/c"])
        #expect(sockets.map { $0.options["port"] } == ["5432", "5433", "5434"])
        #expect(sockets.allSatisfy { $0.options["target_session_attrs"] == "standby" && $0.database == "app" && $0.options["user"] == "u" })
        let hosts = try PostgresURL("postgresql://u@h1:6432,h2/app?port=")
        #expect(PostgresReadRouter.standbyURLs(hosts).map { Self.parameters($0)["host"] } == ["h1", "h2"])
        let onePort = try PostgresURL("postgresql:///app?host=/a,/b&port=5555")
        #expect(PostgresReadRouter.standbyURLs(onePort).map { $0.options["port"] } == ["5555", "5555"])
        let addresses = try PostgresURL("postgresql:///app?host=a,b&hostaddr=10.0.0.1,10.0.0.2")
        #expect(PostgresReadRouter.standbyURLs(addresses).count == 1)
    }

    @Test func walPositions() {
        #expect(PostgresReadRouter.parseLSN("0/3000060") == 0x3000060)
        #expect(PostgresReadRouter.parseLSN("1A/FF") == 0x1A_0000_00FF)
        #expect(PostgresReadRouter.parseLSN("nonsense") == nil)
        // An insert position just past a page header stands for the end of the page before.
        #expect(PostgresReadRouter.recordEnd(0x3002018) == 0x3002000)
        #expect(PostgresReadRouter.recordEnd(0x4000028) == 0x4000000)
        #expect(PostgresReadRouter.recordEnd(0x3002060) == 0x3002060)
    }

    @Test func aConfigurationCarriesItsReadSource() {
        var configuration = ModelConfiguration(url: URL(string: "postgresql:///app?read_from=standby")!)
        #expect(configuration.readFrom == nil && configuration.standbyCatchUpTimeout == 1)
        let plain = configuration
        configuration.readFrom = .preferStandby
        #expect(configuration != plain)
        #expect(ModelConfiguration.ReadSource.preferStandby.rawValue == "prefer-standby")
    }
}
