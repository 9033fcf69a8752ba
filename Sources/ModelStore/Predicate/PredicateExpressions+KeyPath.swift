import Foundation

extension PredicateExpressions.KeyPath: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        switch try context.translate(root) {
        case .model(let model):
            return try property(of: model, &context)
        case .toMany(let many):
            return try collectionProperty(of: many, &context)
        case .scalar(let value):
            return .scalar(try valueProperty(of: value, context.dialect))
        case .identifier:
            throw PredicateTranslationError.unsupported("key path \(keyPath) on a persistentModelID")
        case .composite(let composite):
            return try composite.field(keyPath, valueType: Output.self, &context)
        }
    }

    /// A stored property of a model: an attribute column, a to-one key, a to-many relationship;
    /// or its `persistentModelID`.
    private func property(of model: ModelReference, _ context: inout TranslationContext) throws -> SQLTerm {
        let entity = model.entity
        guard let name = entity.property(forKeyPath: keyPath) else {
            if IdentityKeyPaths<Root.Output>.contains(keyPath, identifierIsIdentity: entity.metadata.identifierKeyPath != nil)
                || entity.metadata.identifierKeyPath.map({ $0 == keyPath }) == true {
                return .identifier(model)
            }
            throw PredicateTranslationError.unsupported("key path \(KeyPathText.describe(keyPath)) is not a stored property of \(entity.name)")
        }
        if let stored = entity.storedAttribute(named: name), stored.isComposite {
            return .composite(.attribute(stored, of: model, &context))
        }
        if let attribute = entity.attribute(named: name) {
            var term = ScalarTerm(model.column(attribute.column, &context), kind: .of(Output.self))
            term.isColumn = model.alias != nil
            return .scalar(term)
        }
        guard let relationship = entity.relationship(named: name),
              let destination = context.schema.entity(named: relationship.destinationName) else {
            throw PredicateTranslationError.unsupported("key path \(KeyPathText.describe(keyPath)) is not a stored property of \(entity.name)")
        }
        context.followedRelationships.append(relationship)
        if case .keyColumn(let column) = relationship.storage {
            return .model(ModelReference(entity: destination, alias: nil, key: model.column(column, &context)))
        }
        return .toMany(ToManyReference(relationship: relationship, destination: destination, ownerKey: model.key))
    }

    /// `isEmpty` and `count` of a to-many relationship.
    private func collectionProperty(of many: ToManyReference, _ context: inout TranslationContext) throws -> SQLTerm {
        let alias = context.freshAlias()
        let rows = try many.rows(alias: alias, &context)
        switch kind {
        case .collectionIsEmpty?:
            return .scalar(ScalarTerm("(NOT EXISTS (SELECT 1 \(rows)))", kind: .plain))
        case .collectionCount?:
            return .scalar(ScalarTerm("(SELECT count(*) \(rows))", kind: .plain))
        default:
            throw PredicateTranslationError.unsupported("key path \(keyPath) on a to-many relationship (only isEmpty and count)")
        }
    }

    /// Properties of values: `isEmpty` and `count` of strings and arrays, a date's time intervals.
    private func valueProperty(of value: ScalarTerm, _ dialect: any SQLDialect) throws -> ScalarTerm {
        switch (kind, value.kind) {
        case (.collectionIsEmpty?, .string):
            return ScalarTerm("(\(value.fragment) = '')", kind: .plain)
        case (.collectionCount?, .string):
            return ScalarTerm(dialect.characterCount(value.fragment), kind: .plain)
        case (.collectionIsEmpty?, .jsonArray):
            return ScalarTerm("(\(dialect.jsonArrayLength(value.fragment)) = 0)", kind: .plain)
        case (.collectionCount?, .jsonArray):
            return ScalarTerm(dialect.jsonArrayLength(value.fragment), kind: .plain)
        default:
            break
        }
        if keyPath == \Date.timeIntervalSinceReferenceDate {
            return ScalarTerm(value.fragment, kind: .plain)
        }
        if keyPath == \Date.timeIntervalSince1970 {
            return ScalarTerm("(\(value.fragment) + \(raw: "\(Date.timeIntervalBetween1970AndReferenceDate)"))", kind: .plain)
        }
        throw PredicateTranslationError.unsupported("key path \(keyPath)")
    }
}

/// `\Model.persistentModelID` (SwiftData's `PersistentIdentifier`) of a model class, as a key path
/// can be written for it: on the class itself (`\Trip.persistentModelID`, which equals one made
/// generically for `Root == Trip` through the class, not one made for `ModelObject`), and through
/// the `PersistentModel` protocol, as generic code over `T: PersistentModel` forms it
/// (`#Predicate<T> { $0.persistentModelID == id }`); with `id` through `Identifiable` when the
/// model's `id` is its identifier.
struct IdentityKeyPaths<Root> {
    /// Whether `keyPath` is `Root`'s `persistentModelID` (or its `id`, when `identifierIsIdentity`).
    static func contains(_ keyPath: AnyKeyPath, identifierIsIdentity: Bool = false) -> Bool {
        guard let model = Self.self as? any IdentityKeyPathList.Type else { return false }
        if model.keyPaths.contains(keyPath) { return true }
        guard let persistent = Root.self as? any PersistentModel.Type else { return false }
        return protocolKeyPaths(persistent, identifierIsIdentity: identifierIsIdentity).contains(keyPath)
    }
}

/// The identity key paths of `M` formed through `PersistentModel` (and `Identifiable` for `id`).
private func protocolKeyPaths<M: PersistentModel>(_ model: M.Type, identifierIsIdentity: Bool) -> [AnyKeyPath] {
    identifierIsIdentity ? [\M.persistentModelID, \M.id] : [\M.persistentModelID]
}

/// The identity key paths, available when the root is a model class.
protocol IdentityKeyPathList {
    static var keyPaths: [AnyKeyPath] { get }
}

extension IdentityKeyPaths: IdentityKeyPathList where Root: ModelObject {
    /// The generated `id` (the identity where the model declares no `id` attribute) is a member of
    /// each generated class, whose key path the class's metadata gives (`identifierKeyPath`).
    static var keyPaths: [AnyKeyPath] { [\Root.persistentModelID] }
}

/// A key path as an error message shows it: as Swift writes it (`\Trip.name`), but a computed
/// property, which Swift writes with its accessor's address (`\Trip.<computed 0x… (Bool)>`), as
/// `\Trip.<a computed property of type Bool>`: the address tells a reader nothing.
enum KeyPathText {
    static func describe(_ keyPath: AnyKeyPath) -> String {
        var text = String(reflecting: keyPath)
        while let start = text.range(of: "<computed "), let end = text[start.upperBound...].firstIndex(of: ">") {
            let inside = text[start.upperBound..<end]
            let type = inside.firstIndex(of: "(").map { inside[inside.index(after: $0)...].dropLast(inside.hasSuffix(")") ? 1 : 0) } ?? ""
            text.replaceSubrange(start.lowerBound...end, with: type.isEmpty ? "<a computed property>" : "<a computed property of type \(type)>")
        }
        return text
    }
}
