import Foundation

/// Which transactions of the history to fetch or delete, in which order (SwiftData's
/// `HistoryDescriptor`).
///
/// The predicate is translated to SQL. It may compare the transaction's `token` (with a
/// captured token), `transactionIdentifier` (an `Int64`), `timestamp` (a `Date`) and `author`
/// (a `String?`, with `==`, `!=`, `== nil`), combined with `&&`, `||` and `!`:
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// descriptor.predicate = #Predicate { $0.token > lastToken && $0.author == "widget" }
/// ```
///
/// `sortBy` may name `token`, `transactionIdentifier`, `timestamp` and `author`; results are in
/// token order otherwise (and within equal sort keys).
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// Transactions must satisfy it (nil: every transaction).
    public var predicate: Predicate<TransactionType>?
    /// The order of the results.
    public var sortBy: [SortDescriptor<TransactionType>]
    /// At most this many transactions.
    public var fetchLimit: Int?

    /// A descriptor of the transactions matching `predicate`.
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
        self.sortBy = []
    }

    /// A descriptor of the transactions matching `predicate`, in the order of `sortBy`.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>]) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
