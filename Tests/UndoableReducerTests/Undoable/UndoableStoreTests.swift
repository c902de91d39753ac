import Revertible
import Testing
import UndoableReducer

/// An undoable reducer running in a `Store`, effects included.
@Suite("Undoable store")
struct UndoableStoreTests {

    @Test("Effects of the base reducer come back wrapped and are recorded")
    func effects() async {
        let store = Store(initialState: UndoableState(TodoList.State()), reducer: TodoList().undoable(UndoableOptions(label: TodoList.label)))
        await store.send(.action(.load)).finish()
        #expect(store.state.present.todos.map(\.title) == ["from", "effect"])
        #expect(store.state.undoCount == 1 && store.state.nextUndoLabel == "Load")
        store.send(.undo)
        #expect(store.state.present.todos.isEmpty)
    }

    @Test("State is updated before send returns")
    func synchronous() {
        let store = Store(initialState: UndoableState(Tally.State()), reducer: Tally().undoable())
        store.send(.action(.increment))
        store.send(.action(.increment))
        store.send(.undo)
        #expect(store.state.present.count == 1)
        #expect(store.state.hasRedo)
    }
}
