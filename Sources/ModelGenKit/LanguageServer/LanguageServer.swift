import Foundation

/// `modelgen lsp`: a Language Server Protocol server for `.model` and `.modelversion` files
/// (docs/Editors.md). It reads JSON-RPC messages, handles each in order, and sends responses and
/// notifications through `send`; `LanguageServer.serve` runs it over standard input and output.
///
/// Every change of a document re-parses that file, checks its schema again and publishes the
/// diagnostics of every file of the schema whose diagnostics changed.
package final class LanguageServer {
    /// What the server sends: a message body (one JSON value) to frame and write.
    private let send: (JSON) -> Void
    let workspace = Workspace()
    private var shutdownRequested = false
    /// The exit status, once `exit` arrived.
    package private(set) var exitStatus: Int32?
    /// The URI the editor used for each path (answers use the same spelling).
    private var uris: [String: String] = [:]
    /// The path of each URI seen (converting one is slow enough to show in a profile).
    private var paths: [String: String] = [:]
    /// What was last published per path, to publish only what changed.
    private var published: [String: JSON] = [:]
    private let version: String

    package init(version: String = "0.1.0", send: @escaping (JSON) -> Void) {
        self.version = version
        self.send = send
    }

    /// Serves over two file descriptors until `exit` (or the end of the input). Returns the exit
    /// status: 0 after `shutdown` then `exit`, 1 otherwise (as the protocol says).
    package static func serve(input: Int32 = 0, output: Int32 = 1, version: String = "0.1.0") -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let server = LanguageServer(version: version) { message in
            write(MessageFraming.frame(message.data), to: output)
        }
        var framing = MessageFraming()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while server.exitStatus == nil {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            framing.append(buffer[0..<count])
            while server.exitStatus == nil, let frame = framing.next() {
                switch frame {
                case .body(let body): server.handle(body)
                case .badHeader(let reason): server.logMessage("modelgen lsp: dropped a message: \(reason)")
                }
            }
        }
        return server.exitStatus ?? (server.shutdownRequested ? 0 : 1)
    }

    private static func write(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// The text the server holds for a document (what the editor's changes made of it).
    package func documentText(uri: String) -> String? {
        Self.path(ofURI: uri).flatMap { workspace.document($0)?.text }
    }

    // MARK: Dispatch

    /// Handles one message body (a request, a notification, or a response to the server, ignored).
    package func handle(_ body: Data) {
        guard let message = JSON.parse(body), message.object != nil else {
            respond(id: .null, error: (-32700, "the message is not a JSON object"))
            return
        }
        handle(message)
    }

    package func handle(_ message: JSON) {
        guard let method = message["method"]?.string else { return }
        let id = message["id"]
        let params = message["params"] ?? .null
        guard let id else {
            notification(method, params)
            return
        }
        if shutdownRequested {
            respond(id: id, error: (-32600, "the server is shutting down"))
            return
        }
        switch request(method, params) {
        case .success(let result): send(["jsonrpc": "2.0", "id": id, "result": result])
        case .failure(let failure): respond(id: id, error: (failure.code, failure.message))
        }
    }

    struct RequestFailure: Error {
        var code: Int
        var message: String

        static func invalidParams(_ message: String) -> RequestFailure { RequestFailure(code: -32602, message: message) }
    }

    private func respond(id: JSON, error: (code: Int, message: String)) {
        send(["jsonrpc": "2.0", "id": id, "error": ["code": .int(error.code), "message": .string(error.message)]])
    }

    private func request(_ method: String, _ params: JSON) -> Result<JSON, RequestFailure> {
        switch method {
        case "initialize": return .success(initialize(params))
        case "shutdown":
            shutdownRequested = true
            return .success(.null)
        case "textDocument/formatting": return withDocument(params) { formatting($0) }
        case "textDocument/documentSymbol": return withDocument(params) { documentSymbols($0) }
        case "textDocument/hover": return withPosition(params) { hover($0, $1) }
        case "textDocument/definition": return withPosition(params) { definition($0, $1) }
        case "textDocument/references":
            let includeDeclaration = params["context"]?["includeDeclaration"]?.bool ?? true
            return withPosition(params) { references($0, $1, includeDeclaration: includeDeclaration) }
        case "textDocument/prepareRename": return withPosition(params) { prepareRename($0, $1) }
        case "textDocument/rename":
            guard let newName = params["newName"]?.string else { return .failure(.invalidParams("rename needs newName")) }
            guard let path = path(params), let position = LSPPosition(params["position"]) else {
                return .failure(.invalidParams("rename needs textDocument and position"))
            }
            return rename(path, position, to: newName)
        case "textDocument/completion": return withPosition(params) { completion($0, $1) }
        case "textDocument/codeAction":
            guard let path = path(params) else { return .failure(.invalidParams("codeAction needs textDocument")) }
            return .success(codeActions(path, params["range"] ?? .null))
        default:
            return .failure(RequestFailure(code: -32601, message: "method not found: \(method)"))
        }
    }

    private func notification(_ method: String, _ params: JSON) {
        switch method {
        case "exit":
            exitStatus = shutdownRequested ? 0 : 1
        case "initialized":
            analyzeAndPublish(workspace.discover())
        case "textDocument/didOpen":
            guard let uri = params["textDocument"]?["uri"]?.string, let path = Self.path(ofURI: uri) else { return }
            uris[path] = uri
            workspace.openDocument(path, text: params["textDocument"]?["text"]?.string ?? "")
            analyzeAndPublish([workspace.ensureGroup(for: path)])
        case "textDocument/didChange":
            guard let path = path(params), workspace.open.contains(path) else { return }
            workspace.changeDocument(path) { document in
                for change in params["contentChanges"]?.array ?? [] {
                    let text = change["text"]?.string ?? ""
                    if let range = change["range"] {
                        document.replace(from: LSPPosition(range["start"]) ?? LSPPosition(line: 0, character: 0),
                                         to: LSPPosition(range["end"]) ?? LSPPosition(line: 0, character: 0), with: text)
                    } else {
                        document.replace(from: nil, to: nil, with: text)
                    }
                }
            }
            analyzeAndPublish([workspace.ensureGroup(for: path)])
        case "textDocument/didClose":
            guard let path = path(params) else { return }
            workspace.closeDocument(path)
            if workspace.document(path) == nil {
                // Deleted while open: nothing to check any more.
                analyzeAndPublish(workspace.discover())
                publish(path, [])
            } else {
                analyzeAndPublish([workspace.ensureGroup(for: path)])
            }
        case "workspace/didChangeWatchedFiles", "textDocument/didSave":
            let before = Set(published.keys)
            workspace.reloadClosedDocuments()
            let groups = workspace.discover()
            analyzeAndPublish(groups)
            let known = Set(groups.flatMap(\.paths))
            for path in before.subtracting(known) where Workspace.isModelFile(path) { publish(path, []) }
        default:
            break
        }
    }

    // MARK: Lifecycle

    private func initialize(_ params: JSON) -> JSON {
        var roots: [String] = []
        for folder in params["workspaceFolders"]?.array ?? [] {
            if let uri = folder["uri"]?.string, let path = Self.path(ofURI: uri) { roots.append(path) }
        }
        if roots.isEmpty, let uri = params["rootUri"]?.string, let path = Self.path(ofURI: uri) { roots.append(path) }
        if roots.isEmpty, let path = params["rootPath"]?.string, path.hasPrefix("/") { roots.append(Self.standardized(path)) }
        workspace.roots = roots
        return [
            "capabilities": [
                "positionEncoding": "utf-16",
                "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
                "documentFormattingProvider": true,
                "documentSymbolProvider": true,
                "hoverProvider": true,
                "definitionProvider": true,
                "referencesProvider": true,
                "renameProvider": ["prepareProvider": true],
                "completionProvider": ["triggerCharacters": ["@", ".", "\\", ":"]],
                "codeActionProvider": ["codeActionKinds": ["quickfix"]],
            ],
            "serverInfo": ["name": "modelgen", "version": .string(version)],
        ]
    }

    func logMessage(_ text: String) {
        send(["jsonrpc": "2.0", "method": "window/logMessage", "params": ["type": 3, "message": .string(text)]])
    }

    // MARK: Paths and URIs

    /// The file path of a `file:` URI (percent-decoded), nil for another scheme.
    static func path(ofURI uri: String) -> String? {
        guard uri.hasPrefix("file:"), let url = URL(string: uri), url.isFileURL else { return nil }
        let path = url.path
        return path.isEmpty ? nil : standardized(path)
    }

    static func standardized(_ path: String) -> String {
        let standard = (path as NSString).standardizingPath
        return standard.count > 1 && standard.hasSuffix("/") ? String(standard.dropLast()) : standard
    }

    func uri(_ path: String) -> String {
        uris[path] ?? URL(fileURLWithPath: path).absoluteString
    }

    private func path(_ params: JSON) -> String? {
        guard let uri = params["textDocument"]?["uri"]?.string else { return nil }
        if let known = paths[uri] { return known }
        let path = Self.path(ofURI: uri)
        if let path, paths.count < 100_000 { paths[uri] = path }
        return path
    }

    private func withDocument(_ params: JSON, _ body: (String) -> JSON) -> Result<JSON, RequestFailure> {
        guard let path = path(params) else { return .failure(.invalidParams("textDocument.uri is missing or not a file URI")) }
        guard workspace.document(path) != nil else { return .success(.null) }
        return .success(body(path))
    }

    private func withPosition(_ params: JSON, _ body: (String, Int) -> JSON) -> Result<JSON, RequestFailure> {
        guard let path = path(params), let position = LSPPosition(params["position"]) else {
            return .failure(.invalidParams("textDocument.uri or position is missing"))
        }
        guard let document = workspace.document(path) else { return .success(.null) }
        if workspace.group(of: path) == nil { analyzeAndPublish([workspace.ensureGroup(for: path)]) }
        return .success(body(path, document.offset(of: position)))
    }

    // MARK: Diagnostics

    func analyzeAndPublish(_ groups: [SchemaGroup]) {
        for group in groups {
            workspace.analyze(group)
            let warningsAsErrors = group.configuration.warningsAsErrors ?? false
            for path in group.paths {
                publish(path, (group.diagnostics[path] ?? []).map { diagnosticJSON($0, warningsAsErrors: warningsAsErrors) })
            }
            if let configuration = group.configurationPath {
                var diagnostics: [JSON] = []
                if let error = group.configurationError {
                    let zero = LSPPosition(line: 0, character: 0).json
                    diagnostics.append([
                        "range": ["start": zero, "end": zero], "severity": 1, "source": "modelgen", "message": .string(error),
                    ])
                }
                publish(configuration, diagnostics)
            }
        }
    }

    private func publish(_ path: String, _ diagnostics: [JSON]) {
        let value = JSON.array(diagnostics)
        if published[path] == value { return }
        if diagnostics.isEmpty, published[path] == nil { published[path] = value; return }
        published[path] = value
        send([
            "jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
            "params": ["uri": .string(uri(path)), "diagnostics": value],
        ])
    }

    /// A diagnostic as LSP has it: the rule id as `code`, the notes with a place as related
    /// information, the others after the message.
    func diagnosticJSON(_ diagnostic: Diagnostic, warningsAsErrors: Bool = false) -> JSON {
        let document = workspace.document(diagnostic.range.file) ?? TextDocument(bytes: [])
        var message = diagnostic.message
        var related: [JSON] = []
        for note in diagnostic.notes {
            if let range = note.range, let noteDocument = workspace.document(range.file) {
                related.append(["location": ["uri": .string(uri(range.file)), "range": noteDocument.range(of: range)], "message": .string(note.message)])
            } else {
                message += "\nnote: " + note.message
            }
        }
        let severity: Int
        switch diagnostic.severity {
        case .error: severity = 1
        case .warning: severity = warningsAsErrors ? 1 : 2
        case .note: severity = 3
        }
        var json: [String: JSON] = [
            "range": document.range(of: diagnostic.range), "severity": .int(severity), "code": .string(diagnostic.rule.rawValue),
            "source": "modelgen", "message": .string(message),
        ]
        if !related.isEmpty { json["relatedInformation"] = .array(related) }
        return .object(json)
    }
}
