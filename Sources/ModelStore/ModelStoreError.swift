import Foundation

/// Errors thrown by ModelStore (SQLite's own errors are `SQLiteError`).
public enum ModelStoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A stored value cannot be read as its property's type (e.g. an enum raw value with no case):
    /// the row (nil when not known, as for saved values read back by `rollback()`), the property
    /// and the stored value as text.
    case corruptRow(entity: String, identifier: PersistentIdentifier?, property: String, storedValue: String)
    /// A model type is not part of the container's schema.
    case unknownEntity(String)
    /// The store was written by a schema that differs in a way that cannot migrate automatically.
    case incompatibleSchema([String])
    /// `save()` found a `.deny` relationship that still has related models.
    case deleteDenied(entity: String, relationship: String)
    /// A `#Predicate` uses an expression ModelStore cannot translate to SQL.
    case unsupportedPredicate(String)
    /// A model was used with a context it does not belong to (inserted into, or deleted from,
    /// a context other than its own): the entity name.
    case modelInOtherContext(String)
    /// A relationship joins models of two contexts (SwiftData: "Illegal attempt to establish a
    /// relationship between objects in different contexts"): the entity, the relationship and
    /// the related model's entity. Every affected context's `save()` throws until it is undone.
    case relationshipAcrossContexts(entity: String, relationship: String, relatedEntity: String)
    /// A save changes a row that is no longer in the store (another context or process deleted
    /// it): nothing was written, the changes stay pending.
    case rowMissing(entity: String, identifier: PersistentIdentifier)
    /// `save()` was called while a save of the same context (or of another context of the same
    /// container, on the same thread) was in progress, or while a model property was being set:
    /// nothing was written, the changes stay pending for the next `save()`.
    case saveInProgress
    /// A property holds a value the store cannot give back as it was (`Decimal.nan`, `Double.nan`,
    /// …): the entity, the property and why. Nothing was written.
    case unstorableValue(entity: String, property: String, reason: String)
    /// The store file is neither empty nor a ModelStore store: it was left untouched.
    case notAModelStore(path: String, reason: String)
    /// The schema declared in generated metadata is inconsistent.
    case invalidSchema(String)
    /// A configuration's URL names no store ModelStore has (only `file:`, `postgresql:` and `postgres:`).
    /// `url` is the URL with its secrets (the password, `password=` options…) replaced by `***`.
    case unsupportedStoreURL(scheme: String, url: String)
    /// `fetchHistory` was asked for transactions after a token, and history after that token
    /// was deleted (SwiftData's `historyTokenExpired`): fetch from the start again.
    case historyTokenExpired
    /// A stored history transaction or change cannot be read.
    case corruptHistory(String)
    /// A fetch descriptor or batch setting that cannot be used (a batch size below 1, a key path
    /// in `relationshipKeyPathsForPrefetching` that is not a relationship of the fetched entity).
    case invalidFetch(String)
    /// The block of `enumerate(_:batchSize:allowEscapingMutations:_:)` left unsaved changes in the
    /// context while `allowEscapingMutations` was false.
    case escapingMutations
    /// A model class whose entity the container's schema has, with another class (a frozen
    /// version's class where the container uses the current one, or the other way round): the
    /// entity, the class used, the schema's class and the schema's version when known.
    case entityClassMismatch(entity: String, modelClass: String, schemaClass: String, version: String?)
    /// A write to a store opened with `allowsSave: false` (the store's location): nothing was written.
    case readOnlyStore(String)
    /// A configuration asks for something that does not exist off Apple platforms (an app-group
    /// container, a CloudKit database): what and why.
    case unsupportedConfiguration(String)
    /// `save()` would leave a to-many relationship with fewer models than its `minimumModelCount`
    /// or more than its `maximumModelCount` (SwiftData's save fails too): the entity, the
    /// relationship, the count it would have and the limits (0: none). Nothing was written, the
    /// changes stay pending.
    case modelCountOutOfRange(entity: String, relationship: String, count: Int, minimumModelCount: Int, maximumModelCount: Int)

    public var description: String {
        switch self {
        case .corruptRow(let entity, let identifier, let property, let storedValue):
            let row = identifier.map { "the stored row \($0)" } ?? "a stored \(entity) row"
            return "\(row) cannot be read: its value \(storedValue) does not fit \(entity).\(property)"
                + " (fetch around it with a predicate that excludes it; fetchIdentifiers and fetchCount still work)"
        case .unknownEntity(let name):
            return "\(name) is not in the container's schema"
        case .incompatibleSchema(let differences):
            return "the store was written by an incompatible schema: " + differences.joined(separator: "; ")
        case .deleteDenied(let entity, let relationship):
            return "cannot delete \(entity): its relationship '\(relationship)' has the .deny rule and still has related models"
        case .unsupportedPredicate(let expression):
            return "predicate not supported: \(expression)"
        case .modelInOtherContext(let entity):
            return "a \(entity) model belongs to another context: a model lives in one context"
                + " (use model(for:) with its persistentModelID to get this context's instance); the call had no effect"
        case .relationshipAcrossContexts(let entity, let relationship, let relatedEntity):
            return "\(entity).\(relationship) relates a \(relatedEntity) model of another context: models of two contexts"
                + " cannot be related (SwiftData: \"Illegal attempt to establish a relationship between objects in different contexts\");"
                + " nothing was saved; relate models of one context (model(for:) gives this context's instance), or rollback()"
        case .rowMissing(let entity, let identifier):
            return "cannot save the changes of \(entity) \(identifier): its row is no longer in the store"
                + " (another context or process deleted it); nothing was written and the changes stay pending (rollback() discards them)"
        case .saveInProgress:
            return "save() was called while a save of this context (or of another context of the same container, on this thread)"
                + " or a change of one of its models was in progress; nothing was written: the changes stay pending, save again once it returns"
        case .unstorableValue(let entity, let property, let reason):
            return "cannot store \(entity).\(property): \(reason); nothing was written"
        case .notAModelStore(let path, let reason):
            return "\(path) is not a ModelStore store: \(reason); the file was left untouched"
                + " (ModelStore opens an empty file or a store it wrote, never another application's database)"
        case .invalidSchema(let message):
            return "invalid schema: \(message)"
        case .unsupportedStoreURL(let scheme, let url):
            let named = scheme.isEmpty ? "has no scheme" : "has the scheme '\(scheme)'"
            return "the store URL \(redactingPassword(url)) \(named): ModelStore opens file: URLs (SQLite) and postgresql:// or postgres:// URLs (PostgreSQL)"
        case .historyTokenExpired:
            return "the history after this token was deleted: fetch the history from its start again"
        case .corruptHistory(let message):
            return "unreadable history: \(message)"
        case .invalidFetch(let message):
            return "invalid fetch: \(message)"
        case .escapingMutations:
            return "the enumerate block left unsaved changes in the context: save them inside the block, or pass allowEscapingMutations: true"
        case .entityClassMismatch(let entity, let modelClass, let schemaClass, let version):
            let schema = version.map { "the container's schema (version \($0))" } ?? "the container's schema"
            return "\(modelClass) is not the class \(schema) uses for the entity \(entity), \(schemaClass):"
                + " use the schema's classes (make a version's nested names typealiases of them)"
        case .readOnlyStore(let location):
            return "the store \(location) was opened with allowsSave: false: nothing was written (the changes stay pending)"
        case .unsupportedConfiguration(let reason):
            return "unsupported ModelConfiguration: \(reason)"
        case .modelCountOutOfRange(let entity, let relationship, let count, let minimum, let maximum):
            let limit = maximum > 0 && count > maximum ? "more than its maximumModelCount \(maximum)" : "fewer than its minimumModelCount \(minimum)"
            return "a \(entity) would have \(count) model\(count == 1 ? "" : "s") in '\(relationship)', \(limit):"
                + " nothing was written, the changes stay pending"
        }
    }
}

/// `url` with its secrets replaced by `***`, for messages and errors: the user-info password and
/// the value of every query option whose name (decoded, any case) contains `pass`, `pwd`, `secret`
/// or `token` (`password=`, `sslpassword=`, `access_token=`…) (docs/Runtime.md, "Store URLs").
/// Text that is no URL is returned as it is.
func redactingPassword(_ url: String) -> String {
    guard var components = URLComponents(string: url) else { return url }
    var changed = false
    if components.password != nil {
        components.password = "***"
        changed = true
    }
    if let items = components.percentEncodedQueryItems {
        components.percentEncodedQueryItems = items.map { item in
            let name = (item.name.removingPercentEncoding ?? item.name).lowercased()
            guard item.value != nil, ["pass", "pwd", "secret", "token"].contains(where: name.contains) else { return item }
            changed = true
            return URLQueryItem(name: item.name, value: "***")
        }
    }
    guard changed else { return url }
    return components.string ?? url
}
