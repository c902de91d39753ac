import Foundation
import Revertible
import Testing
import UndoableReducer
@testable import TodoKit

/// The server store in process: what a lost connection leaves, and how one's own change
/// moves one's listing.
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
        let saved = try #require(try admin.query("SELECT state, listing FROM histories WHERE author = 'alice'").first)
        #expect(saved[0]?.contains("\"present\"") == false)
        #expect(saved[1] ?? nil != nil)
        try todo.ok("--as", "alice", "list")
        #expect(try admin.query("SELECT listing IS NULL, listing_version IS NOT NULL FROM histories WHERE author = 'alice'") == [["t", "t"]])
        #expect(try admin.query("SELECT count(*) FROM steps WHERE author = 'alice'") == [["3"]])
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
