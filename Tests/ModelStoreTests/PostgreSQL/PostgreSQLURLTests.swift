import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `PostgresURL`: the forms of docs/PostgreSQL.md and libpq's, percent-decoding, options, and clear errors
/// that never show the password.
@Suite struct PostgreSQLURLTests {
    static func parameters(_ url: PostgresURL) -> [String: String] {
        Dictionary(url.connectionParameters.map { ($0.keyword, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    @Test func fullURL() throws {
        let url = try PostgresURL("postgresql://app:s3cret@db.example.com:6432/shop?sslmode=require&application_name=Trips")
        #expect(url.user == "app")
        #expect(url.password == "s3cret")
        #expect(url.hosts == [.init(name: "db.example.com", port: 6432)])
        #expect(url.database == "shop")
        #expect(url.options == ["sslmode": "require", "application_name": "Trips"])
        #expect(Self.parameters(url) == ["user": "app", "password": "s3cret", "host": "db.example.com", "port": "6432",
                                         "dbname": "shop", "sslmode": "require", "application_name": "Trips",
                                         "client_encoding": "UTF8"])
    }

    @Test func postgresSchemeAndDefaults() throws {
        let url = try PostgresURL("postgres://db/shop")
        #expect(url.user == nil && url.password == nil)
        #expect(url.hosts == [.init(name: "db", port: nil)])
        #expect(Self.parameters(url) == ["host": "db", "dbname": "shop", "client_encoding": "UTF8"])
        #expect(try PostgresURL("POSTGRESQL://db").database == nil)
        let empty = try PostgresURL("postgresql://")
        #expect(empty.hosts.isEmpty && empty.database == nil)
        #expect(Self.parameters(empty) == ["client_encoding": "UTF8"])
    }

    @Test func unixSocketForms() throws {
        let query = try PostgresURL("postgresql:///shop?host=/var/run/postgresql")
        #expect(query.hosts.isEmpty)
        #expect(Self.parameters(query) == ["host": "/var/run/postgresql", "dbname": "shop", "client_encoding": "UTF8"])
        let encoded = try PostgresURL("postgresql://%2Ftmp%2Fpg%20sockets:5433/shop")
        #expect(encoded.hosts == [.init(name: "/tmp/pg sockets", port: 5433)])
        // The query's host wins over the authority's, as in libpq.
        let both = try PostgresURL("postgresql://ignored/shop?host=/sock")
        #expect(Self.parameters(both)["host"] == "/sock")
    }

    @Test func percentDecodingEverywhere() throws {
        let url = try PostgresURL("postgresql://us%40er:p%40ss%3Aw%2Fo%25rd@h/d%C3%A9j%C3%A0%20vu?application_name=a%26b%3Dc")
        #expect(url.user == "us@er")
        #expect(url.password == "p@ss:w/o%rd")
        #expect(url.database == "déjà vu")
        #expect(url.options["application_name"] == "a&b=c")
        // `+` is a plus, not a space (libpq's reading).
        #expect(try PostgresURL("postgresql://u:a+b@h/d").password == "a+b")
    }

    @Test func unencodedSlashOrAtInPasswordStaysInPassword() throws {
        let url = try PostgresURL("postgresql://u:pa/ss@w@host:5432/db")
        #expect(url.password == "pa/ss@w")
        #expect(url.hosts == [.init(name: "host", port: 5432)])
        #expect(url.database == "db")
    }

    @Test func ipv6AndSeveralHosts() throws {
        let v6 = try PostgresURL("postgresql://[::1]:5433/db")
        #expect(v6.hosts == [.init(name: "::1", port: 5433)])
        let many = try PostgresURL("postgresql://a:5432,b,[fe80::1]:5434/db?target_session_attrs=read-write")
        #expect(many.hosts.map(\.name) == ["a", "b", "fe80::1"])
        #expect(Self.parameters(many)["host"] == "a,b,fe80::1")
        #expect(Self.parameters(many)["port"] == "5432,,5434")
        #expect(Self.parameters(many)["target_session_attrs"] == "read-write")
    }

    @Test func descriptionHidesThePassword() throws {
        let url = try PostgresURL("postgresql://app:top%20secret@db:5432/shop?password=other&sslmode=disable")
        #expect(!url.description.contains("secret"))
        #expect(!url.description.contains("other"))
        #expect(url.description == "postgresql://app:***@db:5432/shop?password=***&sslmode=disable")
        #expect(try PostgresURL(url.description.replacingOccurrences(of: "***", with: "x")).hosts == url.hosts)
    }

    @Test func isPostgres() throws {
        #expect(PostgresURL.isPostgres(try #require(URL(string: "postgresql://h/d"))))
        #expect(PostgresURL.isPostgres(try #require(URL(string: "postgres:///d?host=/tmp"))))
        #expect(!PostgresURL.isPostgres(URL(fileURLWithPath: "/tmp/x.store")))
    }

    static let badURLs: [(url: String, problem: String)] = [
        ("mysql://u@h/d", "scheme \"mysql\""),
        ("h/d", "must start with postgresql://"),
        ("postgresql://h:port/d", "port of host \"h\" is not a number"),
        ("postgresql://h:0/d", "not a number from 1 to 65535"),
        ("postgresql://h:70000/d", "not a number from 1 to 65535"),
        ("postgresql://h/d/e", "one database name"),
        ("postgresql://h/d?sslmode", "has no value"),
        ("postgresql://h/d?color=blue", "unknown query option \"color\""),
        ("postgresql://h/d?sslmode=always", "sslmode must be one of"),
        ("postgresql://h/d?connect_timeout=soon", "connect_timeout must be a whole number"),
        ("postgresql://h/d?sslmode=require&sslmode=disable", "given twice"),
        ("postgresql://h/d%zz", "database name has a % that is not followed by two hexadecimal digits"),
        ("postgresql://h/d%00x", "NUL byte"),
        ("postgresql://h/d%FF", "not valid UTF-8"),
        ("postgresql://[::1/d", "no closing ]"),
        ("postgresql://[::1]x/d", "unexpected text after the IPv6 address"),
        ("postgresql://h/d#frag", "fragment"),
        ("postgresql://a,b/d?port=1,2,3", "2 hosts but 3 ports"),
    ]

    @Test(arguments: badURLs)
    func badURLsGiveAClearError(url: String, problem: String) {
        #expect {
            try PostgresURL(url)
        } throws: { error in
            guard let error = error as? PostgresError else { return false }
            return error.kind == .invalidURL && error.message.contains(problem) && error.description.hasPrefix("PostgreSQL error: invalid PostgreSQL URL")
        }
    }

    /// The password never appears in an error, wherever the mistake is.
    @Test(arguments: [
        "postgresql://u:hunter2@h:99999/d", "postgresql://u:hunter2@h/d?bogus=1", "postgresql://u:hunter2@h/d%zz",
        "postgresql://u:hunter2%zz@h/d", "postgresql://u:hunt/er2@h:x/d", "postgresql://u:hunter2@h/d?sslmode=hunter2",
    ])
    func errorsNeverShowThePassword(url: String) throws {
        let error = try #require(throws: PostgresError.self) { try PostgresURL(url) }
        #expect(!error.description.contains("hunter2"), "\(error)")
        #expect(!error.description.contains("hunt"), "\(error)")
    }
}
