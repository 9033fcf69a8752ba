// The measurement behind docs/Benchmarks.md, "Where the remaining gaps go" (update): what the
// bookkeeping SwiftData's semantics ask of a renamed model costs at the least, written by hand
// with plain arrays, against a rename that keeps nothing. Per changed model, the tracked loop
// keeps what `rollback()` and `hasChanges` need (the saved value in an undo log, the model in a
// list of changed models, a mark that it is listed), and its save makes `didSave`'s list of
// updated identifiers (24 bytes each, as `PersistentIdentifier`) and empties the log and the list.
// Neither loop binds or sends anything: both sides of `modelstore-bench` pay that alike.
//
//     swiftc -O -o /tmp/change-tracking-floor Benchmarks/Probes/change-tracking-floor.swift
//     valgrind --tool=callgrind --toggle-collect='*renamePlain*' --callgrind-out-file=/tmp/plain.out /tmp/change-tracking-floor
//     valgrind --tool=callgrind --toggle-collect='*renameTracked*' --callgrind-out-file=/tmp/tracked.out /tmp/change-tracking-floor
//     callgrind_annotate /tmp/plain.out | grep TOTALS; callgrind_annotate /tmp/tracked.out | grep TOTALS
//
// Each loop runs 11 times over the same 20,000 models, so a total over 220,000 is its instructions
// a model (614 tracked, 179 plain when measured for the docs). Prints each loop's wall-clock time
// too (the median of the 11 runs), per model.

import Foundation

final class Trip {
    var rowID: Int64
    var name: String
    /// The model's place in the changed list + 1; 0 while unchanged (the mark a tracked rename
    /// reads). Not checked for exclusive access at run time, as the runtime's bookkeeping fields
    /// are not; `name` is, on both sides, as the app's stored properties are.
    @exclusivity(unchecked) var changeEntry: Int32 = 0

    init(rowID: Int64, name: String) {
        self.rowID = rowID
        self.name = name
    }
}

/// A saved value kept for `rollback()`: the model, the changed column, the value.
struct UndoEntry {
    let owner: ObjectIdentifier
    let column: Int32
    let value: String
}

/// An identifier as `didSave` carries it: 24 bytes.
struct Identifier {
    let entity: Int
    let rowID: Int64
    let store: Int
}

/// The lists a context keeps between saves (their capacity too, as a context's would stay grown).
final class Tracking {
    var undo: [UndoEntry] = []
    var changed: [Trip] = []
    var saved: [Identifier] = []
}

@inline(never)
func renamePlain(_ trips: [Trip], _ names: [String]) -> Int {
    for (trip, name) in zip(trips, names) { trip.name = name }
    return trips.count
}

/// The lists are moved into locals for the loop and back after it: appended to as the class's
/// properties, each append was checked for exclusive access at run time (three quarters of the
/// loop's instructions), which hand-written code would not pay either.
@inline(never)
func renameTracked(_ trips: [Trip], _ names: [String], _ tracking: Tracking) -> Int {
    var undo: [UndoEntry] = []
    var changed: [Trip] = []
    var saved: [Identifier] = []
    swap(&undo, &tracking.undo)
    swap(&changed, &tracking.changed)
    swap(&saved, &tracking.saved)
    defer {
        swap(&undo, &tracking.undo)
        swap(&changed, &tracking.changed)
        swap(&saved, &tracking.saved)
    }
    for (trip, name) in zip(trips, names) {
        if trip.changeEntry == 0 {
            undo.append(UndoEntry(owner: ObjectIdentifier(trip), column: 0, value: trip.name))
            changed.append(trip)
            trip.changeEntry = Int32(changed.count)
        }
        trip.name = name
    }
    // The save's bookkeeping beyond writing the rows: `didSave`'s identifiers, then the log and
    // the list emptied (the saved values released).
    for trip in changed {
        saved.append(Identifier(entity: 0, rowID: trip.rowID, store: 0))
        trip.changeEntry = 0
    }
    let count = saved.count
    undo.removeAll(keepingCapacity: true)
    changed.removeAll(keepingCapacity: true)
    saved.removeAll(keepingCapacity: true)
    return count
}

let count = 20_000
let trips = (0..<count).map { Trip(rowID: Int64($0 + 1), name: "Trip \($0)") }
let renames = [(0..<count).map { "Renamed \($0)" }, (0..<count).map { "Trip \($0)" }]
let tracking = Tracking()

func median(_ body: (Int) -> Int) -> Double {
    var times: [Double] = []
    for run in 0..<11 {
        let start = DispatchTime.now().uptimeNanoseconds
        precondition(body(run) == count)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    return times.sorted()[5] / Double(count)
}

let plain = median { renamePlain(trips, renames[$0 % 2]) }
let tracked = median { renameTracked(trips, renames[$0 % 2], tracking) }
print(String(format: "per model: plain %.1f ns, tracked %.1f ns (%d models, median of 11)", plain, tracked, count))
