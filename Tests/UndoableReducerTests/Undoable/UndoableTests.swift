import Revertible
import Testing
import UndoableReducer

/// Every history action of the `undoable` higher-order reducer, with exact expected states.
@Suite("Undoable reducer")
struct UndoableTests {

    let tally = Tally().undoable()
    let todos = TodoList().undoable(UndoableOptions(label: TodoList.label))

    @Test("Each base action is a step; undo and redo move through them")
    func undoRedo() {
        var state = reduce(tally, UndoableState(Tally.State()), [.action(.increment), .action(.increment), .action(.add(10))])
        #expect(state.present.count == 12)
        #expect(state.undoCount == 3 && !state.hasRedo)

        state = reduce(tally, state, [.undo])
        #expect(state.present.count == 2 && state.hasRedo && state.redoCount == 1)
        state = reduce(tally, state, [.redo])
        #expect(state.present.count == 12 && !state.hasRedo)
    }

    @Test("Undo and redo by N steps; more steps than there are is refused and changes nothing")
    func jumpByN() {
        var state = reduce(tally, UndoableState(Tally.State()), (1...5).map { .action(.add($0)) })
        state = reduce(tally, state, [.undo(to: .steps(2))])
        #expect(state.present.count == 6)
        state = reduce(tally, state, [.undo(to: .steps(10))])
        #expect(state.error == .stepsOutOfRange(requested: 10, available: 3))
        #expect(state.present.count == 6 && state.undoCount == 3 && state.redoCount == 2)
        state = reduce(tally, state, [.undo(to: .steps(3))])
        #expect(state.present.count == 0 && !state.hasUndo && state.redoCount == 5 && state.error == nil)
        state = reduce(tally, state, [.redo(to: .steps(3))])
        #expect(state.present.count == 6)
    }

    @Test("With nothing to undo or redo, one step does nothing; the other moves are refused with the reason")
    func emptyHistory() {
        var state = reduce(tally, UndoableState(Tally.State(count: 4)), [.undo, .redo])
        #expect(state.present.count == 4 && state.error == nil)
        for (command, error) in [
            (UndoableAction<Tally.Action>.popCurrentScope, HistoryError.noScopeToPop),
            (.undoAndPopCurrentScope, .noScopeToPop),
            (.undo(to: .tag("none")), .unknownTag("none")),
            (.redo(to: .steps(2)), .stepsOutOfRange(requested: 2, available: 0)),
        ] {
            state = reduce(tally, state, [command])
            #expect(state.present.count == 4 && state.scopeLevel == 0 && state.error == error)
        }
        state = reduce(tally, state, [.tag("here")])
        #expect(state.error == nil, "a command that succeeds clears the error")
    }

    @Test("An action that changes nothing makes no step")
    func noChangeNoStep() {
        let state = reduce(tally, UndoableState(Tally.State()), [.action(.noop)])
        #expect(!state.hasUndo)
    }

    @Test("A new action after undo clears the redo steps")
    func newActionClearsRedo() {
        let state = reduce(tally, UndoableState(Tally.State()), [.action(.increment), .undo, .action(.add(5))])
        #expect(state.present.count == 5 && !state.hasRedo && state.undoCount == 1)
    }

    @Test("Labels describe the next undo and redo steps")
    func labels() {
        var state = reduce(todos, UndoableState(TodoList.State()), [
            .action(.add(id: 1, title: "milk")), .action(.add(id: 2, title: "eggs")), .action(.toggle(id: 1)),
        ])
        #expect(state.nextUndoLabel == "Toggle")
        state = reduce(todos, state, [.undo])
        #expect(state.nextUndoLabel == "Add “eggs”" && state.nextRedoLabel == "Toggle")
        #expect(state.steps().undo.map(\.label) == ["Add “milk”", "Add “eggs”"] && state.steps().redo.map(\.label) == ["Toggle"])
    }

    @Test("Tags name versions: undo to a tag stops on it, redo to a tag includes it")
    func tags() {
        var state = reduce(tally, UndoableState(Tally.State()), [
            .tag("start"), .action(.increment), .action(.increment), .tag("two"), .action(.add(10)), .tag("twelve"),
        ])
        state = reduce(tally, state, [.undo(to: .tag("two"))])
        #expect(state.present.count == 2)
        #expect(state.tags().undo == ["start", nil, "two"] && state.tags().redo == ["twelve"])
        state = reduce(tally, state, [.undo(to: .tag("start"))])
        #expect(state.present.count == 0)
        state = reduce(tally, state, [.redo(to: .tag("twelve"))])
        #expect(state.present.count == 12)
        state = reduce(tally, state, [.undo(to: .tag("unknown"))])
        #expect(state.present.count == 12)
    }

    @Test("Popping a scope squashes it into one step; discarding abandons it")
    func scopes() {
        var state = reduce(tally, UndoableState(Tally.State()), [
            .action(.increment), .pushNewScope, .action(.add(2)), .action(.add(3)),
        ])
        #expect(state.scopeLevel == 1 && state.undoCount == 2)
        state = reduce(tally, state, [.undo(to: .steps(5))])
        #expect(state.error == .stepsOutOfRange(requested: 5, available: 2), "undo never leaves a scope")
        state = reduce(tally, state, [.undoCurrentScope])
        #expect(state.present.count == 1 && state.scopeLevel == 1)
        state = reduce(tally, state, [.redo(to: .steps(2)), .popCurrentScope])
        #expect(state.scopeLevel == 0 && state.undoCount == 2 && state.present.count == 6)
        state = reduce(tally, state, [.undo])
        #expect(state.present.count == 1)

        state = reduce(tally, state, [.pushNewScope, .action(.add(100)), .undoAndPopCurrentScope])
        #expect(state.present.count == 1 && state.scopeLevel == 0)
    }

    @Test("A transaction of several actions is one step")
    func transaction() {
        var state = reduce(todos, UndoableState(TodoList.State()), [
            .transaction([.add(id: 1, title: "milk"), .add(id: 2, title: "eggs"), .toggle(id: 1)]),
        ])
        #expect(state.present.todos.count == 2 && state.undoCount == 1)
        #expect(state.nextUndoLabel == "Add “milk”")
        state = reduce(todos, state, [.undo])
        #expect(state.present.todos.isEmpty)
    }

    @Test("Clearing the history keeps the present")
    func clearHistory() {
        let state = reduce(tally, UndoableState(Tally.State()), [
            .action(.increment), .pushNewScope, .action(.increment), .undo, .tag("x"), .removeAllVersions,
        ])
        #expect(state.present.count == 1)
        #expect(!state.hasUndo && !state.hasRedo && state.scopeLevel == 0 && state.tags().undo == [nil])
    }

    @Test("A copy's history never changes when the original moves on")
    func valueSemantics() {
        let original = reduce(tally, UndoableState(Tally.State()), [.action(.increment), .action(.increment)])
        let copy = original
        let moved = reduce(tally, original, [.undo, .undo, .action(.add(7)), .removeAllVersions])
        #expect(moved.present.count == 7 && !moved.hasUndo)
        #expect(copy.present.count == 2 && copy.undoCount == 2)
        let undoneCopy = reduce(tally, copy, [.undo])
        #expect(undoneCopy.present.count == 1)
    }

    @Test("Undoable states compare by present and visible history")
    func equality() {
        let a = reduce(tally, UndoableState(Tally.State()), [.action(.increment)])
        let b = reduce(tally, UndoableState(Tally.State()), [.action(.increment)])
        #expect(a == b)
        #expect(a != reduce(tally, a, [.undo]))
    }

    @Test("An app's own undo and redo actions drive the history without a wrapper enum")
    func ownCommands() {
        enum AppAction: Sendable { case add(Int), undoTapped, redoTapped }
        let reducer = Reduce<Tally.State, AppAction> { state, action in
            if case let .add(amount) = action { state.count += amount }
            return .none
        }
        .undoable(commands: { action in
            switch action {
            case .undoTapped: .undo
            case .redoTapped: .redo
            case .add: nil
            }
        })
        var state = reduce(reducer, UndoableState(Tally.State()), [.add(1), .add(2), .undoTapped])
        #expect(state.present.count == 1 && state.hasRedo)
        state = reduce(reducer, state, [.redoTapped])
        #expect(state.present.count == 3 && state.undoCount == 2)
    }
}
