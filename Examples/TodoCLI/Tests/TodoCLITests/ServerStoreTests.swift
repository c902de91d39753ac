import Foundation
import Revertible
import Testing
import UndoableReducer
@testable import TodoKit

/// The server store in process: what a lost connection leaves, how one's own change moves
/// one's listing, and what a command reads of a person's history.
@Suite("The server store", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct ServerStoreTests {

    @Test("A connection lost in the middle of a command changes nothing and says so")
    func lostConnectionChangesNothing() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let store = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        let session = TodoSession(storage: store, style: Style.plain)
        _ = try session.run(.add(title: "milk"))
        let admin = try PostgresConnection(conninfo)
        let database = try #require(admin.query("SELECT current_database()").first?[0] ?? nil)
        let error = #expect(throws: TodoError.self) {
            try store.modify(nearTheEnds: false, appliesSavedSteps: false, onConflict: .skip) { (todo) throws(TodoError) in
                todo.send(.action(.add(id: UUID(), title: "eggs")))
                // The server ends this command's session before anything is written.
                _ = try? admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database])
                return ()
            }
        }
        #expect(error?.message.contains("the connection to the server was lost") == true)
        #expect(error?.message.hasSuffix("nothing was changed") == true)
        // A new connection, the same list: the change is not there, and the next command works.
        let again = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        #expect(try again.readList().items.map(\.title) == ["milk"])
        _ = try TodoSession(storage: again, style: Style.plain).run(.add(title: "bread"))
        #expect(try again.readList().items.map(\.title) == ["milk", "bread"])
    }

    @Test("A version 1 database (each history saved with a copy of the list) is migrated: its steps still undo and redo, and it is saved without the copy")
    func versionOneIsMigrated() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let admin = try PostgresConnection(conninfo)
        try admin.query("CREATE TABLE schema_version (version integer NOT NULL)")
        try admin.query("INSERT INTO schema_version VALUES (1)")
        for statement in ServerSchema.migrations[0] { try admin.query(statement) }
        // Alice's two adds, saved as version 1 did: the list in items, her history with its
        // present in state, her listing as every id.
        let store = TodoStore(initialState: UndoableState(TodoList()), reducer: TodoReducer.withUndo(historyLimit: 100))
        store.send(.action(.add(id: UUID(), title: "milk")))
        store.send(.action(.add(id: UUID(), title: "eggs")))
        let items = store.state.present.items
        for (index, item) in items.enumerated() {
            try admin.query("INSERT INTO items (position, id, title, done) VALUES ($1, $2, $3, false)", [String((index + 1) << 20), item.id.uuidString, item.title])
        }
        let state = String(decoding: try JSONEncoder().encode(store.state), as: UTF8.self)
        let listing = String(decoding: try JSONEncoder().encode(items.map(\.id)), as: UTF8.self)
        try admin.query("INSERT INTO histories (author, state, listing) VALUES ('alice', $1, $2)", [state, listing])

        let todo = try Sandbox()
        todo.environment["TODO_DATABASE"] = conninfo
        #expect(try todo.ok("--as", "bob", "add", "tea").stdout == "Added 3: \"tea\"\n")
        #expect(try admin.query("SELECT version FROM schema_version") == [[String(ServerSchema.version)]])
        // Alice's saved present and listing are read as saved; her steps undo around bob's.
        #expect(try todo.ok("--as", "alice", "done", "2").stdout == "Done 2: \"eggs\"\n")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: done \"eggs\"\n")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"eggs\"\n")
        #expect(try todo.ok("--as", "alice", "redo").stdout == "Redid: add \"eggs\"\n")
        #expect(try TodoServerStore(conninfo: conninfo, author: "reader", historyLimit: 100).readList().items.map(\.title) == ["milk", "eggs", "tea"])
        // Her listing is still the one she last listed (tea came from bob since), until she
        // lists again: then it is a version of the list.
        // Kept as her rows of `listings` since (schema version 5), not as JSON.
        let saved = try #require(try admin.query("SELECT state, listing_count FROM histories WHERE author = 'alice'").first)
        #expect(saved[0]?.contains("\"present\"") == false)
        #expect(saved[1] ?? nil == "2")
        #expect(try admin.query("SELECT t.title FROM listings l JOIN items t USING (id) WHERE l.author = 'alice' ORDER BY l.key") == [["milk"], ["eggs"]])
        try todo.ok("--as", "alice", "list")
        #expect(try admin.query("SELECT listing IS NULL, listing_version IS NOT NULL FROM histories WHERE author = 'alice'") == [["t", "t"]])
        #expect(try admin.query("SELECT count(*) FROM steps WHERE author = 'alice'") == [["3"]])
    }

    @Test("A history saved by schema version 3 (steps without depth or columns, outline without per-scope counts) is rewritten on its person's next write and still undoes; until then it is read whole")
    func versionThreeHistoryIsRewritten() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        try todo.ok("--as", "alice", "add", "eggs")
        try todo.ok("--as", "alice", "done", "2")
        try todo.ok("--as", "bob", "add", "tea")
        // Back to what version 3 wrote: no columns, no depths, no counts or newest time in
        // the outlines, no format; and none of version 5's tables and columns.
        let admin = try PostgresConnection(conninfo)
        try Self.undoVersionFive(admin)
        try admin.query("DROP INDEX steps_by_parent")
        try admin.query("ALTER TABLE steps DROP COLUMN parent")
        try admin.query("ALTER TABLE steps DROP COLUMN scope")
        try admin.query("UPDATE steps SET step = (step::jsonb - 'depth')::text")
        for row in try admin.query("SELECT author, state FROM histories") {
            try admin.query("UPDATE histories SET state = $2 WHERE author = $1", [row[0], try Self.asSchemaThree(try #require(row[1] ?? nil))])
        }
        try admin.query("UPDATE schema_version SET version = 3")

        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: done \"eggs\"\n")
        #expect(try admin.query("SELECT version FROM schema_version") == [[String(ServerSchema.version)]])
        // Alice's rows were all written again, for reading one at a time; Bob's wait for his
        // next write, and are read whole until then.
        #expect(try admin.query("SELECT count(*) FROM steps WHERE author = 'alice' AND parent IS NOT NULL AND scope = 0 AND step::jsonb ? 'depth'") == [["3"]])
        #expect(try admin.query("SELECT state::jsonb -> 'format' FROM histories WHERE author = 'alice'") == [[String(ServerSchema.lazyHistoryVersion)]])
        #expect(try admin.query("SELECT count(*) FROM steps WHERE author = 'bob' AND parent IS NULL") == [["1"]])
        #expect(try todo.ok("--as", "bob", "history", "--mine").stdout.contains("add \"tea\""))
        #expect(try todo.ok("--as", "bob", "undo").stdout == "Undid: add \"tea\"\n")
        #expect(try admin.query("SELECT count(*) FROM steps WHERE author = 'bob' AND parent IS NOT NULL AND step::jsonb ? 'depth'") == [["1"]])
        // Both go on from the rewritten rows.
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"eggs\"\n")
        #expect(try todo.ok("--as", "alice", "redo", "2").stdout == "Redid 2 steps: add \"eggs\"; done \"eggs\"\n")
        #expect(try todo.ok("--as", "bob", "redo").stdout == "Redid: add \"tea\"\n")
        #expect(try todo.titles() == ["milk", "eggs", "tea"])
        #expect(try todo.ok("--as", "alice", "history").stdout.contains("add \"tea\""))
    }

    /// Takes a database of schema version 5 back to 4's tables (its rows as they are).
    static func undoVersionFive(_ admin: PostgresConnection) throws {
        try admin.query("DROP TABLE listings")
        try admin.query("ALTER TABLE histories DROP COLUMN listing_count")
        try admin.query("ALTER TABLE histories DROP COLUMN horizon_version")
        try admin.query("ALTER TABLE list_version DROP COLUMN log_floor")
        try admin.query("UPDATE schema_version SET version = 4")
    }

    /// `state` as schema version 3 saved it: the outline without the counts of its scopes'
    /// steps or its newest time, and no format.
    static func asSchemaThree(_ state: String) throws -> String {
        var saved = try #require(JSONSerialization.jsonObject(with: Data(state.utf8)) as? [String: Any])
        saved["format"] = nil
        var outline = try #require(saved["outline"] as? [String: Any])
        outline["newest"] = nil
        outline["scopes"] = try #require(outline["scopes"] as? [[String: Any]]).map { scope in
            var scope = scope
            scope["steps"] = nil
            return scope
        }
        saved["outline"] = outline
        return String(decoding: try JSONSerialization.data(withJSONObject: saved), as: UTF8.self)
    }

    @Test("A command on a history of 2,000 steps reads the rows of the few steps it crosses, not the history")
    func longHistoryReadsFewRows() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let limit = 5_000
        // 2,000 steps in one command: an add, then the item's done mark turned over and over.
        try TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: limit).modify(nearTheEnds: false, appliesSavedSteps: false, onConflict: .skip) { (store) throws(TodoError) in
            let item = TodoItem(id: UUID(), title: "milk")
            store.send(.action(.add(id: item.id, title: item.title)))
            for index in 1..<2_000 {
                store.send(.action(.setDone(id: item.id, title: item.title, isDone: index % 2 == 1)))
            }
        }
        let admin = try PostgresConnection(conninfo)
        #expect(try admin.query("SELECT count(*) FROM steps WHERE author = 'alice'") == [["2000"]])

        let store = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: limit)
        let session = TodoSession(storage: store, style: Style.plain)
        func rowsRead(_ command: Command) throws -> Int {
            let before = store.stepRowsRead
            _ = try session.run(command)
            return store.stepRowsRead - before
        }
        // Each reads the step undo would take and its parent, the steps it moves over, and
        // the list of the versions after the present.
        #expect(try rowsRead(.add(title: "eggs")) <= 4)
        #expect(try rowsRead(.undo(.steps(1))) <= 6)
        #expect(try rowsRead(.redo(.steps(1))) <= 6)
        #expect(try rowsRead(.undo(.steps(3))) <= 10)
        #expect(try rowsRead(.tag(name: "here")) <= 6)
        #expect(try store.readList().items.map(\.title) == ["milk"])
        #expect(try admin.query("SELECT count(*) FROM steps WHERE author = 'alice'") == [["2001"]])
        // The listing of the history reads every step, one row each as it prints it: what
        // the count above would show had a command read the history.
        let before = store.stepRowsRead
        _ = try session.run(.history(json: true, mine: true))
        #expect(store.stepRowsRead - before >= 2_001)
    }

    @Test("In a shell, a command after the process's own last one reads neither the list's rows nor its steps again, and still sees what others wrote since")
    func shellKeepsWhatItWrote() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let store = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        let session = TodoSession(storage: store, style: Style.plain)
        for title in ["a", "b", "c"] { _ = try session.run(.add(title: title)) }
        func reads(_ command: Command) throws -> (items: Int, steps: Int) {
            let (items, steps) = (store.itemRowsRead, store.stepRowsRead)
            _ = try session.run(command)
            return (store.itemRowsRead - items, store.stepRowsRead - steps)
        }
        // Near the ends and in the middle alike: the list and the history as alice's last
        // command wrote them.
        #expect(try reads(.edit(position: .position(2), title: "B")) == (0, 0))
        #expect(try reads(.done(position: .position(1))) == (0, 0))
        #expect(try reads(.add(title: "d")) == (0, 0))
        // Undo reaches a step this process has not read since: that step, its parent and the
        // versions after it, as on a history just opened.
        let undo = try reads(.undo(.steps(1)))
        #expect(undo.items == 0)
        #expect(undo.steps <= 3, "\(undo.steps)")

        // Bob adds an item, and someone in psql renames one (the schema's trigger gives the
        // list a new version): alice's next command reads the list again and absorbs both.
        _ = try TodoSession(storage: TodoServerStore(conninfo: conninfo, author: "bob", historyLimit: 100), style: Style.plain).run(.add(title: "e"))
        let admin = try PostgresConnection(conninfo)
        try admin.query("UPDATE items SET title = 'see' WHERE title = 'c'")
        let after = try reads(.done(position: .position(3)))
        #expect(after.items == 4)
        #expect(try store.readList().items.map { "\($0.title)\($0.isDone ? "+" : "")" } == ["a+", "B", "see+", "e"])
        // Her undo takes back her own last change only, around theirs.
        _ = try session.run(.undo(.steps(1)))
        #expect(try store.readList().items.map { "\($0.title)\($0.isDone ? "+" : "")" } == ["a+", "B", "see", "e"])
        // Another process of hers, in between, is seen too: her row no longer holds what this
        // one wrote, so the history is read again.
        _ = try TodoSession(storage: TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100), style: Style.plain).run(.undo(.steps(1)))
        #expect(try reads(.redo(.steps(1))).steps > 0)
        #expect(try store.readList().items.map { "\($0.title)\($0.isDone ? "+" : "")" } == ["a+", "B", "see", "e"])
        _ = try session.run(.redo(.steps(1)))
        #expect(try store.readList().items.map { "\($0.title)\($0.isDone ? "+" : "")" } == ["a+", "B", "see+", "e"])
    }

    @Test("A step found damaged where a command first reads it is the history's damage, in plain words; nothing is written, and the steps after it still undo")
    func damagedStepIsTheHistorysDamage() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        for title in ["a", "b", "c", "d", "e"] { try todo.ok("--as", "alice", "add", title) }
        try todo.ok("--as", "bob", "add", "f")
        let admin = try PostgresConnection(conninfo)
        let versions = try admin.query("SELECT version FROM steps WHERE author = 'alice' ORDER BY version").map { $0[0] ?? "" }
        try admin.query("UPDATE steps SET step = '{}' WHERE author = 'alice' AND version = $1::bigint", [versions[1]])
        // Undoing "e" reads "e" and "d", and "c" as the parent whose depth "d"'s is checked
        // against: none is damaged.
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"e\"\n")
        #expect(try todo.ok("--as", "alice", "redo").stdout == "Redid: add \"e\"\n")
        let before = try Self.snapshot(admin)
        // Undoing "e" and "d" reaches "c", whose parent "b" cannot be read: refused, whether
        // the move read it or what came after (the count of steps left to undo).
        for steps in ["2", "3"] {
            let refused = try todo.run(["--as", "alice", "undo", steps])
            #expect(refused.status == 1)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.contains("the history of alice cannot be read (history step \(versions[1]) cannot be decoded); nothing was changed"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("HistoryArchiveError"))
            #expect(try Self.snapshot(admin) == before)
        }
        // Someone else's history is not affected.
        #expect(try todo.ok("--as", "bob", "undo").stdout == "Undid: add \"f\"\n")
        #expect(try todo.titles() == ["a", "b", "c", "d", "e"])
    }

    /// The rows a command could write, to compare before and after a refused one.
    static func snapshot(_ connection: PostgresConnection) throws -> [[String?]] {
        try connection.query("SELECT 'items', id::text, title, done::text FROM items ORDER BY position")
            + connection.query("SELECT 'histories', author, md5(state), md5(coalesce(listing, '')) FROM histories ORDER BY author")
            + connection.query("SELECT 'steps', author, version::text, md5(step) FROM steps ORDER BY author, version")
            + connection.query("SELECT 'version', version::text, '', '' FROM list_version")
    }

    @Test("Passwords are not shown in messages")
    func passwordHidden() {
        #expect(TodoServerStore(conninfo: "postgresql://ann:secret@db.example/shop", author: "a", historyLimit: 1).displayName == "postgresql://ann:***@db.example/shop")
        #expect(TodoServerStore(conninfo: "host=db password=secret dbname=shop", author: "a", historyLimit: 1).displayName == "host=db password=*** dbname=shop")
    }
}

@Suite("The caller's listing")
struct ListingTests {
    let milk = TodoItem(id: UUID(), title: "milk")
    let eggs = TodoItem(id: UUID(), title: "eggs")
    let tea = TodoItem(id: UUID(), title: "tea")

    @Test("One's own change moves one's listing with it; others' changes do not")
    func listing() {
        let before = TodoList(items: [milk, eggs, tea])
        // Alice listed [milk, eggs]; tea came from someone else since. She removes milk and
        // adds bread.
        let bread = TodoItem(id: UUID(), title: "bread")
        let after = TodoList(items: [eggs, tea, bread])
        #expect(TodoServerStore.listing([milk.id, eggs.id], after: before, became: after) == [eggs.id, bread.id])
    }
}
