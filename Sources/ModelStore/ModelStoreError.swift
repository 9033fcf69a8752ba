import Foundation

/// Errors thrown by ModelStore (SQLite's own errors are `SQLiteError`).
public enum ModelStoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A stored value cannot be read as its property's type (e.g. an enum raw value with no case).
    case corruptRow(entity: String, column: Int)
    /// A model type is not part of the container's schema.
    case unknownEntity(String)
    /// The store was written by a schema that differs in a way that cannot migrate automatically.
    case incompatibleSchema([String])
    /// `save()` found a `.deny` relationship that still has related models.
    case deleteDenied(entity: String, relationship: String)
    /// A `#Predicate` uses an expression ModelStore cannot translate to SQL.
    case unsupportedPredicate(String)
    /// A model was used with a context it does not belong to.
    case modelInOtherContext(String)
    /// The schema declared in generated metadata is inconsistent.
    case invalidSchema(String)
    /// A configuration's URL names no store ModelStore has (only `file:`, `postgresql:` and `postgres:`).
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

    public var description: String {
        switch self {
        case .corruptRow(let entity, let column):
            return "a stored \(entity) row has a value at attribute \(column) that does not fit its type"
        case .unknownEntity(let name):
            return "\(name) is not in the container's schema"
        case .incompatibleSchema(let differences):
            return "the store was written by an incompatible schema: " + differences.joined(separator: "; ")
        case .deleteDenied(let entity, let relationship):
            return "cannot delete \(entity): its relationship '\(relationship)' has the .deny rule and still has related models"
        case .unsupportedPredicate(let expression):
            return "predicate not supported: \(expression)"
        case .modelInOtherContext(let entity):
            return "a \(entity) model belongs to another context"
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
        }
    }
}

/// `url` with any password replaced by `***`, for messages.
func redactingPassword(_ url: String) -> String {
    guard var components = URLComponents(string: url), components.password != nil else { return url }
    components.password = "***"
    return components.string ?? url
}
