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
    /// Rows inserted several per statement (`StoreConnection.rowBatch`), sent when full and before
    /// any batch is read, so they run in the order of the save's other statements.
    private var rowBatches: [any InsertRowBatch] = []

    /// The most statements waiting for their results: a larger batch saves few round trips more,
    /// and holds more results in libpq's buffers.
    static let limit = 1_000

    /// The fewest rows of an entity a save inserts several per statement
    /// (`StoreConnection.rowBatch`): fewer go one statement each, sparing the round trip that
    /// reserves their keys.
    static let fewestRowsTogether = 16

    init(_ connection: any StoreConnection) {
        self.connection = connection
        isOn = connection.sendsInBatches
    }

    /// The models whose insert was sent and waits for its key.
    private var waitingInserts: Set<ObjectIdentifier> = []

    /// Whether the insert of `object` was sent and its key waits in the batch.
    func awaitsKey(of object: ModelObject) -> Bool {
        !waitingInserts.isEmpty && waitingInserts.contains(ObjectIdentifier(object))
    }

    /// Whether statements wait for their results.
    var isWaiting: Bool { !sent.isEmpty || rowBatches.contains { $0.count > 0 } }

    /// Inserts of several rows per statement go through `add(_:key:from:)` to `rows`.
    func register(_ rows: any InsertRowBatch) {
        rowBatches.append(rows)
    }

    /// Adds the row bound to `statement` (the caller then resets it) to `rows`, sending them when
    /// they fill a statement.
    ///
    /// - Throws: a value `rows` refuses; what `send` throws.
    func add(_ rows: any InsertRowBatch, key: Int64, from statement: any StoreStatement,
             inserted: (ModelObject, Int64?) throws -> Void = SaveBatch.noInserts) throws {
        try rows.add(key: key, from: statement)
        guard rows.isFull else { return }
        try sendRows(rows)
        if sent.count >= Self.limit { try flush(inserted: inserted) }
    }

    /// Sends the rows of `rows` as one statement (the batch is read by the caller when full).
    private func sendRows(_ rows: any InsertRowBatch) throws {
        let statement = try rows.take()
        try connection.send(statement)
        sent.append(.other)
        statement.reset()
    }

    /// Sends the rows waiting in the registered row batches.
    private func sendWaitingRows() throws {
        for rows in rowBatches where rows.count > 0 { try sendRows(rows) }
    }

    /// Sends `statement` as bound (the caller then resets it); reads the batch when it is full,
    /// handing inserts' keys to `inserted`.
    ///
    /// - Throws: what `flush` throws; the store's error for a statement it cannot send.
    func send(_ statement: any StoreStatement, _ what: Sent, inserted: (ModelObject, Int64?) throws -> Void = SaveBatch.noInserts) throws {
        try connection.send(statement)
        sent.append(what)
        if case .insert(let object) = what { waitingInserts.insert(ObjectIdentifier(object)) }
        if sent.count >= Self.limit { try flush(inserted: inserted) }
    }

    /// Reads the results of every statement sent and handles them in order: an insert's key goes
    /// to `inserted`, an update that changed no row throws `rowMissing`.
    ///
    /// - Throws: the first of: what `inserted` throws, `ModelStoreError.rowMissing`, the store's
    ///   error for the first statement that failed.
    func flush(inserted: (ModelObject, Int64?) throws -> Void = SaveBatch.noInserts) throws {
        try sendWaitingRows()
        guard !sent.isEmpty else { return }
        let waiting = sent
        sent.removeAll(keepingCapacity: true)
        waitingInserts.removeAll(keepingCapacity: true)
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
        guard isWaiting else { return error }
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
