// The child process of the multi-process upsert test (Tests/ModelStoreTests/Reliability).
//
//     UpsertWriter STORE WRITER SAVES MEMBERS BADGES
//
// STORE is a file path or a store URL (`postgresql://…`). Opens it with the generated Members code
// (ModelGenPlugin, Members.model), then makes SAVES saves, each one transaction: an upsert of the
// member `m<k>@example.com` (k = save number modulo MEMBERS, so the writers' keys overlap), an
// upsert of the badge `b<j>` hanging at holder `h<j>`, slot j % 3 (j modulo BADGES: both unique
// groups name the same badge), and a new entry of this writer pointing at the member. Prints
// `done` when every save returned; any error ends it with status 1.
import Foundation
import ModelStore

let arguments = CommandLine.arguments
guard arguments.count == 6, let writer = Int(arguments[2]), let saves = Int(arguments[3]),
      let members = Int(arguments[4]), let badges = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: UpsertWriter STORE WRITER SAVES MEMBERS BADGES\n".utf8))
    exit(2)
}

do {
    let store = arguments[1].contains("://") ? URL(string: arguments[1]) : URL(fileURLWithPath: arguments[1])
    guard let store else { throw CocoaError(.fileReadInvalidFileName) }
    var configuration = ModelConfiguration(url: store)
    // The test checks upserts, not lock waits: four writers on a loaded 2-core machine can wait
    // longer than the default 5 s for SQLite's write lock, so each waits up to a minute.
    configuration.busyTimeoutMilliseconds = 60_000
    let container = try ModelContainer(for: MemberStore.schema, configurations: configuration)
    for save in 0..<saves {
        // A context per save: each upsert inserts a new model, as an app receiving records does.
        let context = ModelContext(container)
        context.author = "writer-\(writer)"
        let key = (save * 7 + writer * 13) % members
        let member = Member(email: "m\(key)@example.com", name: "writer \(writer) save \(save)")
        context.insert(member)
        let badge = (save + writer) % badges
        context.insert(Badge(code: "b\(badge)", holder: "h\(badge)", slot: badge % 3, label: "writer \(writer) save \(save)"))
        let entry = Entry(writer: writer, sequence: save)
        context.insert(entry)
        entry.member = member
        try context.save()
    }
    print("done")
} catch {
    FileHandle.standardError.write(Data("UpsertWriter \(writer): \(error)\n".utf8))
    exit(1)
}
