import Foundation
import ModelStore

// Uses the classes generated from both Stop.model files.
let container = try ModelContainer(for: Stops.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)
let airport = Airport(code: "ZRH")
let station = Station(name: "Zürich Flughafen")
station.airport = airport
context.insert(airport)
context.insert(station)
try context.save()
let stations = try context.fetch(FetchDescriptor<Station>())
print("stations: \(stations.map { "\($0.name) -> \($0.airport?.code ?? "none")" }.joined(separator: ", "))")
