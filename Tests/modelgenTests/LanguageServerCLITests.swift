import Foundation
import Testing

/// `modelgen lsp` driven through the real binary by a JSON-RPC client (`LanguageServerClient`),
/// as an editor drives it: a workspace of two model files in a SwiftPM target folder.
@Suite struct LanguageServerCLITests {
    static let trips = """
    /// A journey with dates.
    entity Trip {
        name: String
        startDate: Date
        @Relationship(deleteRule: .cascade, inverse: \\Stay.trip)
        stays: [Stay] = []
        init(name, startDate)
    }

    entity BusinessTrip: Trip {
        company: String
        init(name, startDate, company) {
            super.init(name, startDate)
        }
    }

    """

    static let stays = """
    entity Stay {
        /// Where, in the café's own words: « ici ».
        name: String
        名前: String
        @Relationship(inverse: \\Trip.stays)
        trip: Trip?
        init(name, 名前)
    }

    container TripStore { Trip, Stay }

    """

    /// Applies LSP text edits (UTF-16 positions) to a text, computed here without the server's code.
    static func apply(_ edits: [[String: Any]], to text: String) -> String {
        var units = Array(text.utf16)
        func offset(_ position: [String: Any]) -> Int {
            let line = position["line"] as? Int ?? 0
            let character = position["character"] as? Int ?? 0
            var starts = [0]
            for (index, unit) in units.enumerated() where unit == 10 { starts.append(index + 1) }
            guard line < starts.count else { return units.count }
            let end = line + 1 < starts.count ? starts[line + 1] - 1 : units.count
            return min(starts[line] + character, end)
        }
        let sorted = edits.sorted {
            let a = ($0["range"] as? [String: Any])?["start"] as? [String: Any] ?? [:]
            let b = ($1["range"] as? [String: Any])?["start"] as? [String: Any] ?? [:]
            return (a["line"] as? Int ?? 0, a["character"] as? Int ?? 0) > (b["line"] as? Int ?? 0, b["character"] as? Int ?? 0)
        }
        for edit in sorted {
            let range = edit["range"] as? [String: Any] ?? [:]
            let lower = offset(range["start"] as? [String: Any] ?? [:])
            let upper = offset(range["end"] as? [String: Any] ?? [:])
            units.replaceSubrange(lower..<max(lower, upper), with: Array((edit["newText"] as? String ?? "").utf16))
        }
        return String(decoding: units, as: UTF16.self)
    }

    static func result(_ response: [String: Any]) -> Any? { response["result"] }

    static func ranges(_ locations: Any?) -> [String] {
        ((locations as? [[String: Any]]) ?? []).map { location in
            let uri = (location["uri"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
            let range = location["range"] as? [String: Any] ?? [:]
            let start = range["start"] as? [String: Any] ?? [:]
            let end = range["end"] as? [String: Any] ?? [:]
            return "\(uri):\(start["line"] ?? -1):\(start["character"] ?? -1)-\(end["line"] ?? -1):\(end["character"] ?? -1)"
        }.sorted()
    }

    @Test func sessionOfEveryFeature() throws {
        let root = try TemporaryFolder.make(["Sources/App/Trips.model": Self.trips, "Sources/App/Stays.model": Self.stays], prefix: "modelgen-lsp")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Sources/App")
        let tripsURI = folder.appendingPathComponent("Trips.model").absoluteString
        let staysURI = folder.appendingPathComponent("Stays.model").absoluteString
        let client = try LanguageServerClient()

        let initialized = try client.request("initialize", ["processId": NSNull(), "rootUri": root.absoluteString, "capabilities": [:],
                                                            "workspaceFolders": [["uri": root.absoluteString, "name": "root"]]])
        let capabilities = (Self.result(initialized) as? [String: Any])?["capabilities"] as? [String: Any] ?? [:]
        #expect((capabilities["textDocumentSync"] as? [String: Any])?["change"] as? Int == 2)
        #expect(capabilities["renameProvider"] != nil && capabilities["hoverProvider"] as? Bool == true)
        try client.notify("initialized", [:])
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": staysURI, "languageId": "model", "version": 1, "text": Self.stays]])

        // An incremental edit after text outside ASCII: `名前: String` → `名前: Strng` (UTF-16
        // character 8 is byte 12).
        try client.notify("textDocument/didChange", [
            "textDocument": ["uri": staysURI, "version": 2],
            "contentChanges": [["range": range(3, 8, 3, 14), "text": "Strng"]],
        ])
        let errors = try client.diagnostics(for: staysURI) { !$0.isEmpty }
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect(error["code"] as? String == "unknown-type")
        #expect(error["severity"] as? Int == 1)
        #expect(error["source"] as? String == "modelgen")
        #expect((error["message"] as? String)?.contains("did you mean 'String'?") == true)
        #expect(Self.ranges([["uri": staysURI, "range": error["range"] ?? [:]]]) == ["Stays.model:3:8-3:13"])

        // The quick fix puts the right name back.
        let actions = try #require(Self.result(try client.request("textDocument/codeAction", [
            "textDocument": ["uri": staysURI], "range": range(3, 8, 3, 13), "context": ["diagnostics": errors],
        ])) as? [[String: Any]])
        #expect(actions.count == 1)
        let action = try #require(actions.first)
        #expect(action["kind"] as? String == "quickfix")
        let fix = try #require(((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[staysURI] as? [[String: Any]])
        let broken = Self.stays.replacingOccurrences(of: "名前: String", with: "名前: Strng")
        #expect(Self.apply(fix, to: broken) == Self.stays)
        try client.notify("textDocument/didChange", [
            "textDocument": ["uri": staysURI, "version": 3],
            "contentChanges": fix.map { ["range": $0["range"] ?? [:], "text": $0["newText"] ?? ""] },
        ])
        #expect(try client.diagnostics(for: staysURI) { $0.isEmpty }.isEmpty)

        // Definition: `Trip` in `trip: Trip?` is declared in the other file.
        let definition = Self.result(try client.request("textDocument/definition", ["textDocument": ["uri": staysURI], "position": position(5, 12)]))
        #expect(Self.ranges([definition as? [String: Any] ?? [:]]) == ["Trips.model:1:7-1:11"])
        // An inverse key path leads to the property.
        let inverse = Self.result(try client.request("textDocument/definition", ["textDocument": ["uri": staysURI], "position": position(4, 34)]))
        #expect(Self.ranges([inverse as? [String: Any] ?? [:]]) == ["Trips.model:5:4-5:9"])

        // References of `stays`: its declaration and the inverse key path of the other file.
        let references = Self.result(try client.request("textDocument/references", [
            "textDocument": ["uri": staysURI], "position": position(4, 34), "context": ["includeDeclaration": true],
        ]))
        #expect(Self.ranges(references) == ["Stays.model:4:33-4:38", "Trips.model:5:4-5:9"])
        // Of `name`: the declaration, the init parameters and the `super.init` argument.
        let names = Self.result(try client.request("textDocument/references", [
            "textDocument": ["uri": tripsURI], "position": position(2, 5), "context": ["includeDeclaration": false],
        ]))
        #expect(Self.ranges(names) == ["Trips.model:11:9-11:13", "Trips.model:12:19-12:23", "Trips.model:6:9-6:13"])

        // Hover: a property's attributes, declaration and doc comment; an entity's subclasses.
        let hoverTrip = try #require(((Self.result(try client.request("textDocument/hover", ["textDocument": ["uri": staysURI], "position": position(5, 5)])) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        #expect(hoverTrip.contains("@Relationship(inverse: \\Trip.stays)\ntrip: Trip?"))
        #expect(hoverTrip.contains("Property of entity `Stay`"))
        let hoverName = try #require(((Self.result(try client.request("textDocument/hover", ["textDocument": ["uri": staysURI], "position": position(2, 6)])) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        #expect(hoverName.contains("Where, in the café's own words: « ici »."))
        let hoverEntity = try #require(((Self.result(try client.request("textDocument/hover", ["textDocument": ["uri": tripsURI], "position": position(1, 9)])) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        #expect(hoverEntity.contains("entity Trip") && hoverEntity.contains("Subclasses: `BusinessTrip`") && hoverEntity.contains("A journey with dates."))

        // Completion: properties of the key path's root, delete rules, types.
        func labels(_ response: [String: Any]) -> [String] {
            ((Self.result(response) as? [[String: Any]]) ?? []).compactMap { $0["label"] as? String }
        }
        #expect(labels(try client.request("textDocument/completion", ["textDocument": ["uri": staysURI], "position": position(4, 33)])) == ["name", "startDate", "stays"])
        try client.notify("textDocument/didChange", [
            "textDocument": ["uri": staysURI, "version": 4],
            "contentChanges": [["range": range(8, 0, 8, 0), "text": "entity Note {\n    @Relationship(deleteRule: .\n    stay: \n}\n"]],
        ])
        #expect(labels(try client.request("textDocument/completion", ["textDocument": ["uri": staysURI], "position": position(9, 31)])) == ["cascade", "nullify", "deny", "noAction"])
        let types = labels(try client.request("textDocument/completion", ["textDocument": ["uri": staysURI], "position": position(10, 10)]))
        #expect(types.contains("Stay") && types.contains("Trip") && types.contains("String") && types.contains("UUID"))
        try client.notify("textDocument/didChange", [
            "textDocument": ["uri": staysURI, "version": 5], "contentChanges": [["text": Self.stays]],
        ])

        // Document symbols of the other file (not open: read from disk).
        let symbols = try #require(Self.result(try client.request("textDocument/documentSymbol", ["textDocument": ["uri": tripsURI]])) as? [[String: Any]])
        #expect(symbols.compactMap { $0["name"] as? String } == ["Trip", "BusinessTrip"])
        #expect(((symbols.first?["children"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String } == ["name", "startDate", "stays", "init(name, startDate)"])

        // Rename the entity from a use in the other file: every reference in both files.
        let rename = try #require(Self.result(try client.request("textDocument/rename", [
            "textDocument": ["uri": staysURI], "position": position(5, 12), "newName": "Journey",
        ])) as? [String: Any])
        let changes = try #require(rename["changes"] as? [String: [[String: Any]]])
        #expect(changes[tripsURI]?.count == 2)
        #expect(changes[staysURI]?.count == 3)
        let renamedTrips = Self.apply(changes[tripsURI] ?? [], to: Self.trips)
        let renamedStays = Self.apply(changes[staysURI] ?? [], to: Self.stays)
        #expect(renamedTrips.contains("entity Journey {") && renamedTrips.contains("entity BusinessTrip: Journey {"))
        #expect(renamedStays.contains("inverse: \\Journey.stays") && renamedStays.contains("trip: Journey?") && renamedStays.contains("{ Journey, Stay }"))
        // Rename a property: its inverse key path in the other file follows.
        let renameProperty = try #require(Self.result(try client.request("textDocument/rename", [
            "textDocument": ["uri": tripsURI], "position": position(5, 6), "newName": "visits",
        ])) as? [String: Any])
        let propertyChanges = try #require(renameProperty["changes"] as? [String: [[String: Any]]])
        let visits = Self.apply(propertyChanges[staysURI] ?? [], to: Self.stays)
        #expect(visits.contains("inverse: \\Trip.visits"))
        // The renamed files check (the oracle: `modelgen lint` on them).
        let renamed = try TemporaryFolder.make(["Trips.model": renamedTrips, "Stays.model": renamedStays], prefix: "modelgen-lsp-renamed")
        defer { try? FileManager.default.removeItem(at: renamed) }
        let lint = try ToolRunner.run(["lint", renamed.path])
        #expect(lint.status == 0, "\(lint.stderr)")
        // A name that is not one is refused.
        let refused = try client.request("textDocument/rename", ["textDocument": ["uri": staysURI], "position": position(5, 12), "newName": "2x"])
        #expect((refused["error"] as? [String: Any])?["code"] as? Int == -32602)

        // Formatting gives `modelgen format`'s text.
        let messy = "entity   Trip{\nname:String\n   @Attribute(.unique) code :String}\n"
        try client.notify("textDocument/didChange", ["textDocument": ["uri": staysURI, "version": 6], "contentChanges": [["text": messy]]])
        let edits = try #require(Self.result(try client.request("textDocument/formatting", [
            "textDocument": ["uri": staysURI], "options": ["tabSize": 4, "insertSpaces": true],
        ])) as? [[String: Any]])
        let messyFolder = try TemporaryFolder.make(["Messy.model": messy], prefix: "modelgen-lsp-format")
        defer { try? FileManager.default.removeItem(at: messyFolder) }
        let formatted = try ToolRunner.run(["format", messyFolder.appendingPathComponent("Messy.model").path])
        #expect(formatted.status == 0)
        #expect(Self.apply(edits, to: messy) == formatted.stdout)

        // Shutdown, then exit: status 0; requests in between are refused.
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        let late = try client.request("textDocument/hover", ["textDocument": ["uri": staysURI], "position": position(0, 0)])
        #expect((late["error"] as? [String: Any])?["code"] as? Int == -32600)
        try client.notify("exit", [:])
        #expect(try client.finish() == 0)
    }

    @Test func exitWithoutShutdownIsStatusOne() throws {
        let client = try LanguageServerClient()
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [:]])
        try client.notify("exit", [:])
        #expect(try client.finish() == 1)
    }

    @Test func brokenMessagesGetErrorsAndTheServerGoesOn() throws {
        let client = try LanguageServerClient(arguments: ["lsp", "--stdio"])
        client.write(raw: Data("Content-Length: 5\r\n\r\n{oops".utf8))
        let parseError = try client.wait(what: "the parse error") { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
        #expect(parseError["id"] is NSNull)
        let unknown = try client.request("textDocument/unknownThing", [:])
        #expect((unknown["error"] as? [String: Any])?["code"] as? Int == -32601)
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        try client.notify("exit", [:])
        #expect(try client.finish() == 0)
    }

    @Test func commandLine() throws {
        let help = try ToolRunner.run(["help", "lsp"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: modelgen lsp [--stdio]"))
        #expect(try ToolRunner.run(["--help"]).stdout.contains("  modelgen lsp\n"))
        let extra = try ToolRunner.run(["lsp", "Models"])
        #expect(extra.status == 2)
        #expect(extra.stderr.contains("'lsp' takes no input"))
    }
}
