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
        /// An `UPDATE` of `object`'s row (`rowMissing` when it changed none), the `order`-th of
        /// its step of the save.
        case update(ModelObject, EntitySchema, order: Int)
        /// An `UPDATE` of several rows (`UpdateRows`) through `rows`: the models, each with its
        /// place in the step (`rowMissing` for the first whose row it did not change).
        case updateRows([UpdatedModel], EntitySchema, any RowBatch)
        /// A statement whose result only matters when it fails.
        case other
    }

    /// A model whose row went to a statement changing several rows, and its place in its step of
    /// the save. Unretained: it is one of the save's changed models, which the context's pending
    /// list holds until the save is over (`finishSave`), after every batch is read, also when the
    /// save fails (`firstError(after:)`). Retaining it per row, and releasing it with the batch,
    /// was about 2.7 M instructions of a 20,000-row update (docs/Benchmarks.md, "Writes").
    struct UpdatedModel {
        unowned(unsafe) let object: ModelObject
        let order: Int
    }

    /// A partial update's rows changed several per statement (`StoreConnection.rowBatch(forUpdate:)`),
    /// with the models they are, in the save's order.
    final class UpdateRows {
        let rows: any RowBatch
        let entity: EntitySchema
        /// Appended to per row: not checked for exclusive access at run time, as the batch's own
        /// per-row state below (a check per row was about 115 instructions).
        @exclusivity(unchecked) fileprivate var models: [UpdatedModel] = []

        init(_ rows: any RowBatch, entity: EntitySchema) {
            self.rows = rows
            self.entity = entity
        }
    }

    let connection: any StoreConnection
    /// Whether statements are sent in batches.
    let isOn: Bool
    /// Whether updated rows may go several per statement (`UpdateRows`): off when a save runs
    /// again one row per statement after such a statement failed (docs/PostgreSQL.md, "Batched writes").
    let updatesTogether: Bool
    /// Whether rows were sent several per update statement.
    private(set) var sentUpdatesTogether = false
    // A save's batch is its context's, on one thread (`ContextGuards`): no run-time exclusivity
    // checks per row (docs/Benchmarks.md, "No run-time exclusivity checks on per-row state").
    @exclusivity(unchecked) private var updateBatches: [UpdateRows] = []
    @exclusivity(unchecked) private var sent: [Sent] = []
    /// Rows inserted several per statement (`StoreConnection.rowBatch`), sent when full and before
    /// any batch is read, so they run in the order of the save's other statements.
    @exclusivity(unchecked) private var rowBatches: [any RowBatch] = []

    /// The most statements waiting for their results: a larger batch saves few round trips more,
    /// and holds more results in libpq's buffers.
    static let limit = 1_000

    /// The fewest rows of an entity a save inserts several per statement
    /// (`StoreConnection.rowBatch`): fewer go one statement each, sparing the round trip that
    /// reserves their keys.
    static let fewestRowsTogether = 16

    init(_ connection: any StoreConnection, updatesTogether: Bool = true) {
        self.connection = connection
        isOn = connection.sendsInBatches
        self.updatesTogether = isOn && updatesTogether
    }

    /// The models whose insert was sent and waits for its key.
    @exclusivity(unchecked) private var waitingInserts: Set<ObjectIdentifier> = []

    /// Whether the insert of `object` was sent and its key waits in the batch.
    func awaitsKey(of object: ModelObject) -> Bool {
        !waitingInserts.isEmpty && waitingInserts.contains(ObjectIdentifier(object))
    }

    /// Whether statements wait for their results.
    var isWaiting: Bool {
        isOn && (!sent.isEmpty || rowBatches.contains { $0.count > 0 } || updateBatches.contains { $0.rows.count > 0 })
    }

    /// Inserts of several rows per statement go through `add(_:key:from:)` to `rows`.
    func register(_ rows: any RowBatch) {
        rowBatches.append(rows)
    }

    /// Adds the row bound to `statement` (the caller then resets it) to `rows`, sending them when
    /// they fill a statement.
    ///
    /// - Throws: a value `rows` refuses; what `send` throws.
    func add(_ rows: any RowBatch, key: Int64, from statement: any StoreStatement,
             inserted: (ModelObject, Int64?) throws -> Void = SaveBatch.noInserts) throws {
        try rows.add(key: key, from: statement)
        guard rows.isFull else { return }
        try sendRows(rows)
        if sent.count >= Self.limit { try flush(inserted: inserted) }
    }

    /// Updates of several rows per statement go through `add(_:object:order:key:from:)` to `rows`.
    func register(_ rows: UpdateRows) {
        updateBatches.append(rows)
    }

    /// Adds the row of `object` (the `order`-th of the step), whose key is `key`, bound to
    /// `statement` (the single-row update; the caller then resets it) to `rows`, sending them when
    /// they fill a statement.
    ///
    /// - Throws: a value `rows` refuses (the rows before it are sent when the save reads its
    ///   batch: `firstError(after:)`); what `flush` throws.
    func add(_ rows: UpdateRows, object: ModelObject, order: Int, key: Int64, from statement: any StoreStatement) throws {
        try rows.rows.add(key: key, from: statement)
        rows.models.append(UpdatedModel(object: object, order: order))
        guard rows.rows.isFull else { return }
        try sendRows(rows)
        if sent.count >= Self.limit { try flush() }
    }

    /// Sends the rows of `rows` as one statement (the batch is read by the caller when full).
    private func sendRows(_ rows: UpdateRows) throws {
        let statement = try rows.rows.take()
        try connection.send(statement)
        sent.append(.updateRows(rows.models, rows.entity, rows.rows))
        rows.models.removeAll(keepingCapacity: true)
        sentUpdatesTogether = true
        statement.reset()
    }

    /// Sends the rows of `rows` as one statement (the batch is read by the caller when full).
    private func sendRows(_ rows: any RowBatch) throws {
        let statement = try rows.take()
        try connection.send(statement)
        sent.append(.other)
        statement.reset()
    }

    /// Sends the rows waiting in the registered row batches.
    private func sendWaitingRows() throws {
        for rows in rowBatches where rows.count > 0 { try sendRows(rows) }
        for rows in updateBatches where rows.rows.count > 0 { try sendRows(rows) }
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
    /// to `inserted`, an update that changed no row throws `rowMissing` (for the first such model
    /// in the save's order: rows changed together are sent by update, not in that order).
    ///
    /// - Throws: the first of: what `inserted` throws, `ModelStoreError.rowMissing`, the store's
    ///   error for the first statement that failed. When rows changed together were read with a
    ///   failure, the failure: which rows the row-by-row order would have reached before it is not
    ///   known (the save then runs again one row per statement).
    func flush(inserted: (ModelObject, Int64?) throws -> Void = SaveBatch.noInserts) throws {
        // Nothing is ever sent where statements run at once.
        guard isOn else { return }
        try sendWaitingRows()
        guard !sent.isEmpty else { return }
        let waiting = sent
        sent.removeAll(keepingCapacity: true)
        waitingInserts.removeAll(keepingCapacity: true)
        let received = connection.receiveSent()
        // The missing row first in the save's order, once rows changed together were read.
        var missing: (order: Int, object: ModelObject, entity: EntitySchema)?
        let together = waiting.contains { if case .updateRows = $0 { true } else { false } }
        // Statements of several rows that changed fewer than they were sent.
        var short: [(models: [UpdatedModel], entity: EntitySchema, rows: any RowBatch)] = []
        for (what, result) in zip(waiting, received.results) {
            switch what {
            case .insert(let object): try inserted(object, result.key)
            case .update(let object, let entity, let order):
                guard result.changes == 0 else { break }
                if !together { throw ModelStoreError.rowMissing(entity: entity.name, identifier: object.persistentModelID) }
                if order < missing?.order ?? .max { missing = (order, object, entity) }
            case .updateRows(let models, let entity, let rows):
                if result.changes < models.count { short.append((models, entity, rows)) }
            case .other: break
            }
        }
        if together, let failure = received.failure { throw failure }
        // Which rows a short statement missed, read now that the batch is read (no statement
        // failed: the transaction takes the query).
        for (models, entity, rows) in short {
            let stored = try rows.storedKeys(among: models.map { $0.object.rowID ?? -1 })
            if let first = models.first(where: { !stored.contains($0.object.rowID ?? -1) }), first.order < missing?.order ?? .max {
                missing = (first.order, first.object, entity)
            }
        }
        if let missing { throw ModelStoreError.rowMissing(entity: missing.entity.name, identifier: missing.object.persistentModelID) }
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
