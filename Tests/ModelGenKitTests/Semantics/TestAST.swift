// Builds small ASTs directly, for semantic tests that do not need the parser.
// Every node gets its own line (in order of creation), so diagnostics can be told apart.
@testable import ModelGenKit

final class TestAST {
    let file: String
    private var line = 0

    init(file: String = "Test.model") { self.file = file }

    func range() -> SourceRange {
        line += 1
        return SourceRange(file: file, start: SourceLocation(line: line, column: 1, offset: line * 1000),
                           end: SourceLocation(line: line, column: 2, offset: line * 1000 + 1))
    }

    func id(_ name: String) -> Identifier { Identifier(name, range: range()) }

    /// `Trip?`, `[String]`, `PersonalTrip.Reason`, `[Accommodation]`.
    func type(_ spelled: String) -> TypeExpr {
        if spelled.hasSuffix("?") { return TypeExpr(.optional(type(String(spelled.dropLast()))), range: range()) }
        if spelled.hasPrefix("[") && spelled.hasSuffix("]") { return TypeExpr(.array(type(String(spelled.dropFirst().dropLast()))), range: range()) }
        return TypeExpr(.named(spelled.split(separator: ".").map { TypeNamePart(String($0)) }), range: range())
    }

    func expr(_ kind: ExpressionKind) -> Expression { Expression(kind, range: range()) }

    func property(_ name: String, _ type: String, default value: ExpressionKind? = nil, attributes: [AttributeDecl] = []) -> EntityMember {
        .property(PropertyDecl(doc: nil, attributes: attributes, hasVar: false, name: id(name), type: self.type(type),
                               defaultValue: value.map(expr), range: range()))
    }

    func initializer(_ parameters: [String], superArguments: [String]? = nil) -> EntityMember {
        let call = superArguments.map { SuperInitCall(arguments: $0.map(id), range: range()) }
        return .initializer(InitDecl(doc: nil, parameters: parameters.map(id), superInit: call, keywordRange: range(), range: range()))
    }

    func attribute(_ name: String, _ arguments: [(label: String?, value: ExpressionKind)] = []) -> AttributeDecl {
        AttributeDecl(name: id(name), arguments: arguments.map { AttributeArgument(label: $0.label.map(id), value: expr($0.value), range: range()) },
                      hasParentheses: !arguments.isEmpty, range: range())
    }

    func keyPath(_ root: String, _ property: String) -> ExpressionKind {
        .keyPath(KeyPathExpr(root: id(root), components: [id(property)], range: range()))
    }

    func member(_ name: String) -> ExpressionKind { .memberAccess(id(name)) }

    func enumeration(_ name: String, _ inheritance: [String], cases: [String]) -> EnumDecl {
        EnumDecl(doc: nil, name: id(name), inheritance: inheritance.map(id),
                 cases: cases.map { EnumCaseDecl(doc: nil, name: id($0), rawValue: nil, range: range()) }, range: range())
    }

    func entity(_ name: String, base: String? = nil, _ members: [EntityMember]) -> Declaration {
        .entity(EntityDecl(doc: nil, name: id(name), base: base.map(id), members: members, range: range()))
    }

    func container(_ name: String, _ entries: [String]) -> Declaration {
        .container(ContainerDecl(doc: nil, name: id(name), entries: entries.map(id), range: range()))
    }

    func file(_ declarations: [Declaration]) -> ModelFile {
        ModelFile(source: SourceFile(path: file, text: ""), declarations: declarations, comments: [])
    }
}
