import Foundation

/// What to fetch: a predicate, an order, a window (SwiftData's `FetchDescriptor`).
public struct FetchDescriptor<T: PersistentModel> {
    /// Rows must satisfy it (translated to SQL; nil: every row of `T` and its subclasses).
    public var predicate: Predicate<T>?
    /// The order, on `T`'s own or inherited properties; ties keep store order.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many results.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int?
    /// The attributes to read (SwiftData's `propertiesToFetch`); empty: all of them. Only these
    /// columns (and the to-one keys) are read from the store; the model's other attributes hold a
    /// placeholder until first accessed (read or set), which loads them in one query for that
    /// model. Observation and change tracking see no difference. Attributes whose type has no
    /// placeholder (an enum with associated values, a struct holding one) are always read; a
    /// subclass's own attributes load later unless named through its own key paths.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Whether the context's unsaved changes count (SwiftData's default, true): models inserted
    /// and not saved are found, models deleted and not saved are left out, and changed models are
    /// judged and ordered on their values in memory. False: the store's answer, on saved values
    /// only (no inserted model; a model deleted in the context and not saved is still found).
    public var includePendingChanges: Bool = true
    /// Relationships of `T` (to-one or to-many) to load for every fetched model at once: one
    /// query per relationship for the whole result (two for a many-to-many), not one per model.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// Creates a descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

/// A `WHERE` condition in SQL with its bound values.
struct SQLFilter: Sendable, Equatable {
    /// The condition (uses `?` placeholders only; identifiers quoted).
    public var sql: String
    /// The values of the placeholders, in order.
    public var bindings: [SQLValue]

    /// Creates a filter.
    public init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }
}

extension FetchDescriptor {
    /// Throws `ModelStoreError.invalidFetch` naming a negative `fetchLimit` or `fetchOffset`:
    /// every fetch refuses them alike on every store (docs/Runtime.md, "Fetch windows").
    func checkWindow() throws {
        if let limit = fetchLimit, limit < 0 {
            throw ModelStoreError.invalidFetch("fetchLimit \(limit): a limit is 0 or more (nil for none)")
        }
        if let offset = fetchOffset, offset < 0 {
            throw ModelStoreError.invalidFetch("fetchOffset \(offset): an offset is 0 or more (nil for none)")
        }
    }
}
