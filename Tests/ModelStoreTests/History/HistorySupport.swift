import Foundation
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Reading history in tests.
extension ModelContext {
    /// Every transaction of the store's history, in token order.
    func allHistory() throws -> [DefaultHistoryTransaction] {
        try fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    }
}

extension HistoryChange {
    /// "insert", "update" or "delete", and the changed model, as text: `insert Trip/1`.
    var summary: String {
        let kind: String
        switch self {
        case .insert: kind = "insert"
        case .update: kind = "update"
        case .delete: kind = "delete"
        }
        return "\(kind) \(changedPersistentIdentifier)"
    }

    /// The change as a delete of a `Model` (the row's own class), if it is one.
    func delete<Model: PersistentModel>(of type: Model.Type) -> DefaultHistoryDelete<Model>? {
        if case .delete(let delete as DefaultHistoryDelete<Model>) = self { return delete }
        return nil
    }

    /// The change as an update of a `Model` (the row's own class), if it is one.
    func update<Model: PersistentModel>(of type: Model.Type) -> DefaultHistoryUpdate<Model>? {
        if case .update(let update as DefaultHistoryUpdate<Model>) = self { return update }
        return nil
    }

    /// The names of the updated properties of an update (empty for other changes).
    var updatedNames: [String] {
        guard case .update(let update) = self else { return [] }
        return Self.names(update)
    }

    private static func names<Update: HistoryUpdate>(_ update: Update) -> [String] {
        let keys = ModelPropertyKeys(Update.Model.self as! ModelObject.Type)
        return update.updatedAttributes.map { keys.name(of: $0) ?? "\($0)" }
    }
}

extension Array where Element == DefaultHistoryTransaction {
    /// Every change of the transactions, in order.
    var changes: [HistoryChange] { flatMap(\.changes) }

    /// The deletes of `Model` rows among the changes.
    func deletes<Model: PersistentModel>(of type: Model.Type) -> [DefaultHistoryDelete<Model>] {
        changes.compactMap { $0.delete(of: type) }
    }
}
