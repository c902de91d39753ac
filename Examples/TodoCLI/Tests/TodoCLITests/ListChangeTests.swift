import Foundation
import Testing
@testable import TodoKit

/// How `todo watch` and the shell describe what changed between two versions of a list.
@Suite("Describing the changes between two lists")
struct ListChangeTests {
    private func list(_ items: [TodoItem]) -> TodoList { TodoList(items: items) }

    @Test("Adds, removals, edits and done marks are found by id, with positions in the new list")
    func kinds() {
        let eggs = TodoItem(id: UUID(), title: "eggs")
        let tea = TodoItem(id: UUID(), title: "tea")
        let bread = TodoItem(id: UUID(), title: "bread")
        let milk = TodoItem(id: UUID(), title: "milk")
        var duckEggs = eggs
        duckEggs.title = "duck eggs"
        var breadDone = bread
        breadDone.isDone = true
        var changes = ListChange.between(list([eggs, tea, bread]), list([duckEggs, breadDone, milk]))
        for index in changes.indices { changes[index].author = "bob" }
        #expect(changes.map(\.line) == [
            "bob removed \"tea\"",
            "bob added 3 \"milk\"",
            "bob edited 1 \"eggs\" → \"duck eggs\"",
            "bob marked 2 \"bread\" done",
        ])
        #expect(changes.map(\.field) == ["item", "item", "title", "done"])
    }

    @Test("Only items whose order among the others changed are moved, not those shifted by an add or a removal")
    func moves() {
        let items = (1...6).map { TodoItem(id: UUID(), title: "item \($0)") }
        // item 5 moved to the front; item 2 removed; a new item at the end.
        let new = TodoItem(id: UUID(), title: "new")
        let after = [items[4], items[0], items[2], items[3], items[5], new]
        let changes = ListChange.between(list(items), list(after))
        let moves = changes.filter { if case .moved = $0.kind { true } else { false } }
        #expect(moves.count == 1)
        if case let .moved(title, shortID, from, to)? = moves.first?.kind {
            #expect(title == "item 5")
            #expect((from, to) == (5, 1))
            #expect(shortID == ShortID.ids(for: after)[0])
        }
        #expect(changes.count == 3)
    }

    @Test("Unknown authors and changes made outside todo are named as such")
    func names() {
        #expect(ListChange.name(nil) == "someone")
        #expect(ListChange.name("") == "someone outside todo")
        #expect(ListChange.name("ana") == "ana")
    }

    @Test("Many changes of one kind by one person are summed up in a line")
    func summed() {
        let items = (1...1_000).map { TodoItem(id: UUID(), title: "item \($0)") }
        var changes = ListChange.between(list([]), list(items))
        for index in changes.indices { changes[index].author = "bob" }
        #expect(ListChange.lines(changes) == ["bob added 1,000 items"])
    }

    @Test("The longest increasing run keeps the most items in place")
    func longestRun() {
        #expect(ListChange.longestIncreasingRun([]).isEmpty)
        #expect(ListChange.longestIncreasingRun([0, 1, 2]) == [0, 1, 2])
        #expect(ListChange.longestIncreasingRun([3, 0, 1, 2]) == [1, 2, 3])
    }
}
