import CLibPQ
import Foundation

/// A PostgreSQL connection URL, parsed: `postgresql://user:password@host:5432/database?option=value`
/// (also `postgres://`). Every part is optional and percent-decoded:
///
/// - `postgresql://app@db.example.com/shop`, `postgres://app:s%40cret@10.0.0.5:6432/shop`
/// - `postgresql://[::1]:5432/shop`, several hosts `postgresql://a:5432,b:5433/shop` (tried in turn)
/// - a Unix socket folder: `postgresql:///shop?host=/var/run/postgresql`, or `postgresql://%2Ftmp/shop`
/// - query options are libpq's connection keywords: `sslmode`, `connect_timeout`, `application_name`,
///   `options`, `target_session_attrs`, … (an unknown one is an error, not silently ignored), and
///   ModelStore's own `read_from=primary|standby|prefer-standby` (docs/Scaling.md), which libpq never sees
///
/// The URL becomes libpq keyword/value pairs (`connectionParameters`) given to
/// `PQconnectdbParams`: no connection string is ever built from text. `description` shows the URL
/// with the password replaced by `***`, and no parse error repeats the password.
package struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// One server address: a host name, an IP address or a Unix socket folder (starting with `/`),
    /// and a port (nil: libpq's default, 5432 or `PGPORT`).
    package struct Host: Sendable, Equatable {
        package var name: String?
        package var port: Int?

        package init(name: String?, port: Int? = nil) {
            self.name = name
            self.port = port
        }
    }

    /// The role to log in as (nil: libpq's default, `PGUSER` or the operating-system user).
    package var user: String?
    /// The password (nil: none, or from `PGPASSWORD` / `~/.pgpass`).
    package var password: String?
    /// The servers, tried in order; empty means libpq's default (`PGHOST` or the local socket).
    package var hosts: [Host]
    /// The database (nil: libpq's default, the user name).
    package var database: String?
    /// The other connection keywords from the query, sorted by keyword.
    package var options: [String: String]
    /// ModelStore's own query options (`read_from`), kept out of `connectionParameters`.
    var storeOptions: [String: String] = [:]

    /// The query options ModelStore reads itself, and the values each takes.
    static let storeKeywords: [String: [String]] = ["read_from": ["primary", "standby", "prefer-standby"]]

    /// The schemes accepted.
    package static let schemes = ["postgresql", "postgres"]

    /// Parses `string`.
    /// - Throws: `PostgresError` of kind `.invalidURL` naming what is wrong (never the password).
    package init(_ string: String) throws {
        self = try Parser.parse(string)
    }

    /// Parses `url`.
    /// - Throws: `PostgresError` of kind `.invalidURL` naming what is wrong (never the password).
    package init(url: URL) throws {
        try self.init(url.absoluteString)
    }

    /// Creates a URL from its parts.
    package init(user: String? = nil, password: String? = nil, hosts: [Host] = [], database: String? = nil, options: [String: String] = [:]) {
        self.user = user
        self.password = password
        self.hosts = hosts
        self.database = database
        self.options = options
    }

    /// Whether `url` has a PostgreSQL scheme (`postgresql:` or `postgres:`).
    package static func isPostgres(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return schemes.contains(scheme)
    }

    /// The libpq keyword/value pairs for `PQconnectdbParams` (with `expand_dbname` 0, so a database
    /// name is never read as a connection string). `client_encoding` is always UTF8.
    package var connectionParameters: [(keyword: String, value: String)] {
        var parameters: [(keyword: String, value: String)] = []
        if let user { parameters.append(("user", user)) }
        if let password { parameters.append(("password", password)) }
        if !hosts.isEmpty, options["host"] == nil {
            parameters.append(("host", hosts.map { $0.name ?? "" }.joined(separator: ",")))
        }
        if hosts.contains(where: { $0.port != nil }), options["port"] == nil {
            parameters.append(("port", hosts.map { $0.port.map(String.init) ?? "" }.joined(separator: ",")))
        }
        if let database, options["dbname"] == nil { parameters.append(("dbname", database)) }
        for key in options.keys.sorted() where key != "client_encoding" {
            parameters.append((key, options[key] ?? ""))
        }
        parameters.append(("client_encoding", "UTF8"))
        return parameters
    }

    /// The URL with the password replaced by `***`, percent-encoded again.
    package var description: String {
        var text = "postgresql://"
        if user != nil || password != nil {
            text += Parser.encode(user ?? "", Parser.userAllowed)
            if password != nil { text += ":***" }
            text += "@"
        }
        text += hosts.map { host in
            var part = host.name.map { name in name.contains(":") && !name.hasPrefix("/") ? "[\(name)]" : Parser.encode(name, Parser.hostAllowed) } ?? ""
            if let port = host.port { part += ":\(port)" }
            return part
        }.joined(separator: ",")
        if let database { text += "/" + Parser.encode(database, Parser.pathAllowed) }
        let query = options.merging(storeOptions) { libpq, _ in libpq }
        if !query.isEmpty {
            text += "?" + query.keys.sorted().map { key in
                let value = key == "password" ? "***" : Parser.encode(query[key] ?? "", Parser.queryAllowed)
                return Parser.encode(key, Parser.queryAllowed) + "=" + value
            }.joined(separator: "&")
        }
        return text
    }

    /// A short name of the server for error messages: socket folder or host and port, database, user.
    var target: String {
        let host = options["host"] ?? (hosts.isEmpty ? "the default socket" : hosts.map { ($0.name ?? "") + ($0.port.map { ":\($0)" } ?? "") }.joined(separator: ","))
        var text = host.hasPrefix("/") ? "socket folder \(host)" : host
        if let database = options["dbname"] ?? database { text += ", database \(database)" }
        if let user = options["user"] ?? user { text += ", user \(user)" }
        return text
    }
}

extension PostgresURL {
    /// The URL parser: RFC 3986's shape as libpq reads it, with clear errors.
    enum Parser {
        static let userAllowed = CharacterSet.urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/?#"))
        static let hostAllowed = CharacterSet.urlHostAllowed.subtracting(CharacterSet(charactersIn: ":@/?#,[]"))
        static let pathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))
        static let queryAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))

        static func encode(_ text: String, _ allowed: CharacterSet) -> String {
            text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }

        static func fail(_ problem: String) -> PostgresError {
            PostgresError(kind: .invalidURL, message: "invalid PostgreSQL URL: \(problem)")
        }

        /// The keywords libpq knows (`PQconndefaults`), read once.
        static let knownKeywords: Set<String> = {
            var keywords: Set<String> = []
            guard let options = PQconndefaults() else { return keywords }
            defer { PQconninfoFree(options) }
            var index = 0
            while let keyword = options[index].keyword {
                keywords.insert(String(cString: keyword))
                index += 1
            }
            return keywords
        }()

        static let sslModes: Set<String> = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

        static func parse(_ string: String) throws -> PostgresURL {
            guard let schemeEnd = string.range(of: "://") else {
                throw fail("it must start with postgresql:// or postgres://")
            }
            let scheme = string[..<schemeEnd.lowerBound].lowercased()
            guard PostgresURL.schemes.contains(scheme) else {
                throw fail("the scheme \"\(scheme.prefix(20))\" is not postgresql:// or postgres://")
            }
            var rest = Substring(string[schemeEnd.upperBound...])
            if rest.contains("#") { throw fail("a fragment (#…) has no meaning here; percent-encode a # in a name or password as %23") }
            var query: Substring = ""
            if let mark = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: mark)...]
                rest = rest[..<mark]
            }
            // The user information ends at the last `@` before the query, so an unencoded `/` or
            // `@` in a password does not move the host.
            var url = PostgresURL()
            if let at = rest.lastIndex(of: "@") {
                let userInfo = rest[..<at]
                rest = rest[rest.index(after: at)...]
                if let colon = userInfo.firstIndex(of: ":") {
                    url.user = try decodeNonEmpty(userInfo[..<colon], "user name")
                    url.password = try decode(userInfo[userInfo.index(after: colon)...], "password")
                } else {
                    url.user = try decodeNonEmpty(userInfo, "user name")
                }
            }
            let hostList: Substring
            if let slash = rest.firstIndex(of: "/") {
                hostList = rest[..<slash]
                let path = rest[rest.index(after: slash)...]
                if path.contains("/") { throw fail("the path must be one database name (percent-encode a / in it as %2F)") }
                url.database = try decodeNonEmpty(path, "database name")
            } else {
                hostList = rest
            }
            if !hostList.isEmpty {
                url.hosts = try hostList.split(separator: ",", omittingEmptySubsequences: false).map(parseHost)
            }
            if !query.isEmpty {
                for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                    guard let equals = pair.firstIndex(of: "=") else {
                        throw fail("the query option \"\(pair.prefix(40))\" has no value (write key=value)")
                    }
                    let key = try decode(pair[..<equals], "query option name")
                    let value = try decode(pair[pair.index(after: equals)...], "value of query option \(key)")
                    if let allowed = PostgresURL.storeKeywords[key] {
                        guard allowed.contains(value) else {
                            throw fail("\(key) must be one of \(allowed.joined(separator: ", ")), not \"\(value.prefix(40))\"")
                        }
                        guard url.storeOptions[key] == nil else { throw fail("the query option \"\(key)\" is given twice") }
                        url.storeOptions[key] = value
                        continue
                    }
                    guard knownKeywords.contains(key) else {
                        throw fail("unknown query option \"\(key)\" (libpq's connection keywords are accepted, e.g. sslmode, connect_timeout, application_name, host)")
                    }
                    guard url.options[key] == nil else { throw fail("the query option \"\(key)\" is given twice") }
                    url.options[key] = value
                }
            }
            try validate(url)
            return url
        }

        static func parseHost(_ text: Substring) throws -> Host {
            var name: Substring = text
            var port: Substring?
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { throw fail("an IPv6 address in [ ] has no closing ]") }
                name = text[text.index(after: text.startIndex)..<close]
                let after = text[text.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address [\(name)]") }
                    port = after.dropFirst()
                }
            } else if let colon = text.firstIndex(of: ":") {
                name = text[..<colon]
                port = text[text.index(after: colon)...]
            }
            var host = Host(name: try decodeNonEmpty(name, "host"))
            if let port {
                guard let number = Int(port), (1...65535).contains(number) else {
                    throw fail("the port of host \"\(host.name ?? "")\" is not a number from 1 to 65535")
                }
                host.port = number
            }
            return host
        }

        static func validate(_ url: PostgresURL) throws {
            if let port = url.options["port"] {
                for part in port.split(separator: ",", omittingEmptySubsequences: false) where !part.isEmpty {
                    guard let number = Int(part), (1...65535).contains(number) else {
                        throw fail("the port option is not a number from 1 to 65535")
                    }
                }
            }
            if let timeout = url.options["connect_timeout"], Int(timeout).map({ $0 >= 0 }) != true {
                throw fail("connect_timeout must be a whole number of seconds (0 or more)")
            }
            if let mode = url.options["sslmode"], !sslModes.contains(mode) {
                throw fail("sslmode must be one of \(sslModes.sorted().joined(separator: ", "))")
            }
            let hostCount = url.options["host"].map { $0.split(separator: ",", omittingEmptySubsequences: false).count } ?? url.hosts.count
            if let port = url.options["port"], hostCount > 1 {
                let portCount = port.split(separator: ",", omittingEmptySubsequences: false).count
                if portCount != 1, portCount != hostCount {
                    throw fail("\(hostCount) hosts but \(portCount) ports")
                }
            }
        }

        /// `text` percent-decoded; nil when empty.
        static func decodeNonEmpty(_ text: Substring, _ part: String) throws -> String? {
            let decoded = try decode(text, part)
            return decoded.isEmpty ? nil : decoded
        }

        /// `text` percent-decoded as UTF-8 (`+` stays `+`, as libpq reads it).
        static func decode(_ text: Substring, _ part: String) throws -> String {
            guard text.contains("%") else { return String(text) }
            var bytes: [UInt8] = []
            var iterator = Array(text.utf8).makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "%") else {
                    bytes.append(byte)
                    continue
                }
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw fail("the \(part) has a % that is not followed by two hexadecimal digits")
                }
                bytes.append(high << 4 | low)
            }
            guard !bytes.contains(0) else { throw fail("the \(part) contains a NUL byte (%00)") }
            let decoded = String(decoding: bytes, as: UTF8.self)
            guard decoded.utf8.elementsEqual(bytes) else {
                throw fail("the \(part) is not valid UTF-8 once percent-decoded")
            }
            return decoded
        }

        static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
