import Foundation
import Revertible
import Testing
import TodoKit
import UndoableReducer
import UndoableReducerTesting

/// The todo list's reducer, with the undo the app runs, asserted exhaustively with a
/// `TestStore`: each command's change to the list and to the history, then a round trip.
@Suite("Todo reducer")
struct TodoReducerTests {
    let milk = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    let eggs = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    let bread = UUID(uuidString: "00000000-0000-0000-0000-000000000003")!

    func makeStore(historyLimit: Int = 100) -> TestStore<UndoableTestState<TodoList>, UndoableAction<TodoAction>> {
        TestStore(initialState: UndoableState(TodoList()), reducer: TodoReducer.withUndo(historyLimit: historyLimit))
    }

    @Test func eachCommandIsOneLabelledStep() async {
        let store = makeStore()
        await store.send(.action(.add(id: milk, title: "milk"))) {
            $0.present.items = [TodoItem(id: milk, title: "milk")]
            $0.undo = [#"add "milk""#]
        }
        await store.send(.action(.edit(id: milk, from: "milk", to: "oat milk"))) {
            $0.present.items[0].title = "oat milk"
            $0.undo.append(#"edit "milk" → "oat milk""#)
        }
        await store.send(.action(.setDone(id: milk, title: "oat milk", isDone: true))) {
            $0.present.items[0].isDone = true
            $0.undo.append(#"done "oat milk""#)
        }
        await store.send(.action(.add(id: eggs, title: "eggs"))) {
            $0.present.items.append(TodoItem(id: eggs, title: "eggs"))
            $0.undo.append(#"add "eggs""#)
        }
        await store.send(.action(.move(id: eggs, title: "eggs", from: 1, to: 0))) {
            $0.present.items.swapAt(0, 1)
            $0.undo.append(#"move "eggs" 2 → 1"#)
        }
        await store.send(.action(.clear(ids: [milk]))) {
            $0.present.items = [TodoItem(id: eggs, title: "eggs")]
            $0.undo.append("clear 1 done")
        }
        store.assertUndoRoundTrip()
    }

    @Test func undoRedoAndANewCommandAfterUndo() async {
        let store = makeStore()
        await store.send(.action(.add(id: milk, title: "milk"))) {
            $0.present.items = [TodoItem(id: milk, title: "milk")]
            $0.undo = [#"add "milk""#]
        }
        await store.send(.action(.remove(id: milk, title: "milk"))) {
            $0.present.items = []
            $0.undo.append(#"rm "milk""#)
        }
        await store.send(.undo) {
            $0.present.items = [TodoItem(id: milk, title: "milk")]
            $0.undo = [#"add "milk""#]
            $0.redo = [#"rm "milk""#]
        }
        await store.send(.redo) {
            $0.present.items = []
            $0.undo = [#"add "milk""#, #"rm "milk""#]
            $0.redo = []
        }
        await store.send(.undo(to: .steps(2))) {
            $0.undo = []
            $0.redo = [#"add "milk""#, #"rm "milk""#]
        }
        await store.send(.action(.add(id: bread, title: "bread"))) {
            $0.present.items = [TodoItem(id: bread, title: "bread")]
            $0.undo = [#"add "bread""#]
            $0.redo = []
        }
        store.assertUndoRoundTrip()
    }

    @Test func aStaleActionChangesNothingAndMakesNoStep() async {
        let store = makeStore()
        await store.send(.action(.setDone(id: milk, title: "milk", isDone: true)))
        await store.send(.action(.remove(id: milk, title: "milk")))
        #expect(!store.state.hasUndo)
    }

    @Test func theHistoryLimitDropsTheOldestStep() async {
        let store = makeStore(historyLimit: 2)
        await store.send(.action(.add(id: milk, title: "milk"))) {
            $0.present.items = [TodoItem(id: milk, title: "milk")]
            $0.undo = [#"add "milk""#]
        }
        await store.send(.action(.add(id: eggs, title: "eggs"))) {
            $0.present.items.append(TodoItem(id: eggs, title: "eggs"))
            $0.undo.append(#"add "eggs""#)
        }
        await store.send(.action(.add(id: bread, title: "bread"))) {
            $0.present.items.append(TodoItem(id: bread, title: "bread"))
            $0.undo = [#"add "eggs""#, #"add "bread""#]
        }
    }

    @Test func tagsAndRefusals() async {
        let store = makeStore()
        await store.send(.action(.add(id: milk, title: "milk"))) {
            $0.present.items = [TodoItem(id: milk, title: "milk")]
            $0.undo = [#"add "milk""#]
        }
        await store.send(.tag("saved")) {
            $0.undo[0].tags = ["saved"]
        }
        await store.send(.action(.setDone(id: milk, title: "milk", isDone: true))) {
            $0.present.items[0].isDone = true
            $0.undo.append(#"done "milk""#)
        }
        await store.send(.undo(to: "saved")) {
            $0.present.items[0].isDone = false
            $0.undo.removeLast()
            $0.redo = [#"done "milk""#]
        }
        await store.send(.popCurrentScope) {
            $0.error = .noScopeToPop
        }
    }
}
