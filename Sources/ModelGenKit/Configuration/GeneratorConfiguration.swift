import Foundation

/// How diagnostics are printed (`--diagnostics-format`).
public enum DiagnosticsFormat: String, CaseIterable, Sendable {
    /// The diagnostic text of docs/CommandLine.md on standard error, then a summary line.
    case text
    /// One JSON array on standard output.
    case json
}

/// The settings of a `modelgen.json` file (docs/Plugins.md): the options of `modelgen generate` a target
/// keeps beside its models, read by both plugins and by `modelgen --config FILE`. Every key is
/// optional; command-line flags override the file.
///
///     {"accessLevel": "public", "warningsAsErrors": true, "templates": "Templates"}
///
/// Keys: `accessLevel` (`internal`, `public`, `package`), `warningsAsErrors` (a Boolean),
/// `templates` and `output` (folders, relative to the file's folder), `diagnosticsFormat`
/// (`text`, `json`). `--check` is not a setting (it asks one run to compare instead of writing).
public struct GeneratorConfiguration: Hashable, Sendable {
    /// The file name both plugins look for in a target's folder.
    public static let fileName = "modelgen.json"

    public var accessLevel: AccessLevel?
    public var warningsAsErrors: Bool?
    /// The templates folder, resolved against the configuration file's folder.
    public var templatesDirectory: URL?
    /// The output folder, resolved against the configuration file's folder.
    public var outputDirectory: URL?
    public var diagnosticsFormat: DiagnosticsFormat?
    /// `GeneratorOptions.modelsInVersion` (`"modelsInVersion": true`).
    public var modelsInVersion: Bool?

    public init(accessLevel: AccessLevel? = nil, warningsAsErrors: Bool? = nil, templatesDirectory: URL? = nil,
                outputDirectory: URL? = nil, diagnosticsFormat: DiagnosticsFormat? = nil, modelsInVersion: Bool? = nil) {
        self.modelsInVersion = modelsInVersion
        self.accessLevel = accessLevel
        self.warningsAsErrors = warningsAsErrors
        self.templatesDirectory = templatesDirectory
        self.outputDirectory = outputDirectory
        self.diagnosticsFormat = diagnosticsFormat
    }

    /// The keys a file may hold, in the order error messages list them.
    static let keys = ["accessLevel", "diagnosticsFormat", "modelsInVersion", "output", "templates", "warningsAsErrors"]

    /// Reads the configuration file at `url`.
    ///
    /// - Throws: `GeneratorError` of kind `.configuration` when the file cannot be read, is not a
    ///   JSON object, or holds an unknown key or a value of the wrong type or outside the allowed
    ///   ones; the message names the file and the key.
    public static func load(from url: URL) throws(GeneratorError) -> GeneratorConfiguration {
        // Messages name the file as it was given (relative to the working folder, when it was).
        let shown = url.relativePath
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw GeneratorError(.configuration, "cannot read configuration '\(shown)'")
        }
        return try parse(data, path: shown, folder: url.deletingLastPathComponent())
    }

    /// Parses the text of a configuration file found at `path`; relative folders resolve against `folder`.
    static func parse(_ data: Data, path: String, folder: URL) throws(GeneratorError) -> GeneratorConfiguration {
        func failure(_ message: String) -> GeneratorError {
            GeneratorError(.configuration, "\(path): \(message)")
        }
        let object: [String: JSONValue]
        do {
            object = try JSONDecoder().decode([String: JSONValue].self, from: data)
        } catch {
            throw failure("not a JSON object of settings (\(Self.reason(error)))")
        }
        var configuration = GeneratorConfiguration()
        for key in object.keys.sorted() {
            let value = object[key] ?? .null
            switch key {
            case "accessLevel":
                configuration.accessLevel = try choice(value, key: key, AccessLevel.self, failure)
            case "diagnosticsFormat":
                configuration.diagnosticsFormat = try choice(value, key: key, DiagnosticsFormat.self, failure)
            case "warningsAsErrors", "modelsInVersion":
                guard case .bool(let flag) = value else { throw failure("'\(key)' must be true or false, not \(value)") }
                if key == "warningsAsErrors" { configuration.warningsAsErrors = flag } else { configuration.modelsInVersion = flag }
            case "templates", "output":
                guard case .string(let relative) = value, !relative.isEmpty else {
                    throw failure("'\(key)' must be a folder path (a non-empty string), not \(value)")
                }
                let url = relative.hasPrefix("/")
                    ? URL(fileURLWithPath: relative, isDirectory: true)
                    : folder.appendingPathComponent(relative, isDirectory: true)
                if key == "templates" { configuration.templatesDirectory = url } else { configuration.outputDirectory = url }
            case "check":
                throw failure("'check' is not a setting: pass --check to the one run that should compare instead of write")
            default:
                throw failure("unknown key '\(key)' (known keys: \(keys.joined(separator: ", ")))")
            }
        }
        return configuration
    }

    private static func choice<Value: RawRepresentable & CaseIterable>(
        _ value: JSONValue, key: String, _ type: Value.Type, _ failure: (String) -> GeneratorError
    ) throws(GeneratorError) -> Value where Value.RawValue == String {
        let allowed = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case .string(let text) = value, let choice = Value(rawValue: text) else {
            throw failure("'\(key)' must be one of \(allowed), not \(value)")
        }
        return choice
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context): return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return context.debugDescription
        @unknown default: return "\(error)"
        }
    }
}

/// A JSON value, as a configuration file may hold one (to tell `true` from `1` and name what was found).
private enum JSONValue: Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array
    case object

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if (try? container.decode([JSONValue].self)) != nil {
            self = .array
        } else {
            _ = try container.decode([String: JSONValue].self)
            self = .object
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        case .string(let value): "\"\(value)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
