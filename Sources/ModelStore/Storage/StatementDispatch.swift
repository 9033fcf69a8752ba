import Foundation

/// Code that loops over a statement's rows, written once for every store: `visit` is generic over
/// the statement type, and `withConcreteStatement` calls it with the store's own type, so each
/// store's copy of the loop is specialised (its reads and binds are direct calls, not dynamic
/// dispatch per value). docs/Architecture.md, "The storage seam".
protocol StatementVisitor {
    associatedtype Result
    func visit<Statement: StoreStatement>(_ statement: Statement) throws -> Result
}

/// Runs `visitor` with `statement` as its concrete type: the one place where the code above
/// `Storage/` meets a store's statement type, once per statement (not per row or value). A new
/// store adds its statement type here.
@inline(__always)
func withConcreteStatement<Visitor: StatementVisitor>(_ statement: any StoreStatement, _ visitor: Visitor) throws -> Visitor.Result {
    if let sqlite = statement as? SQLiteStatement { return try visitor.visit(sqlite) }
    if let postgres = statement as? PostgresStoreStatement { return try visitor.visit(postgres) }
    return try visitor.visit(statement)
}
