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
    /// Kept for SwiftData compatibility. Fetches read saved rows; models deleted but not
    /// saved are left out, models inserted but not saved are not found until `save()`.
    public var includePendingChanges: Bool = true

    /// Creates a descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

/// A `WHERE` condition in SQL with its bound values.
public struct SQLFilter: Sendable, Equatable {
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
