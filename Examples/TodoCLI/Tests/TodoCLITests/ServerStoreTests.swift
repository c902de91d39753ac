import Foundation
import Revertible
import Testing
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
