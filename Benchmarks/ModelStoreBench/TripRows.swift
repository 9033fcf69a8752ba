import Foundation

/// The kind of a benchmark row: which class of the Trips hierarchy it becomes.
enum TripKind {
    case trip, business, personal
}

/// One row of the benchmark, computed before any timing so that both sides do the same work
/// on the same values (the generated side and the hand-written side read the same array).
struct TripRow {
    let kind: TripKind
    let name: String
    /// The name the update workloads give the row when it has its first one.
    let newName: String
    let startDate: Date
    let endDate: Date
    let company: String
    let expenseReport: String?
    /// Index into the `Reason` cases (vacation, family, adventure).
    let reasonIndex: Int
    let companions: [String]

    /// The name an update workload gives the row: `newName` when the store holds its first name
    /// (`storedRenamed` false), the first name back when it holds `newName`. Each update changes
    /// every stored name whichever ran before it (`--only updateNamesWithHistory` too: a name set to
    /// the value stored is no change the history records, and both sides must write the same rows).
    /// Each side tracks what its store holds, so neither reads the old name (a generated model's
    /// getter would make its observation registrar).
    func name(storedRenamed: Bool) -> String {
        storedRenamed ? name : newName
    }

    /// The name the store holds (`newName` after an odd number of updates): what the lookup by
    /// name looks for, so that it finds its row whichever updates ran before it.
    func storedName(storedRenamed: Bool) -> String {
        storedRenamed ? newName : name
    }

    /// `count` mixed rows: a third of each kind, dates spread so that sorting has work to do.
    static func make(count: Int) -> [TripRow] {
        (0..<count).map { index in
            let kind: TripKind = [.trip, .business, .personal][index % 3]
            // A permutation of the row numbers (7919 is prime to any count not a multiple of it).
            let day = Double((index &* 7919) % max(count, 1))
            let start = TripRow.epoch + day * 3_600
            return TripRow(
                kind: kind,
                name: "Trip \(index)",
                newName: "Renamed trip \(index)",
                startDate: Date(timeIntervalSinceReferenceDate: start),
                endDate: Date(timeIntervalSinceReferenceDate: start + Double(1 + index % 14) * 86_400),
                company: "Company \(index % 97)",
                expenseReport: index % 2 == 0 ? "Report \(index)" : nil,
                reasonIndex: index % 3,
                companions: index % 2 == 0 ? [] : ["Ann", "Bob \(index % 10)"]
            )
        }
    }

    /// Start of the date range (2025-05-09, seconds since 2001).
    static let epoch: Double = 768_441_600

    /// The date the predicates compare with: the middle of the start dates.
    static func cutoff(count: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: epoch + Double(count / 2) * 3_600)
    }
}
