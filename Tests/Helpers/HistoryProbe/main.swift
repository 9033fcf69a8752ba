// The child process of the history tests (Tests/ModelStoreTests/History): another process on
// the same store file, with its own build of the generated Trips code (the target applies this
// package's ModelGenPlugin to Trips.model, a link to Samples/Trips.model).
//
// STORE is a file path or a store URL (`postgresql://…`).
//
//     HistoryProbe write STORE          three saves as author "probe" (see `writeScript`); prints
//                                       the trips' preserved identifiers as JSON
//     HistoryProbe read STORE [TOKEN]   prints the history as JSON (after the token in the file
//                                       TOKEN, a JSON-encoded History.DefaultToken, if given)
//     HistoryProbe count STORE          prints how many trips the store holds
import Foundation
@_spi(ModelStoreGenerated) import ModelStore

/// A change as the tests read it.
struct ProbeChange: Codable {
    var kind: String
    var entity: String
    var row: Int64
    /// Updated properties (updates), by name.
    var attributes: [String] = []
    /// Preserved values (deletes), by property name, as text.
    var tombstone: [String: String] = [:]
}

/// A transaction as the tests read it.
struct ProbeTransaction: Codable {
    /// The token, JSON-encoded (what an app persists).
    var token: Data
    var author: String?
    var changes: [ProbeChange]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("HistoryProbe: \(message)\n".utf8))
    exit(1)
}

func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}

/// The name of a property of `type` from its key path (own or inherited), through the metadata.
func propertyName(_ keyPath: AnyKeyPath, of type: any PersistentModel.Type) -> String {
    let metadata = type.schemaMetadata
    if let own = metadata.properties.first(where: { $0.keyPath == keyPath }) { return own.name }
    if let inherited = metadata.inheritedKeyPaths.first(where: { $0.keyPath == keyPath }) { return inherited.name }
    return "\(keyPath)"
}

func updatedNames<Update: HistoryUpdate>(_ update: Update) -> [String] {
    update.updatedAttributes.map { propertyName($0, of: Update.Model.self) }
}

func tombstoneValues<Delete: HistoryDelete>(_ delete: Delete) -> [String: String] {
    var values: [String: String] = [:]
    for (keyPath, value) in delete.tombstone { values[propertyName(keyPath, of: Delete.Model.self)] = "\(value)" }
    return values
}

func probe(_ change: HistoryChange) -> ProbeChange {
    let id = change.changedPersistentIdentifier
    var result = ProbeChange(kind: "", entity: id.entityName, row: id.rowID ?? -1)
    switch change {
    case .insert:
        result.kind = "insert"
    case .update(let update):
        result.kind = "update"
        result.attributes = updatedNames(update)
    case .delete(let delete):
        result.kind = "delete"
        result.tombstone = tombstoneValues(delete)
    }
    return result
}

/// Three saves: inserts (a trip of each class and a stay), updates (two attributes, and the stay
/// moved to another trip), a delete (of a trip with a preserved identifier).
func writeScript(_ container: ModelContainer) throws -> [String: String] {
    let context = ModelContext(container)
    context.author = "probe"
    let day = Date(timeIntervalSinceReferenceDate: 800_000_000)
    let paris = Trip(name: "Paris", startDate: day, endDate: day.addingTimeInterval(86_400))
    let fair = BusinessTrip(name: "Fair", startDate: day, endDate: day, company: "Acme")
    let beach = PersonalTrip(name: "Beach", startDate: day, endDate: day, reason: .vacation)
    let hotel = Accommodation(name: "Hotel")
    for model in [paris, fair, beach, hotel] as [any PersistentModel] { context.insert(model) }
    hotel.trip = paris
    try context.save()

    paris.name = "Paris in May"
    paris.endDate = day.addingTimeInterval(2 * 86_400)
    hotel.trip = fair
    try context.save()

    context.delete(beach)
    try context.save()
    return ["Paris": paris.identifier.uuidString, "Fair": fair.identifier.uuidString, "Beach": beach.identifier.uuidString]
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: HistoryProbe write|read|count STORE [TOKEN-FILE]") }
do {
    // STORE: a file path, or a store URL (`postgresql://…`).
    let store = arguments[2].contains("://") ? URL(string: arguments[2]) : URL(fileURLWithPath: arguments[2])
    guard let store else { fail("not a store URL: \(arguments[2])") }
    let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: store))
    switch arguments[1] {
    case "write":
        try printJSON(try writeScript(container))
    case "read":
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if arguments.count > 3 {
            let token = try JSONDecoder().decode(History.DefaultToken.self, from: try Data(contentsOf: URL(fileURLWithPath: arguments[3])))
            descriptor.predicate = #Predicate { $0.token > token }
        }
        let transactions = try ModelContext(container).fetchHistory(descriptor)
        try printJSON(try transactions.map { ProbeTransaction(token: try JSONEncoder().encode($0.token), author: $0.author, changes: $0.changes.map(probe)) })
    case "count":
        print(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()))
    default:
        fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
