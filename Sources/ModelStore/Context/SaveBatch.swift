/// The statements of one save sent in batches, on a store whose connection batches them
/// (`StoreConnection.sendsInBatches`: PostgreSQL's pipeline mode). docs/PostgreSQL.md,
/// "Batched writes".
///
/// A save sends each row's statement without waiting for its result, and reads the results a
/// batch at a time: when `limit` statements are waiting, when a row needs the key of a model whose
/// insert is still waiting, and at the end of each step of the save (before any statement that
/// runs at once). Results are handled in the order sent (a changed row found missing, an insert's
/// key), and the first failure stops the save as it would one statement at a time: the results
/// before it are handled first, so the error reported is the first thing that went wrong. The
/// save's transaction makes the whole batch atomic: any failure rolls everything back.
///
/// Where the store does not batch (`isOn` false: SQLite), the save runs each statement at once and
/// never calls `send`.
final class SaveBatch {
    /// What a sent statement was, for handling its result.
    enum Sent {
        /// An insert returning the key of `object`'s row.
        case insert(ModelObject)
        /// An `UPDATE` of `object`'s row (`rowMissing` when it changed none).
        case update(ModelObject, EntitySchema)
        /// A statement whose result only matters when it fails.
        case other
    }

    let connection: any StoreConnection
    /// Whether statements are sent in batches.
    let isOn: Bool
    private var sent: [Sent] = []

    /// The most statements waiting for their results: a larger batch saves few round trips more,
    /// and holds more results in libpq's buffers.
    static let limit = 1_000

    init(_ connection: any StoreConnection) {
        self.connection = connection
        isOn = connection.sendsInBatches
    }

    /// Whether statements wait for their results.
    var isWaiting: Bool { !sent.isEmpty }

    /// Sends `statement` as bound (the caller then resets it); reads the batch when it is full,
    /// handing inserts' keys to `inserted`.
    ///
    /// - Throws: what `flush` throws; the store's error for a statement it cannot send.
    func send(_ statement: any StoreStatement, _ what: Sent, inserted: (ModelObject, Int64?) throws -> Void = SaveBatch.noInserts) throws {
        try connection.send(statement)
        sent.append(what)
        if sent.count >= Self.limit { try flush(inserted: inserted) }
    }

    /// Reads the results of every statement sent and handles them in order: an insert's key goes
    /// to `inserted`, an update that changed no row throws `rowMissing`.
    ///
    /// - Throws: the first of: what `inserted` throws, `ModelStoreError.rowMissing`, the store's
    ///   error for the first statement that failed.
    func flush(inserted: (ModelObject, Int64?) throws -> Void = SaveBatch.noInserts) throws {
        guard !sent.isEmpty else { return }
        let waiting = sent
        sent.removeAll(keepingCapacity: true)
        let received = connection.receiveSent()
        for (what, result) in zip(waiting, received.results) {
            switch what {
            case .insert(let object): try inserted(object, result.key)
            case .update(let object, let entity):
                if result.changes == 0 { throw ModelStoreError.rowMissing(entity: entity.name, identifier: object.persistentModelID) }
            case .other: break
            }
        }
        if let failure = received.failure { throw failure }
        if received.results.count < waiting.count {
            throw ModelStoreError.invalidSchema("the store answered \(received.results.count) of \(waiting.count) statements of a batch")
        }
    }

    /// After a save failed with `error`: the error to report. Statements still waiting ran before
    /// the failure was found, so the first of their problems (a row missing, a failed statement)
    /// comes first; their inserts' keys are not kept.
    func firstError(after error: any Error) -> any Error {
        guard !sent.isEmpty else { return error }
        do {
            try flush(inserted: { _, _ in })
        } catch let earlier {
            return earlier
        }
        return error
    }

    /// For batches of statements that insert nothing.
    static func noInserts(_ object: ModelObject, _ key: Int64?) throws {}
}
