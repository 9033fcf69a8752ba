import Testing
@testable import ModelGenKit

@Suite struct MustacheEngineTests {
    @Test func recursivePartialStopsWithAnError() throws {
        let renderer = MustacheRenderer(partials: ["loop": "x{{>loop}}"], maximumDepth: 10)
        #expect(throws: MustacheError.self) {
            try renderer.render(templateNamed: "loop", with: [:])
        }
    }

    @Test func sourceCodeEscapingPrintsValuesAsIs() throws {
        let template = try MustacheTemplate("let a: {{type}} = {{value}}")
        let renderer = MustacheRenderer(escaping: .none)
        let text = try renderer.render(template, with: ["type": "[String]", "value": "\"<&>\""])
        #expect(text == "let a: [String] = \"<&>\"")
    }

    @Test(arguments: ["{{#a}}", "{{/a}}", "{{#a}}{{/b}}", "{{name", "{{=<% %>", "{{= x =}}", "{{}}"])
    func malformedTemplateThrows(_ source: String) {
        #expect(throws: MustacheError.self) { try MustacheTemplate(source) }
    }

    @Test func errorsNameTheLine() {
        #expect(throws: MustacheError("line 3: {{a}} is never closed")) {
            try MustacheTemplate("one\ntwo\n{{#a}}\n")
        }
    }
}

@Suite struct MustacheLayerTests {
    @Test func overrideExtendsTheTemplateItReplaces() throws {
        let builtin = ["entity": "class {{name}} {\n    {{$body}}// nothing{{/body}}\n}\n"]
        let user = ["entity": "{{<entity}}{{$body}}let extra = 1{{/body}}{{/entity}}"]
        let renderer = MustacheRenderer(layers: [user, builtin], escaping: .none)
        let text = try renderer.render(templateNamed: "entity", with: ["name": "Trip"])
        #expect(text == "class Trip {\n    let extra = 1\n}\n")
    }

    @Test func otherNamesResolveFromTheFirstLayer() throws {
        let builtin = ["file": "{{>entity}}", "entity": "builtin"]
        let user = ["entity": "user"]
        let renderer = MustacheRenderer(layers: [user, builtin], escaping: .none)
        #expect(try renderer.render(templateNamed: "file", with: [:]) == "user")
    }
}
