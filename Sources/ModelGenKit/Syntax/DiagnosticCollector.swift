/// Collects the syntax diagnostics of one file, up to a limit, so that garbage input stays fast:
/// past `limit` errors one final "too many errors" diagnostic is added and the rest are dropped.
struct DiagnosticCollector {
    /// The most errors one file reports before giving up.
    static let defaultLimit = 100

    private(set) var diagnostics: [Diagnostic] = []
    private(set) var isFull = false
    let limit: Int

    init(limit: Int = DiagnosticCollector.defaultLimit) {
        self.limit = limit
    }

    /// The message of the diagnostic that ends a full collector.
    static let tooManyMessage = "too many errors in this file; stopping here"

    /// Adds a `syntax` error at `range` (ignored once the collector is full). With `force`, the
    /// error is the final "too many errors" one whatever the count.
    mutating func error(_ message: String, at range: SourceRange, notes: [DiagnosticNote] = [], force: Bool = false) {
        guard !isFull else { return }
        if diagnostics.count >= limit || force {
            diagnostics.append(.error(.syntax, Self.tooManyMessage, at: range))
            isFull = true
            return
        }
        diagnostics.append(.error(.syntax, message, at: range, notes: notes))
    }
}
