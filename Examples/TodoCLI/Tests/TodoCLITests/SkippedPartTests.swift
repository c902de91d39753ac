import Foundation
import Revertible
import Testing
@testable import TodoKit
import UndoableReducer

/// The engine's conflicts, as the server store reports them: each names an item's field by
/// the item's title now, not by a struct's description.
@Suite("Skipped parts from the engine's conflicts")
struct SkippedPartTests {
    let milk = UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!
    let eggs = UUID(uuidString: "00000000-0000-0000-0000-0000000000b2")!

    /// A store moving with `.skip`, as the server store's moves do, with `milk` added and
    /// marked done by the caller.
    func makeStore() -> TodoStore {
        let store = TodoStore(
            initialState: UndoableState(TodoList()),
            reducer: TodoReducer.withUndo(historyLimit: 100, conflictPolicy: .skip)
        )
        store.send(.action(.add(id: milk, title: "milk")))
        store.send(.action(.setDone(id: milk, title: "milk", isDone: true)))
        return store
    }

    /// Someone else's change, absorbed as the server store absorbs it.
    func absorb(_ items: [TodoItem], into store: TodoStore) {
        store.send(.action(.absorb(items: items)))
    }

    /// The parts the last move skipped, as the server store names them.
    func parts(_ store: TodoStore) -> [SkippedPart] {
        SkippedPart.parts(of: store.state.lastConflicts, current: store.state.present, known: [])
    }

    @Test func aDoneMarkSomeoneElseChangedIsSkippedByField() {
        let store = makeStore()
        absorb([TodoItem(id: milk, title: "oat milk", isDone: false)], into: store)
        store.send(.undo)
        #expect(store.state.error == nil)
        #expect(parts(store) == [SkippedPart(field: "done", item: milk, title: "oat milk", changedBy: nil, removed: false)])
        // The step is undone all the same, and what it left alone stays.
        #expect(store.state.undoCount == 1)
        #expect(Array(store.state.present.items) == [TodoItem(id: milk, title: "oat milk", isDone: false)])
    }

    @Test func removingAnItemSomeoneElseChangedIsSkippedAsTheItem() {
        let store = makeStore()
        store.send(.undo)
        absorb([TodoItem(id: milk, title: "oat milk", isDone: false), TodoItem(id: eggs, title: "eggs")], into: store)
        store.send(.undo)
        #expect(store.state.error == nil)
        #expect(parts(store) == [SkippedPart(field: "item", item: milk, title: "oat milk", changedBy: nil, removed: false)])
        #expect(store.state.present.items.map(\.title) == ["oat milk", "eggs"])
    }

    @Test func moreThanOneStepReportsEachPartOnce() {
        let store = makeStore()
        absorb([TodoItem(id: milk, title: "oat milk", isDone: false)], into: store)
        store.send(.undo(to: .steps(2)))
        let found = parts(store)
        #expect(found.count == Set(found.map { "\(String(describing: $0.item)) \($0.field)" }).count)
        #expect(found.contains { $0.field == "item" && $0.title == "oat milk" })
        #expect(store.state.present.items.map(\.title) == ["oat milk"])
    }

    @Test func aConflictThatNamesNoItemIsTheWholeList() {
        let list = TodoList(items: [TodoItem(id: milk, title: "milk")])
        let conflicts = [ReversionConflict(location: #"\TodoList.items"#), ReversionConflict(location: #"\TodoList.items"#)]
        #expect(SkippedPart.parts(of: conflicts, current: list, known: []) == [.wholeList])
        #expect(TodoServerStore.describe([.wholeList], refused: false).contains("the order and contents of the list"))
    }

    @Test func aLocationThatNamesNoItemIsNoPart() {
        let list = TodoList(items: [TodoItem(id: milk, title: "milk")])
        #expect(SkippedPart(ReversionConflict(location: #"\TodoList.items"#), current: list, known: []) == nil)
        #expect(SkippedPart(ReversionConflict(location: #"\TodoList.items[id: not-an-id].title"#), current: list, known: []) == nil)
        let gone = SkippedPart(ReversionConflict(location: "\\TodoList.items[id: \(eggs)].title"), current: list, known: [TodoList(items: [TodoItem(id: eggs, title: "eggs")])])
        #expect(gone == SkippedPart(field: "title", item: eggs, title: "eggs", changedBy: nil, removed: true))
    }
}
