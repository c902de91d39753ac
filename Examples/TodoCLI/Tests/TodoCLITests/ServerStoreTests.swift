import Foundation
import Revertible
import Testing
@testable import TodoKit

/// The server store in process: what a lost connection leaves, and the rules of a move
/// applied part by part (`SelectiveMove`).
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

@Suite("A move applied part by part")
struct SelectiveMoveTests {
    let milk = TodoItem(id: UUID(), title: "milk")
    let eggs = TodoItem(id: UUID(), title: "eggs")
    let tea = TodoItem(id: UUID(), title: "tea")

    @Test("With nobody else's change, the result is the moved view exactly")
    func noOtherWriter() {
        let view = TodoList(items: [milk, eggs])
        let moved = TodoList(items: [eggs, milk])
        let move = SelectiveMove(view: view, moved: moved, current: view)
        #expect(Array(move.result.items) == [eggs, milk])
        #expect(move.skipped.isEmpty)
    }

    @Test("Removing an item someone else changed is skipped; an unchanged one is removed")
    func removal() {
        var renamed = eggs
        renamed.title = "brown eggs"
        let move = SelectiveMove(view: TodoList(items: [milk, eggs]), moved: TodoList(items: []), current: TodoList(items: [tea, milk, renamed]))
        #expect(Array(move.result.items) == [tea, renamed])
        #expect(move.skipped.map(\.field) == ["item"])
        #expect(move.skipped.first?.item == eggs.id)
        #expect(move.skipped.first?.title == "brown eggs")
    }

    @Test("A field is reverted only where it still holds the view's value; a removed item is reported")
    func fields() {
        var doneMilk = milk
        doneMilk.isDone = true
        var renamedMilk = doneMilk
        renamedMilk.title = "soy milk"
        var doneEggs = eggs
        doneEggs.isDone = true
        // The view had both done; the move un-does both, and renames milk back.
        let view = TodoList(items: [TodoItem(id: milk.id, title: "oat milk", isDone: true), doneEggs])
        let moved = TodoList(items: [milk, eggs])
        let move = SelectiveMove(view: view, moved: moved, current: TodoList(items: [renamedMilk]))
        #expect(Array(move.result.items) == [TodoItem(id: milk.id, title: "soy milk", isDone: false)])
        #expect(Set(move.skipped.map { "\($0.field) \($0.title) \($0.removed)" }) == ["title soy milk false", "done eggs true"])
    }

    @Test("An item brought back goes after the one it followed, else before the one it preceded, else at the end")
    func placement() {
        let current = TodoList(items: [tea, eggs])
        #expect(Array(SelectiveMove(view: TodoList(items: [eggs]), moved: TodoList(items: [eggs, milk]), current: current).result.items) == [tea, eggs, milk])
        #expect(Array(SelectiveMove(view: TodoList(items: [tea]), moved: TodoList(items: [milk, tea]), current: current).result.items) == [milk, tea, eggs])
        #expect(Array(SelectiveMove(view: TodoList(items: []), moved: TodoList(items: [milk]), current: current).result.items) == [tea, eggs, milk])
    }

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
