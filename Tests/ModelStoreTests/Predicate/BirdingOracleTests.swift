import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The Birding sample's data set for the predicate and sort oracles: struct fields with ties and
/// nils at every level (an optional struct, an optional field of a struct, a nested optional
/// struct), an all-nil struct beside a nil one, declared ids, a subclass with a struct of its own.
enum BirdingDataSet {
    /// Colour parts from a small set, so sorts have ties to break.
    static let parts: [Double] = [0, 0.25, 0.5, 0.75, 1]
    static let places: [String?] = [nil, "Marsh", "marsh", "Gate", "", "Café"]
    static let cutoff = Day.at(10)

    static func color(_ random: inout SeededGenerator) -> Color {
        Color(red: parts.randomElement(using: &random)!, green: parts.randomElement(using: &random)!,
              blue: parts.randomElement(using: &random)!)
    }

    static func location(_ random: inout SeededGenerator) -> Location {
        Location(latitude: Double(Int.random(in: 40...55, using: &random)), longitude: Double(Int.random(in: -5...5, using: &random)),
                 placeName: places.randomElement(using: &random)!)
    }

    static func populate(_ context: ModelContext) throws {
        var random = SeededGenerator(seed: 42)
        var species: [Species] = []
        for index in 0..<40 {
            let plumage = Plumage(primary: color(&random), secondary: index % 3 == 0 ? nil : color(&random),
                                  pattern: Pattern.allCases[index % Pattern.allCases.count])
            let model = Species(id: String(format: "sp-%02d", index), commonName: ["Robin", "Wren", "Tit", "Jay", "robin"][index % 5],
                                scientificName: "Avis \(index % 7)", plumage: plumage)
            model.wingspan = index % 4 == 0 ? nil : Double(Int.random(in: 10...40, using: &random))
            context.insert(model)
            species.append(model)
        }
        for index in 0..<240 {
            let observedAt = Day.at(Int.random(in: 0...20, using: &random))
            let location: Location? = index % 5 == 0 ? nil : location(&random)
            let sighting = index % 6 == 1
                ? GuidedSighting(observedAt: observedAt, location: location, guide: ["Ana", "Ben", "ana"][index % 3], meetingPoint: self.location(&random))
                : Sighting(observedAt: observedAt, location: location)
            sighting.duration = Double(Int.random(in: 0...4, using: &random)) * 300
            sighting.count = Int.random(in: 1...5, using: &random)
            switch index % 6 {
            case 0: sighting.conditions = nil
            case 1: sighting.conditions = Conditions()
            case 2: sighting.conditions = Conditions(temperature: Double(Int.random(in: -5...25, using: &random)), visibility: nil)
            default: sighting.conditions = Conditions(temperature: index % 2 == 0 ? nil : 12, visibility: Int.random(in: 0...3, using: &random))
            }
            switch index % 4 {
            case 0: sighting.weather = .clear
            case 1: sighting.weather = .rain(millimetres: Double(index % 3))
            case 2: sighting.weather = .wind(speed: 10, gusts: index % 8 == 2 ? nil : 20)
            default: sighting.weather = .clear
            }
            sighting.photos = (0..<(index % 3)).map { Photo(fileName: "\(index)-\($0).jpg", width: 100 * $0, height: 50) }
            sighting.notes = index % 7 == 0 ? nil : "note \(index % 5)"
            sighting.species = index % 9 == 0 ? nil : species[Int.random(in: 0..<species.count, using: &random)]
            context.insert(sighting)
        }
        try context.save()
    }
}

@Suite struct BirdingOracleTests {
    let oracle: OracleStore
    var context: ModelContext { oracle.context }

    init() throws {
        oracle = try OracleStore(Birding.schema) { try BirdingDataSet.populate($0) }
    }

    @Test func speciesPredicates() throws {
        let spotted = Pattern.spotted
        let some = try #require(try context.fetch(FetchDescriptor<Species>(sortBy: [SortDescriptor(\.id)])).dropFirst(7).first)
        let primary = some.plumage.primary
        let plumage = some.plumage
        let secondary: Color? = try #require(try context.fetch(FetchDescriptor<Species>()).compactMap(\.plumage.secondary).first) as Color
        let noColor: Color? = nil
        var cases: [OracleCase<Species>] = []
        cases.append(.init(name: "plumage.primary.red > 0.5", predicate: #Predicate<Species> { $0.plumage.primary.red > 0.5 }))
        cases.append(.init(name: "plumage.primary.red == plumage.primary.green", predicate: #Predicate<Species> { $0.plumage.primary.red == $0.plumage.primary.green }))
        cases.append(.init(name: "plumage.secondary == nil", predicate: #Predicate<Species> { $0.plumage.secondary == nil }))
        cases.append(.init(name: "plumage.secondary != nil", predicate: #Predicate<Species> { $0.plumage.secondary != nil }))
        cases.append(.init(name: "(plumage.secondary?.blue ?? 0) > 0.3", predicate: #Predicate<Species> { ($0.plumage.secondary?.blue ?? 0) > 0.3 }))
        cases.append(.init(name: "plumage.secondary?.blue == 0.5", predicate: #Predicate<Species> { $0.plumage.secondary?.blue == 0.5 }))
        cases.append(.init(name: "plumage.secondary?.blue != 0.5", predicate: #Predicate<Species> { $0.plumage.secondary?.blue != 0.5 }))
        cases.append(.init(name: "plumage.pattern == spotted", predicate: #Predicate<Species> { $0.plumage.pattern == spotted }))
        cases.append(.init(name: "plumage.primary == captured color", predicate: #Predicate<Species> { $0.plumage.primary == primary }))
        cases.append(.init(name: "plumage.primary != captured color", predicate: #Predicate<Species> { $0.plumage.primary != primary }))
        cases.append(.init(name: "plumage == captured plumage", predicate: #Predicate<Species> { $0.plumage == plumage }))
        cases.append(.init(name: "plumage.secondary == captured optional color", predicate: #Predicate<Species> { $0.plumage.secondary == secondary }))
        cases.append(.init(name: "plumage.secondary == captured nil", predicate: #Predicate<Species> { $0.plumage.secondary == noColor }))
        cases.append(.init(name: "id == sp-03", predicate: #Predicate<Species> { $0.id == "sp-03" }))
        cases.append(.init(name: "id.starts(with: sp-1)", predicate: #Predicate<Species> { $0.id.starts(with: "sp-1") }))
        cases.append(.init(name: "id > sp-2", predicate: #Predicate<Species> { $0.id > "sp-2" }))
        cases.append(.init(name: "wingspan == nil", predicate: #Predicate<Species> { $0.wingspan == nil }))
        cases.append(.init(name: "sightings with a northern location", predicate: #Predicate<Species> { species in
            species.sightings.contains { ($0.location?.latitude ?? 0) > 52 }
        }))
        try Oracle.check(cases, in: context, describe: { "\($0.id) \($0.plumage)" })
    }

    @Test func sightingPredicates() throws {
        let cutoff = BirdingDataSet.cutoff
        let unknown = Conditions()
        let someID = try #require(try context.fetch(FetchDescriptor<Sighting>()).dropFirst(30).first).id
        let somewhere = try #require(try context.fetch(FetchDescriptor<Sighting>()).compactMap(\.location).first)
        var cases: [OracleCase<Sighting>] = []
        cases.append(.init(name: "location == nil", predicate: #Predicate<Sighting> { $0.location == nil }))
        cases.append(.init(name: "location != nil", predicate: #Predicate<Sighting> { $0.location != nil }))
        cases.append(.init(name: "(location?.latitude ?? 0) > 47", predicate: #Predicate<Sighting> { ($0.location?.latitude ?? 0) > 47 }))
        cases.append(.init(name: "location?.latitude == 50", predicate: #Predicate<Sighting> { $0.location?.latitude == 50 }))
        cases.append(.init(name: "location?.placeName == nil", predicate: #Predicate<Sighting> { $0.location?.placeName == nil }))
        cases.append(.init(name: "location?.placeName == Marsh", predicate: #Predicate<Sighting> { $0.location?.placeName == "Marsh" }))
        cases.append(.init(name: "location?.placeName != Marsh", predicate: #Predicate<Sighting> { $0.location?.placeName != "Marsh" }))
        cases.append(.init(name: "location == captured", predicate: #Predicate<Sighting> { $0.location == somewhere }))
        cases.append(.init(name: "conditions == nil", predicate: #Predicate<Sighting> { $0.conditions == nil }))
        cases.append(.init(name: "conditions == Conditions() (noted as unknown)", predicate: #Predicate<Sighting> { $0.conditions == unknown }))
        cases.append(.init(name: "conditions?.temperature == nil", predicate: #Predicate<Sighting> { $0.conditions?.temperature == nil }))
        cases.append(.init(name: "conditions != nil && conditions?.temperature == nil", predicate: #Predicate<Sighting> {
            $0.conditions != nil && $0.conditions?.temperature == nil
        }))
        cases.append(.init(name: "(conditions?.visibility ?? -1) >= 2", predicate: #Predicate<Sighting> { ($0.conditions?.visibility ?? -1) >= 2 }))
        cases.append(.init(name: "duration > 600", predicate: #Predicate<Sighting> { $0.duration > 600 }))
        cases.append(.init(name: "count >= 3", predicate: #Predicate<Sighting> { $0.count >= 3 }))
        cases.append(.init(name: "observedAt >= cutoff", predicate: #Predicate<Sighting> { $0.observedAt >= cutoff }))
        cases.append(.init(name: "id == captured UUID", predicate: #Predicate<Sighting> { $0.id == someID }))
        cases.append(.init(name: "(species?.plumage.primary.red ?? 0) > 0.5", predicate: #Predicate<Sighting> { ($0.species?.plumage.primary.red ?? 0) > 0.5 }))
        cases.append(.init(name: "species?.plumage.secondary == nil", predicate: #Predicate<Sighting> { $0.species?.plumage.secondary == nil }))
        cases.append(.init(name: "is GuidedSighting", predicate: #Predicate<Sighting> { $0 is GuidedSighting }))
        cases.append(.init(name: "as? GuidedSighting meetingPoint.latitude > 48", predicate: #Predicate<Sighting> { sighting in
            if let guided = sighting as? GuidedSighting { guided.meetingPoint.latitude > 48 } else { false }
        }))
        try Oracle.check(cases, in: context, describe: { "\($0.id) \(String(describing: $0.location)) \(String(describing: $0.conditions))" })

        var guided: [OracleCase<GuidedSighting>] = []
        guided.append(.init(name: "meetingPoint.placeName == nil", predicate: #Predicate<GuidedSighting> { $0.meetingPoint.placeName == nil }))
        guided.append(.init(name: "meetingPoint.longitude < location?.longitude", predicate: #Predicate<GuidedSighting> {
            $0.meetingPoint.longitude < ($0.location?.longitude ?? 0)
        }))
        try Oracle.check(guided, in: context, describe: { "\($0.id) \($0.meetingPoint)" })
    }

    @Test func speciesSorts() throws {
        let keys: [SortKey<Species>] = [
            .value("plumage.primary.red", \.plumage.primary.red), .value("plumage.primary.green", \.plumage.primary.green),
            .optional("plumage.secondary?.red", \.plumage.secondary?.red), .optional("plumage.secondary?.blue", \.plumage.secondary?.blue),
            .string("id", \.id), .string("commonName", \.commonName), .optional("wingspan", \.wingspan),
        ]
        let predicates: [(String, Predicate<Species>)] = [
            ("plumage.secondary != nil", #Predicate<Species> { $0.plumage.secondary != nil }),
        ]
        let cases = SortOracle.generate(keys, count: 120, rows: 40, predicates: predicates, seed: 11)
        let tied = try SortOracle.check(cases, in: context, describe: { "\($0.id) \($0.plumage)" })
        #expect(tied > 30, "the data set must give the sorts ties to break")
    }

    @Test func sightingSorts() throws {
        let keys: [SortKey<Sighting>] = [
            .optional("location?.latitude", \.location?.latitude), .optionalString("location?.placeName", \.location?.placeName),
            .optional("conditions?.visibility", \.conditions?.visibility), .optional("conditions?.temperature", \.conditions?.temperature),
            .value("duration", \.duration), .value("observedAt", \.observedAt), .value("count", \.count),
            .value("id", \.id),
        ]
        let cases = SortOracle.generate(keys, count: 160, rows: 240, seed: 12)
        try SortOracle.check(cases, in: context, describe: { "\($0.id) \(String(describing: $0.location)) \(String(describing: $0.conditions))" })
        let guided = SortOracle.generate([.value("meetingPoint.latitude", \GuidedSighting.meetingPoint.latitude),
                                          .optionalString("meetingPoint.placeName", \GuidedSighting.meetingPoint.placeName),
                                          .optional("location?.latitude", \GuidedSighting.location?.latitude)],
                                         count: 40, rows: 40, seed: 13)
        try SortOracle.check(guided, in: context, describe: { "\($0.id) \($0.meetingPoint)" })
    }
}
