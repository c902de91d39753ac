import Foundation
import Testing
import UndoableReducer
@testable import TodoKit

/// Issue 37 item 3 on the server: a stale listing costs the change (rows of `listings`,
/// written once), and `item_log` has a horizon that an idle person does not hold back.
@Suite("The server's stale listing and log horizon", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct ServerListingAndHorizonTests {

    @Test("A listing someone else's write made stale is stored once as rows; later commands touch only the rows of what they change, and numbers still mean what was listed")
    func staleListingIsWrittenOnce() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        for title in ["a", "b", "c"] { try todo.ok("--as", "alice", "add", title) }
        try todo.ok("--as", "alice", "list")
        try todo.ok("--as", "bob", "add", "d")
        let admin = try PostgresConnection(conninfo)
        // Her own add moves her listing, which is no version of the list any more: rows.
        #expect(try todo.ok("--as", "alice", "add", "e").stdout == "Added 5: \"e\"\n")
        #expect(try admin.query("SELECT listing IS NULL, listing_version IS NULL, listing_count FROM histories WHERE author = 'alice'") == [["t", "t", "4"]])
        func rows() throws -> [String: String] {
            // xmin: the transaction that wrote the row; a row written again gets a new one.
            Dictionary(uniqueKeysWithValues: try admin.query("SELECT t.title, l.xmin::text FROM listings l JOIN items t USING (id) WHERE l.author = 'alice'").map { ($0[0] ?? "", $0[1] ?? "") })
        }
        let written = try rows()
        #expect(written.keys.sorted() == ["a", "b", "c", "e"])
        #expect(try todo.ok("--as", "alice", "done", "2").stdout == "Done 2: \"b\"\n")
        #expect(try todo.ok("--as", "alice", "add", "f").stdout == "Added 6: \"f\"\n")
        let after = try rows()
        #expect(after.keys.sorted() == ["a", "b", "c", "e", "f"])
        for title in ["a", "b", "c", "e"] { #expect(after[title] == written[title], "\(title) was written again") }
        // Her listing is a, b, c, e, f; the list a, b, c, d, e, f.
        let four = try todo.run(["--as", "alice", "done", "4"])
        #expect(four.status == 1)
        #expect(four.stderr.contains("item 4 of your last list is now item 5 (\"e\")"), "\(four.stderr)")
        let five = try todo.run(["--as", "alice", "done", "5"])
        #expect(five.status == 1)
        #expect(five.stderr.contains("item 5 of your last list is now item 6 (\"f\")"), "\(five.stderr)")
        #expect(try todo.ok("--as", "alice", "rm", "1").stdout.contains("\"a\""))
        #expect(try todo.ok("--as", "alice", "done", "1").stdout == "Item 1 is already done: \"b\"\n")
        #expect(try todo.ok("--as", "alice", "done", "2").stdout == "Done 2: \"c\"\n")
        #expect(try rows().keys.sorted() == ["b", "c", "e", "f"])
        #expect(try admin.query("SELECT listing_count FROM histories WHERE author = 'alice'") == [["4"]])
        // A new `list` makes it a version of the list again, and its rows go.
        try todo.ok("--as", "alice", "list")
        #expect(try admin.query("SELECT listing_count IS NULL, listing_version IS NOT NULL FROM histories WHERE author = 'alice'") == [["t", "t"]])
        #expect(try admin.query("SELECT count(*) FROM listings") == [["0"]])
        #expect(try todo.ok("--as", "alice", "done", "3").stdout == "Done 3: \"d\"\n")
    }

    @Test("On a long list, add, undo and redo after a stale list run near the ends: they read the listing's first and last rows and write only the rows of what they change, as the whole list would")
    func staleListingOnTheEnds() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let count = 2 * TodoServerStore.endRows + 88
        let alice = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        try alice.modify(nearTheEnds: false, appliesSavedSteps: false, onConflict: .skip) { (store) throws(TodoError) in
            for index in 1...count { store.send(.action(.add(id: UUID(), title: "i\(index)"))) }
        }
        let session = TodoSession(storage: alice, style: Style.plain)
        _ = try session.run(.list(.all, json: false))
        _ = try TodoSession(storage: TodoServerStore(conninfo: conninfo, author: "bob", historyLimit: 100), style: Style.plain).run(.add(title: "bob"))
        // The first command after bob's write runs on the whole list, and writes the listing once.
        _ = try session.run(.add(title: "a1"))
        #expect(alice.listingRowsWritten == count + 1)
        func cost(_ command: Command) throws -> (read: Int, written: Int, output: String) {
            let (read, written) = (alice.listingRowsRead, alice.listingRowsWritten)
            let output = try session.run(command)
            return (alice.listingRowsRead - read, alice.listingRowsWritten - written, output)
        }
        let add = try cost(.add(title: "a2"))
        #expect(add.output == "Added \(count + 3): \"a2\"\n")
        #expect(add.written == 1)
        #expect(add.read <= 2 * TodoServerStore.endRows)
        for (command, output) in [(Command.undo(.steps(1)), "Undid: add \"a2\"\n"), (.redo(.steps(1)), "Redid: add \"a2\"\n")] {
            let moved = try cost(command)
            #expect(moved.output == output)
            #expect(moved.written == 1)
            #expect(moved.read <= 2 * TodoServerStore.endRows)
        }
        // done and rm run on the whole list (on a server as on a file), listing and all; they
        // write the rows of what they change.
        let done = try cost(.done(position: .position(1)))
        #expect(done.output == "Done 1: \"i1\"\n")
        #expect(done.written == 0)
        let remove = try cost(.remove(position: .position(2)))
        #expect(remove.output.contains("\"i2\""))
        #expect(remove.written == 1)
        #expect(try cost(.done(position: .position(2))).output == "Done 2: \"i3\"\n")
        // Her listing ends i…, a1, a2; the list i…, bob, a1, a2: the numbers of her listing
        // are checked against what she saw, at the end as at the start.
        for (position, now, title) in [(count, count + 1, "a1"), (count + 1, count + 2, "a2")] {
            let error = #expect(throws: TodoError.self) { try session.run(.done(position: .position(position))) }
            #expect(error?.message.contains("item \(position) of your last list is now item \(now) (\"\(title)\")") == true, "\(String(describing: error?.message))")
        }
        // The rows as the whole list would have left them.
        let admin = try PostgresConnection(conninfo)
        let listed = try admin.query("SELECT t.title FROM listings l JOIN items t USING (id) WHERE l.author = 'alice' ORDER BY l.key").map { $0[0] ?? "" }
        #expect(listed == ["i1"] + (3...count).map { "i\($0)" } + ["a1", "a2"])
        #expect(try admin.query("SELECT listing_count FROM histories WHERE author = 'alice'") == [[String(count + 1)]])
    }

    @Test("A listing whose rows disagree with its count is a damaged database: nothing is changed")
    func damagedListingRows() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        for title in ["a", "b"] { try todo.ok("--as", "alice", "add", title) }
        try todo.ok("--as", "alice", "list")
        try todo.ok("--as", "bob", "add", "c")
        try todo.ok("--as", "alice", "add", "d")
        let admin = try PostgresConnection(conninfo)
        try admin.query("DELETE FROM listings WHERE author = 'alice' AND key = (SELECT min(key) FROM listings WHERE author = 'alice')")
        let before = try ServerStoreTests.snapshot(admin) + admin.query("SELECT 'listings', author, id::text, key::text FROM listings ORDER BY author, key")
        let refused = try todo.run(["--as", "alice", "add", "e"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the database is damaged"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was changed"))
        #expect(try ServerStoreTests.snapshot(admin) + admin.query("SELECT 'listings', author, id::text, key::text FROM listings ORDER BY author, key") == before)
        // A new `list` replaces the damaged listing; the commands go on.
        try todo.ok("--as", "alice", "list")
        #expect(try todo.ok("--as", "alice", "add", "e").stdout == "Added 5: \"e\"\n")
    }

    @Test("item_log stays bounded while one person is idle and another makes many changes; the idle one's history is rebased at the horizon, and undo says so when it gets there")
    func horizonBoundsTheLog() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        let horizon = 5
        todo.environment["TODO_LOG_HORIZON"] = String(horizon)
        for title in ["a1", "a2"] { try todo.ok("--as", "alice", "add", title) }
        try todo.ok("--as", "alice", "list")
        let admin = try PostgresConnection(conninfo)
        for index in 1...20 {
            try todo.ok("--as", "bob", "add", "b\(index)")
            // Each of bob's adds logs one row; alice's version no longer holds any back.
            let logged = try #require(Int(try admin.query("SELECT count(*) FROM item_log").first?[0] ?? nil ?? ""))
            #expect(logged <= horizon)
        }
        #expect(try admin.query("SELECT log_floor FROM list_version") == [["17"]])
        // Everyone's history still lists while she is away.
        #expect(try todo.ok("--as", "bob", "history").stdout.contains("add \"b20\""))
        #expect(try todo.ok("--as", "alice", "add", "a3").stdout == "Added 23: \"a3\"\n")
        #expect(try admin.query("SELECT horizon_version FROM histories WHERE author = 'alice'") == [["22"]])
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"a3\"\n")
        let note = "what you did before list version 22 lies beyond the horizon (the server keeps what everyone changed for the last 5 versions of the list, and more changes than that came between your last two commands), so it can no longer be undone; it stays in the list"
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Nothing to undo: \(note)\n")
        #expect(try todo.ok("--as", "alice", "redo").stdout == "Redid: add \"a3\"\n")
        #expect(try todo.ok("--as", "alice", "undo", "3").stdout == "Undid 1 step (all there were; \(note)): add \"a3\"\n")
        // Nothing lost: her adds before the horizon stay, and bob's history is his.
        #expect(try todo.titles() == ["a1", "a2"] + (1...20).map { "b\($0)" })
        #expect(try todo.ok("--as", "bob", "undo").stdout == "Undid: add \"b20\"\n")
        // Her listing was of a version beyond the horizon: no number is taken as listed
        // until she lists again.
        let refused = try todo.run(["--as", "alice", "done", "1"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("run \"todo list\" again"), "\(refused.stderr)")
        try todo.ok("--as", "alice", "list")
        #expect(try todo.ok("--as", "alice", "done", "1").stdout == "Done 1: \"a1\"\n")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: done \"a1\"\n")
        let logged = try #require(Int(try admin.query("SELECT count(*) FROM item_log").first?[0] ?? nil ?? ""))
        #expect(logged <= horizon)
    }

    @Test("A database of schema version 4 is migrated to 5: its listings and log still read")
    func versionFourIsMigrated() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        for title in ["a", "b"] { try todo.ok("--as", "alice", "add", title) }
        try todo.ok("--as", "alice", "list")
        try todo.ok("--as", "bob", "add", "c")
        let admin = try PostgresConnection(conninfo)
        try ServerStoreTests.undoVersionFive(admin)
        #expect(try todo.ok("--as", "alice", "done", "2").stdout == "Done 2: \"b\"\n")
        #expect(try admin.query("SELECT version FROM schema_version") == [[String(ServerSchema.version)]])
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: done \"b\"\n")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"b\"\n")
        #expect(try todo.titles() == ["a", "c"])
    }
}

/// How a listing kept as rows changes, without a server.
@Suite("A listing's rows")
struct ListingRowsPlanTests {
    let ids = (0..<6).map { _ in UUID() }

    @Test("A move deletes and inserts the moved id only, keyed between its new neighbours")
    func moveTouchesOneRow() throws {
        let old = ids.enumerated().map { (id: $1, key: Int64($0 + 1) * ListingRows.spacing) }
        let new = [ids[5]] + ids[0..<5]
        let plan = try #require(ListingRows.plan(new, replacing: old))
        #expect(plan.deleted == [ids[5]])
        #expect(plan.inserted.map(\.id) == [ids[5]])
        #expect(try #require(plan.inserted.first).key < old[0].key)
    }

    @Test("Adds between two neighbours share the gap, in order; with no key left between them, no plan (the listing is written whole)")
    func addsShareTheGap() throws {
        let old = [(id: ids[0], key: Int64(10)), (id: ids[1], key: Int64(14))]
        let three = try #require(ListingRows.plan([ids[0], ids[2], ids[3], ids[4], ids[1]], replacing: old))
        #expect(three.deleted.isEmpty)
        #expect(three.inserted.map(\.id) == [ids[2], ids[3], ids[4]])
        #expect(three.inserted.map(\.key) == [11, 12, 13])
        #expect(ListingRows.plan([ids[0], ids[2], ids[3], ids[4], ids[5], ids[1]], replacing: old) == nil)
    }

    @Test("TODO_LOG_HORIZON: a number of list versions, 1 or more; the default without it")
    func horizonSetting() throws {
        #expect(try TodoApp.logHorizon(environment: [:]) == TodoServerStore.defaultLogHorizon)
        #expect(try TodoApp.logHorizon(environment: ["TODO_LOG_HORIZON": "50"]) == 50)
        for bad in ["0", "-3", "ten", "1.5"] {
            #expect(throws: TodoError.self) { try TodoApp.logHorizon(environment: ["TODO_LOG_HORIZON": bad]) }
        }
    }
}

extension ListingRowsPlanTests {
    @Test("Any new order: applying the plan to the old rows gives it, with keys in order", arguments: 0..<40)
    func planGivesTheNewOrder(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let all = (0..<30).map { _ in UUID() }
        let old = all.prefix(Int.random(in: 0...20, using: &random)).enumerated().map { (id: $1, key: Int64($0 + 1) * ListingRows.spacing) }
        // Some dropped, some added, some moved.
        var new = old.map(\.id).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
        for id in all.suffix(10) where Bool.random(using: &random) { new.insert(id, at: Int.random(in: 0...new.count, using: &random)) }
        for _ in 0..<Int.random(in: 0...2, using: &random) where new.count > 1 {
            let id = new.remove(at: Int.random(in: 0..<new.count, using: &random))
            new.insert(id, at: Int.random(in: 0...new.count, using: &random))
        }
        let plan = try #require(ListingRows.plan(new, replacing: old))
        var rows = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0.key) })
        for id in plan.deleted { #expect(rows.removeValue(forKey: id) != nil) }
        for (id, key) in plan.inserted {
            #expect(rows[id] == nil)
            rows[id] = key
        }
        #expect(rows.sorted { $0.value < $1.value }.map(\.key) == new)
        #expect(Set(rows.values).count == rows.count)
    }
}
