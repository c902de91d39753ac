import Foundation
import Revertible
import Testing
import UndoableReducer

/// A history written down as actions and rebuilt, as the todo CLI persists it.
@Suite("Undoable replay")
struct UndoableReplayTests {

    let reducer = TodoList().undoable(UndoableOptions(historyLimit: 4, label: TodoList.label))

    func richHistory() -> UndoableState<TodoList.State> {
        reduce(reducer, UndoableState(TodoList.State()), [
            .tag("empty"),
            .action(.add(id: 1, title: "milk")),
            .action(.add(id: 2, title: "eggs")),
            .tag("two"),
            .transaction([.toggle(id: 1), .rename(id: 2, title: "brown eggs")]),
            .action(.add(id: 3, title: "bread")),
            .action(.add(id: 4, title: "jam")),
            .undo,
            .pushNewScope,
            .action(.remove(id: 1)),
            .action(.type("draft")),
            .undo,
        ])
    }

    @Test("Replaying rebuilds the same present, steps, labels, tags and scopes")
    func roundTrip() throws {
        let state = richHistory()
        let replay = try state.replay(of: TodoList.Action.self)
        let data = try JSONEncoder().encode(replay)
        let decoded = try JSONDecoder().decode(UndoableReplay<TodoList.State, TodoList.Action>.self, from: data)
        let restored = try reducer.restore(decoded)

        #expect(restored == state)
        #expect(restored.tags(inScopeLevel: 0)! == state.tags(inScopeLevel: 0)!)
        #expect(restored.steps().undo.map(\.label) == state.steps().undo.map(\.label))
        for commands in [[UndoableAction<TodoList.Action>.redo], [.undo, .undo], [.popCurrentScope, .undo], [.undoAndPopCurrentScope, .undo(to: .tag("two"))]] {
            #expect(reduce(reducer, restored, commands) == reduce(reducer, state, commands))
        }
    }

    @Test("The replay is as long as the history, however long it has been used")
    func bounded() throws {
        var state = UndoableState(TodoList.State())
        for index in 0..<200 {
            state = reduce(reducer, state, [.action(.add(id: index, title: "item \(index)")), .undo, .redo])
        }
        let replay = try state.replay(of: TodoList.Action.self)
        #expect(replay.actions.count == 4)
        #expect(try reducer.restore(replay) == state)
    }

    @Test("A replay that does not arrive at its present is rejected")
    func tampered() throws {
        var replay = try richHistory().replay(of: TodoList.Action.self)
        replay.actions.removeLast()
        #expect(throws: UndoableReplayError.presentMismatch) { try reducer.restore(replay) }
    }

    @Test("Asking for the wrong action type is an error")
    func wrongType() {
        #expect(throws: UndoableReplayError.actionTypeMismatch) { try richHistory().replay(of: Tally.Action.self) }
    }
}
