import Foundation
import Testing
@testable import ModelStore

/// Several processes write one store at once (app servers sharing a database): four `UpsertWriter`
/// children (Tests/Helpers/UpsertWriter) make 1,000 saves each, every save upserting a member (a unique
/// email) and a badge (two unique groups) whose keys the writers share, and inserting an entry.
/// Afterwards the counts are exact: one entry per save, one row per distinct key (no duplicate,
/// none lost), every entry pointing at the member of its key; and the history holds one transaction
/// per save.
@Suite struct MultiProcessUpsertTests {
    static let writers = 4
    static let saves = 1000
    static let members = 250
    static let badges = 100

    @Test(.timeLimit(.minutes(10)), arguments: StoreKind.persistent)
    func fourWritersWithOverlappingUniqueKeys(_ kind: StoreKind) throws {
        // The writers create the store too, at once: one creates it, the others wait and find it made.
        let store = try TestStore(kind)
        let processes = try (0..<Self.writers).map { writer -> (Process, Pipe) in
            let process = Process()
            process.executableURL = BuiltProducts.executable("UpsertWriter")
            process.arguments = [store.location, String(writer), String(Self.saves), String(Self.members), String(Self.badges)]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = Pipe()
            try process.run()
            return (process, errors)
        }
        for (writer, (process, errors)) in processes.enumerated() {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "writer \(writer): \(message)")
        }

        let raw = try store.rawConnection()
        func count(_ sql: String) throws -> Int64 {
            guard case .integer(let value)? = try raw.rows(sql).first?.first else { return -1 }
            return value
        }
        #expect(try count(#"SELECT count(*) FROM "Entry""#) == Int64(Self.writers * Self.saves))
        #expect(try count(#"SELECT count(*) FROM (SELECT DISTINCT "writer", "sequence" FROM "Entry") AS "pairs""#) == Int64(Self.writers * Self.saves))
        let usedMembers = Set((0..<Self.writers).flatMap { writer in (0..<Self.saves).map { ($0 * 7 + writer * 13) % Self.members } })
        #expect(try count(#"SELECT count(*) FROM "Member""#) == Int64(usedMembers.count))
        #expect(try count(#"SELECT count(DISTINCT "email") FROM "Member""#) == Int64(usedMembers.count))
        #expect(try count(#"SELECT count(*) FROM "Badge""#) == Int64(Self.badges))
        #expect(try count(#"SELECT count(DISTINCT "code") FROM "Badge""#) == Int64(Self.badges))
        // Every entry points at a stored member, the one of its own key.
        #expect(try count(#"SELECT count(*) FROM "Entry" WHERE "member" IS NULL OR "member" NOT IN (SELECT "$pk" FROM "Member")"#) == 0)
        let mismatched = try raw.rows(#"SELECT e."writer", e."sequence", m."email" FROM "Entry" e JOIN "Member" m ON m."$pk" = e."member""#)
            .filter { row in
                guard row.count == 3, case .integer(let writer) = row[0], case .integer(let save) = row[1], case .text(let email) = row[2] else { return true }
                return email != "m\((Int(save) * 7 + Int(writer) * 13) % Self.members)@example.com"
            }
        #expect(mismatched.isEmpty, "entries pointing at another key's member: \(mismatched.prefix(5))")
        // One history transaction per save, tokens distinct.
        #expect(try count(#"SELECT count(*) FROM "$history""#) == Int64(Self.writers * Self.saves))
        #expect(try count(#"SELECT count(DISTINCT "token") FROM "$history""#) == Int64(Self.writers * Self.saves))
    }
}
