import Foundation
import Revertible
import Testing
import UndoableReducer
@testable import TodoKit

/// Every row a command changes is written: after each command, the list read back from the
/// store's rows (a fresh store, nothing cached) is the list the command left in memory. The
/// commands cover every way a present changes: a recorded action (an edit, a removal, a move,
/// an import), undo and redo of one step and of several, a move to another branch, a scope
/// committed and one rolled back, steps dropped by the history limit, and on a server an
/// undo applied selectively over someone else's changes.
@Suite("Every row a command changes is written")
struct RowsWrittenTests {

    /// Runs `change` through `storage.modify` and expects the rows, read by `reread`, to hold
    /// exactly the list `change` left (ids, order, titles, done marks).
    static func expectWritten(
        _ what: String,
        _ storage: any TodoStorage,
        nearTheEnds: Bool,
        moves: Bool = false,
        reread: () throws -> TodoList,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ change: @escaping (TodoStore) -> Void
    ) throws {
        let present = try storage.modify(nearTheEnds: nearTheEnds, appliesSavedSteps: moves, onConflict: .skip) { (store) throws(TodoError) in
            change(store)
            #expect(store.state.error == nil, "\(what): \(String(describing: store.state.error))", sourceLocation: sourceLocation)
            return store.state.present
        }
        let rows = try reread()
        let expected = present.items.map { "\($0.id) \($0.isDone) \($0.title)" }
        let stored = rows.items.map { "\($0.id) \($0.isDone) \($0.title)" }
        #expect(stored.count == expected.count, "\(what): \(stored.count) rows for \(expected.count) items", sourceLocation: sourceLocation)
        // Near the ends, the list in memory holds stand-ins (empty titles, which no item of
        // these tests has) for the rows not read: any row matches one.
        let standIns = Set(present.items.indices.filter { present.items[$0].title.isEmpty })
        let firstDifference = stored.indices.first { $0 < expected.count && !standIns.contains($0) && stored[$0] != expected[$0] }
        #expect(firstDifference == nil, "\(what): the row at \(firstDifference ?? 0) is \(firstDifference.map { stored[$0] } ?? ""), the list holds \(firstDifference.map { expected[$0] } ?? "")", sourceLocation: sourceLocation)
    }

    /// The commands on one storage: a list longer than twice the rows read near the ends, so
    /// that both the whole-list and the near-the-ends paths write.
    static func script(_ storage: any TodoStorage, nearTheEnds: Bool, reread: () throws -> TodoList) throws {
        func run(_ what: String, moves: Bool = false, _ change: @escaping (TodoStore) -> Void) throws {
            try expectWritten(what, storage, nearTheEnds: nearTheEnds, moves: moves, reread: reread, change)
        }
        let items = (0..<(2 * TodoDataFile.endRows + 100)).map { TodoItem(id: UUID(), title: "item \($0)") }
        let count = items.count
        try run("import") { $0.send(.action(.replaceAll(items: items, source: "test"))) }
        func item(_ store: TodoStore, _ position: Int) -> TodoItem { store.state.present.items[position] }

        try run("an edit in the middle") { store in
            let middle = item(store, count / 2)
            store.send(.action(.edit(id: middle.id, from: middle.title, to: "edited")))
        }
        try run("done near the end") { store in
            let last = item(store, count - 1)
            store.send(.action(.setDone(id: last.id, title: last.title, isDone: true)))
        }
        try run("a removal") { store in
            let removed = item(store, 100)
            store.send(.action(.remove(id: removed.id, title: removed.title)))
        }
        try run("the undo of a removal", moves: true) { $0.send(.undo) }
        try run("the redo of a removal", moves: true) { $0.send(.redo) }
        try run("a move far down") { store in
            let moved = item(store, 10)
            store.send(.action(.move(id: moved.id, title: moved.title, from: 10, to: count - 20)))
        }
        try run("the undo of a move", moves: true) { $0.send(.undo) }
        try run("an add") { $0.send(.action(.add(id: UUID(), title: "added"))) }
        try run("the undo of three steps (an add, a removal's redo, a done)", moves: true) { $0.send(.undo(to: .steps(3))) }
        try run("the redo of two steps", moves: true) { $0.send(.redo(to: .steps(2))) }
        var branch: HistoryVersion?
        try run("an edit that starts a branch") { store in
            // The step left to redo (the add) is then on the other branch.
            branch = store.state.steps().redo.first?.version
            let first = item(store, 0)
            store.send(.action(.edit(id: first.id, from: first.title, to: "on a branch")))
        }
        #expect(branch != nil)
        try run("a move to the other branch's version", moves: true) { store in
            if let branch { store.send(.move(to: .version(branch))) }
        }
        try run("begin") { $0.send(.pushNewScope) }
        try run("changes in a scope") { store in
            let a = item(store, 5)
            store.send(.action(.edit(id: a.id, from: a.title, to: "scoped")))
            let b = item(store, count - 5)
            store.send(.action(.remove(id: b.id, title: b.title)))
        }
        try run("commit") { $0.send(.popCurrentScope) }
        try run("begin, then changes") { store in
            store.send(.pushNewScope)
            let a = item(store, 7)
            store.send(.action(.setDone(id: a.id, title: a.title, isDone: true)))
            store.send(.action(.add(id: UUID(), title: "to roll back")))
        }
        try run("rollback", moves: true) { $0.send(.undoAndPopCurrentScope) }
        try run("three done, then clear") { store in
            let ids = [3, 300, count - 30].map { item(store, $0) }
            for done in ids { store.send(.action(.setDone(id: done.id, title: done.title, isDone: true))) }
            store.send(.action(.clear(ids: store.state.present.items.filter(\.isDone).map(\.id))))
        }
        try run("the undo of a clear", moves: true) { $0.send(.undo) }
        try run("a second import") { store in
            let kept = Array(store.state.present.items.prefix(50).reversed()) + [TodoItem(id: UUID(), title: "imported")]
            store.send(.action(.replaceAll(items: kept, source: "test")))
        }
        try run("the undo of an import", moves: true) { $0.send(.undo) }
        try run("the undo of everything there is", moves: true) { $0.send(.undo(to: .oldest)) }
        try run("the redo of everything there is", moves: true) { $0.send(.redo(to: .newest)) }
    }

    @Test("On an SQLite file, on the whole list and near its ends, with a history limit that drops steps and one that does not", arguments: [false, true], [8, 100])
    func sqliteFile(nearTheEnds: Bool, historyLimit: Int) throws {
        let sandbox = try Sandbox()
        let file = TodoDataFile(path: sandbox.file, historyLimit: historyLimit, singleCommand: nearTheEnds)
        try Self.script(file, nearTheEnds: nearTheEnds) {
            try TodoDataFile(path: sandbox.file, historyLimit: historyLimit).readList()
        }
    }

    @Test("On a server, and an undo applied selectively over someone else's changes", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
    func server() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let alice = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        let reread = { try TodoServerStore(conninfo: conninfo, author: "carol", historyLimit: 100).readList() }
        try Self.script(alice, nearTheEnds: true, reread: reread)

        // Alice edits and removes; Bob then edits, removes and moves around those items; Alice's
        // undo takes back only her own changes, where Bob's moves left them.
        let bob = TodoServerStore(conninfo: conninfo, author: "bob", historyLimit: 100)
        var aliceEdited: TodoItem?
        try Self.expectWritten("Alice's edit and removal", alice, nearTheEnds: false, reread: reread) { store in
            let items = store.state.present.items
            let edited = items[20]
            aliceEdited = edited
            store.send(.transaction([.edit(id: edited.id, from: edited.title, to: "alice's"), .remove(id: items[40].id, title: items[40].title)]))
        }
        try Self.expectWritten("Bob's changes around them", bob, nearTheEnds: false, reread: reread) { store in
            let items = store.state.present.items
            store.send(.action(.move(id: items[20].id, title: items[20].title, from: 20, to: 2)))
            store.send(.action(.remove(id: items[5].id, title: items[5].title)))
            store.send(.action(.edit(id: items[30].id, from: items[30].title, to: "bob's")))
            store.send(.action(.add(id: UUID(), title: "bob's new")))
        }
        try Self.expectWritten("Alice's selective undo", alice, nearTheEnds: false, moves: true, reread: reread) { $0.send(.undo) }
        let list = try reread()
        #expect(list.items.contains { $0.id == aliceEdited?.id && $0.title == aliceEdited?.title }, "Alice's edit is undone")
        #expect(list.items.contains { $0.title == "bob's" } && list.items.contains { $0.title == "bob's new" }, "Bob's changes stay")
        try Self.expectWritten("Alice's redo", alice, nearTheEnds: true, moves: true, reread: reread) { $0.send(.redo) }
        try Self.expectWritten("Bob's undo of four steps", bob, nearTheEnds: false, moves: true, reread: reread) { $0.send(.undo(to: .steps(4))) }
    }
}
