import Revertible
import TestSupport
import Testing
import UndoableReducer

/// Grouping as apps use it (issue 22): keys of any type, a `nil` key, ending a group early,
/// and step times across reducers.
@Suite("Undoable grouping")
struct UndoableGroupingTests {

    private enum Field: Hashable, Sendable {
        case draft
    }

    @Test("An action without a key never joins a keyed group, even inside the interval")
    func nilKeyNeverJoinsKeyedGroup() {
        let clock = TestClock()
        let reducer = TodoList().undoable(UndoableOptions(
            groupingBy: { action in if case .type = action { "draft" } else { nil } },
            debounceInterval: .seconds(1),
            clock: clock
        ))
        var state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.type("m")), .action(.type("ilk")), .action(.add(id: 1, title: "milk")),
        ])
        #expect(state.undoCount == 2)
        state = reduce(reducer, state, [.undo])
        #expect(state.present.todos.isEmpty && state.present.draft == "milk")
    }

    @Test("Actions without a key are steps of their own, even inside the interval")
    func nilKeysNeverGroup() {
        let clock = TestClock()
        let reducer = TodoList().undoable(UndoableOptions(
            groupingBy: { action in if case .type = action { "draft" } else { nil } },
            debounceInterval: .seconds(1),
            clock: clock
        ))
        let state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.add(id: 1, title: "milk")), .action(.add(id: 2, title: "eggs")),
        ])
        #expect(state.undoCount == 2)
    }

    @Test("A grouping key of any Hashable type")
    func keyOfAnyType() {
        let reducer = TodoList().undoable(UndoableOptions(groupingBy: { action -> Field? in
            if case .type = action { .draft } else { nil }
        }))
        let state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.type("m")), .action(.type("ilk")), .action(.add(id: 1, title: "milk")), .action(.type("!")),
        ])
        #expect(state.undoCount == 3)
        #expect(state.steps().undo.map(\.changeCount) == [2, 1, 1])
    }

    @Test("A key path gives the key")
    func keyPathKey() {
        let reducer = TodoList().undoable(UndoableOptions(groupingBy: \.typingField))
        let state = reduce(reducer, UndoableState(TodoList.State()), [.action(.type("a")), .action(.type("b"))])
        #expect(state.undoCount == 1)
    }

    @Test("stopGrouping ends a group: the next action with the same key starts a new step")
    func stopGroupingAction() {
        let reducer = TodoList().undoable(UndoableOptions(groupingBy: { _ in "all" }))
        var state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.type("a")), .action(.type("b")), .stopGrouping, .action(.type("c")), .action(.type("d")),
        ])
        #expect(state.undoCount == 2)
        #expect(state.error == nil)
        state = reduce(reducer, state, [.undo])
        #expect(state.present.draft == "ab")
    }

    @Test("stopGrouping as an app's own action reaches the base reducer too")
    func stopGroupingCommand() {
        let reducer = TodoList().undoable(
            commands: { action in if case .seen(7) = action { .stopGrouping } else { nil } },
            UndoableOptions(groupingBy: { _ in "all" })
        )
        let state = reduce(reducer, UndoableState(TodoList.State()), [
            .type("a"), .seen(7), .type("b"),
        ])
        #expect(state.undoCount == 2)
        #expect(state.present.lastSeen == 7 && state.present.draft == "ab")
    }

    @Test("Step times follow the test clock across reducers made at different times")
    func timesAcrossReducers() {
        let clock = TestClock()
        let first = Tally().undoable(UndoableOptions(clock: clock))
        clock.advance(by: .seconds(60))
        var state = reduce(first, UndoableState(Tally.State()), [.action(.increment)])
        clock.advance(by: .seconds(60))
        let second = Tally().undoable(UndoableOptions(clock: clock))
        clock.advance(by: .seconds(60))
        state = reduce(second, state, [.action(.increment)])
        #expect(state.steps().undo.map(\.time) == [.seconds(60), .seconds(180)])
    }

    @Test("Step times never go backwards when a reducer's clock starts over")
    func timesNeverGoBackwards() {
        let old = TestClock()
        old.advance(by: .seconds(3_600))
        var state = reduce(Tally().undoable(UndoableOptions(clock: old)), UndoableState(Tally.State()), [.action(.increment)])
        let fresh = TestClock()
        let reducer = Tally().undoable(UndoableOptions(clock: fresh))
        fresh.advance(by: .seconds(5))
        state = reduce(reducer, state, [.action(.increment)])
        fresh.advance(by: .seconds(5))
        state = reduce(reducer, state, [.action(.increment)])
        let times = state.steps().undo.map(\.time)
        #expect(times == [.seconds(3_600), .seconds(3_600), .seconds(3_605)])
        state = reduce(reducer, state, [.move(to: .earlier(by: .seconds(5)))])
        #expect(state.present.count == 2)
    }
}

private extension TodoList.Action {
    /// The field an action types into, if it types.
    var typingField: String? {
        if case .type = self { "draft" } else { nil }
    }
}
