import Foundation
import Revertible
import Testing
import UndoableReducer
@testable import TodoKit

/// `todo history --mine` on a server streams as on a file (issue 37 item 3): the person's
/// steps are read as they are printed, inside one read-only transaction, and the output is
/// byte for byte the whole-document views (``Reference``) of the history read whole.
@Suite("History listing on a server, streamed", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct ServerHistoryListingTests {

    /// `history --mine` as the session prints it, all chunks together.
    static func listed(_ session: TodoSession, json: Bool) throws(TodoError) -> String {
        try session.run(.history(json: json, mine: true))
    }

    @Test("Streamed text and JSON are byte for byte the whole-document views, with branches, tags and scopes")
    func sameAsWhole() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let alice = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        let session = TodoSession(storage: alice, style: .plain)
        func change(_ body: (TodoStore) -> Void) throws {
            try alice.modify(nearTheEnds: false, appliesSavedSteps: true, onConflict: .skip) { (store) throws(TodoError) in body(store) }
        }
        func compare() throws {
            let whole = try alice.readState()
            #expect(try Self.listed(session, json: true) == Reference.json(whole, limit: 100))
            #expect(try Self.listed(session, json: false) == Reference.text(whole, limit: 100, style: .plain))
        }
        try change { HistoryListingTests.makeBranches(in: $0) }
        try compare()
        let json = try Self.listed(session, json: true)
        #expect(json.contains(#""shopping""#) && json.contains(#""undone" : true"#))
        #expect(try Self.listed(session, json: false).contains("|\\"))
        try change { HistoryListingTests.makeScopeWithBranch(in: $0) }
        #expect(try alice.readState().scopeLevel == 1)
        try compare()
        try change { _ = $0.send(.pushNewScope) }
        try compare()
    }

    /// Alice's history of `count` title edits of one item, saved on a new database.
    static func longHistory(count: Int) throws -> (conninfo: String, alice: TodoServerStore) {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let alice = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: count + 10)
        try alice.modify(nearTheEnds: false, appliesSavedSteps: false, onConflict: .skip) { (store) throws(TodoError) in
            let id = UUID()
            store.send(.action(.add(id: id, title: "item")))
            for index in 0..<count {
                store.send(.action(.edit(id: id, from: index == 0 ? "item" : "title \(index - 1)", to: "title \(index)")))
            }
        }
        return (conninfo, alice)
    }

    @Test("The first lines go out before most of the person's steps are read, and a write committed meanwhile is not seen")
    func firstLinesEarlyInOneSnapshot() throws {
        let count = 2_000
        let (conninfo, alice) = try Self.longHistory(count: count)
        let session = TodoSession(storage: alice, style: .plain)
        for json in [false, true] {
            let whole = try alice.readState()
            let reference = json ? Reference.json(whole, limit: count + 10) : Reference.text(whole, limit: count + 10, style: .plain)
            let start = alice.stepRowsRead
            var readAtFirstChunk: Int?
            var text = ""
            var interrupted = false
            // A second process of alice's with a low limit: its add drops all but the
            // newest steps while the listing is half way, which it must not see.
            let other = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: json ? 5 : count + 10)
            try session.run(.history(json: json, mine: true)) { chunk in
                if readAtFirstChunk == nil {
                    readAtFirstChunk = alice.stepRowsRead - start
                    if json {
                        interrupted = (try? other.modify(nearTheEnds: false, appliesSavedSteps: false, onConflict: .skip) { (store) throws(TodoError) in
                            store.send(.action(.add(id: UUID(), title: "meanwhile")))
                        }) != nil
                    }
                }
                text += chunk
                return true
            }
            #expect(text == reference)
            // Read whole, every row would be read before the first chunk (the list of the
            // scope's versions, read first, counts as rows too).
            let first = try #require(readAtFirstChunk)
            let after = alice.stepRowsRead - start - first
            #expect(after >= count / 2, "\(first) step rows read before the first chunk, \(after) after")
            if json {
                #expect(interrupted)
                let admin = try PostgresConnection(conninfo)
                let left = try #require(Int(try admin.query("SELECT count(*) FROM steps WHERE author = 'alice'").first?[0] ?? nil ?? ""))
                #expect(left <= 6, "the other write dropped the old steps")
            }
        }
    }

    @Test("A damaged step ends the listing where it is met: the lines before it are out, and the command fails naming the damage")
    func damageEndsTheListing() throws {
        let count = 1_500
        let (conninfo, alice) = try Self.longHistory(count: count)
        let whole = try alice.readState()
        let reference = Reference.text(whole, limit: count + 10, style: .plain)
        let damaged = 1_000
        let admin = try PostgresConnection(conninfo)
        try admin.query("UPDATE steps SET step = '{\"version\": 1' WHERE author = 'alice' AND version = \(damaged)")
        let session = TodoSession(storage: TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: count + 10), style: .plain)
        var text = ""
        do {
            try session.run(.history(json: false, mine: true)) { text += $0; return true }
            Issue.record("the damaged step was not reported")
        } catch {
            #expect(error.message.contains("the history is damaged"), "\(error.message)")
        }
        // Read whole, the damage would be found before the first line, and nothing printed.
        let lines = reference.split(separator: "\n", omittingEmptySubsequences: false)
        let at = try #require(lines.firstIndex { $0.hasPrefix("o v\(damaged) ") })
        #expect(text == lines[..<at].map { $0 + "\n" }.joined())
        #expect(text.contains("v\(damaged - 1) "))
    }
}

/// `history --mine` of a history rebased at the log's horizon says why it is empty.
@Suite("History at the server log's horizon", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct ServerHistoryHorizonTests {
    @Test("A history rebased past the horizon lists as empty with the horizon's note, as undo says it; once it has steps again, they list")
    func emptyHistorySaysWhy() throws {
        let (todo, _) = try Sandbox.onNewServerDatabase()
        todo.environment["TODO_LOG_HORIZON"] = "5"
        for title in ["a1", "a2"] { try todo.ok("--as", "alice", "add", title) }
        for index in 1...20 { try todo.ok("--as", "bob", "add", "b\(index)") }
        let note = "what you did before list version 22 lies beyond the horizon (the server keeps what everyone changed for the last 5 versions of the list, and more changes than that came between your last two commands), so it can no longer be undone; it stays in the list"
        #expect(try todo.ok("--as", "alice", "history", "--mine").stdout == "No history: \(note)\n")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Nothing to undo: \(note)\n")
        // Someone who never reached the horizon is told nothing of it.
        #expect(try todo.ok("--as", "carol", "history", "--mine").stdout == "No history yet.\n")
        try todo.ok("--as", "alice", "add", "a3")
        let listed = try todo.ok("--as", "alice", "history", "--mine").stdout
        #expect(listed.contains("add \"a3\"") && !listed.contains("horizon"), "\(listed)")
    }
}
