import Foundation

extension PredicateExpressions.KeyPath: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        switch try context.translate(root) {
        case .model(let model):
            return try property(of: model, &context)
        case .toMany(let many):
            return try collectionProperty(of: many, &context)
        case .scalar(let value):
            return .scalar(try valueProperty(of: value))
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
            if IdentityKeyPaths<Root.Output>.contains(keyPath) || entity.metadata.identifierKeyPath.map({ $0 == keyPath }) == true {
                return .identifier(model)
            }
            throw PredicateTranslationError.unsupported("key path \(keyPath) is not a stored property of \(entity.name)")
        }
        if let stored = entity.storedAttribute(named: name), stored.isComposite {
            return .composite(.attribute(stored, of: model, &context))
        }
        if let attribute = entity.attribute(named: name) {
            return .scalar(ScalarTerm(model.column(attribute.column, &context), kind: .of(Output.self)))
        }
        guard let relationship = entity.relationship(named: name),
              let destination = context.schema.entity(named: relationship.destinationName) else {
            throw PredicateTranslationError.unsupported("key path \(keyPath) is not a stored property of \(entity.name)")
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
    private func valueProperty(of value: ScalarTerm) throws -> ScalarTerm {
        switch (kind, value.kind) {
        case (.collectionIsEmpty?, .string):
            return ScalarTerm("(\(value.fragment) = '')", kind: .plain)
        case (.collectionCount?, .string):
            return ScalarTerm("\(raw: PredicateFunctions.characterCount)(\(value.fragment))", kind: .plain)
        case (.collectionIsEmpty?, .jsonArray):
            return ScalarTerm("(json_array_length(\(value.fragment)) = 0)", kind: .plain)
        case (.collectionCount?, .jsonArray):
            return ScalarTerm("json_array_length(\(value.fragment))", kind: .plain)
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

/// `\Model.persistentModelID` (SwiftData's `PersistentIdentifier`) of a model
/// class, built for the class itself: a key path written on `Trip` equals one made generically
/// for `Root == Trip`, not one made for `ModelObject`.
struct IdentityKeyPaths<Root> {
    /// Whether `keyPath` is `Root`'s `persistentModelID`.
    static func contains(_ keyPath: AnyKeyPath) -> Bool {
        guard let model = Self.self as? any IdentityKeyPathList.Type else { return false }
        return model.keyPaths.contains(keyPath)
    }
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
