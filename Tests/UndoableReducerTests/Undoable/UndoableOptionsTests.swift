import Revertible
import TestSupport
import Testing
import UndoableReducer

/// redux-undo's well-known option cases: limit, filter, grouping.
@Suite("Undoable options")
struct UndoableOptionsTests {

    @Test("The history limit drops the oldest steps")
    func limit() {
        let reducer = Tally().undoable(UndoableOptions(historyLimit: 2))
        var state = reduce(reducer, UndoableState(Tally.State()), (1...4).map { .action(.add($0)) })
        #expect(state.undoCount == 2)
        state = reduce(reducer, state, [.undo(to: .steps(5))])
        #expect(state.error == .stepsOutOfRange(requested: 5, available: 2) && state.present.count == 10)
        state = reduce(reducer, state, [.undo(to: .steps(2))])
        #expect(state.present.count == 3 && state.error == nil)
    }

    /// redux-undo replaces the present with the previous snapshot, losing filtered changes;
    /// here they are kept.
    @Test("A filtered action's change is kept through undo and redo")
    func filterKeepsChanges() {
        let reducer = TodoList().undoable(UndoableOptions(recording: { if case .seen = $0 { false } else { true } }))
        var state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.add(id: 1, title: "milk")), .action(.seen(42)),
        ])
        #expect(state.undoCount == 1 && state.present.lastSeen == 42)
        state = reduce(reducer, state, [.undo])
        #expect(state.present.todos.isEmpty && state.present.lastSeen == 42)
        state = reduce(reducer, state, [.redo])
        #expect(state.present.todos.count == 1 && state.present.lastSeen == 42)
    }

    @Test("Under the refuse policy, undoing a step that wrote what a filtered action changed fails and changes nothing")
    func filterConflict() {
        let reducer = TodoList().undoable(UndoableOptions(
            recording: { action in if case .rename(_, "auto") = action { false } else { true } },
            conflictPolicy: .refuse
        ))
        var state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.add(id: 1, title: "milk")), .action(.rename(id: 1, title: "oat milk")), .action(.rename(id: 1, title: "auto")),
        ])
        state = reduce(reducer, state, [.undo])
        guard case let .conflict(conflicts)? = state.error?.reversionError else {
            Issue.record("expected a conflict, got \(String(describing: state.error))")
            return
        }
        #expect(conflicts.map(\.location) == ["\\State.todos[id: 1].title"])
        #expect(state.present.todos[0].title == "auto" && state.undoCount == 2)
        state = reduce(reducer, state, [.undo(to: .tag("missing")), .redo])
        #expect(state.error == nil)
    }

    @Test("By default, undoing a step that wrote what a filtered action changed skips that place and moves on")
    func filterConflictSkipped() {
        let reducer = TodoList().undoable(UndoableOptions(recording: { action in
            if case .rename(_, "auto") = action { false } else { true }
        }))
        var state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.add(id: 1, title: "milk")), .action(.rename(id: 1, title: "oat milk")), .action(.rename(id: 1, title: "auto")),
        ])
        state = reduce(reducer, state, [.undo])
        #expect(state.error == nil)
        #expect(state.lastConflicts.map(\.location) == ["\\State.todos[id: 1].title"])
        #expect(state.present.todos[0].title == "auto" && state.undoCount == 1)
    }

    @Test("Consecutive actions with the same key are one step")
    func groupByKey() {
        let reducer = TodoList().undoable(UndoableOptions(groupingBy: { action in
            if case .type = action { "draft" } else { nil }
        }))
        var state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.type("m")), .action(.type("i")), .action(.type("lk")),
            .action(.add(id: 1, title: "milk")),
            .action(.type("!")),
        ])
        #expect(state.undoCount == 3)
        state = reduce(reducer, state, [.undo, .undo])
        #expect(state.present.draft == "milk" && state.present.todos.isEmpty)
        state = reduce(reducer, state, [.undo])
        #expect(state.present.draft == "")
    }

    @Test("Any history command ends a group")
    func commandEndsGroup() {
        let reducer = TodoList().undoable(UndoableOptions(groupingBy: { _ in "all" }))
        let state = reduce(reducer, UndoableState(TodoList.State()), [
            .action(.type("a")), .tag("t"), .action(.type("b")),
        ])
        #expect(state.undoCount == 2)
    }

    @Test("Actions less than the interval apart are one step, measured by the injected clock")
    func groupByTime() {
        let clock = TestClock()
        let reducer = Tally().undoable(UndoableOptions(debounceInterval: .seconds(1), clock: clock))
        var state = UndoableState(Tally.State())
        for _ in 0..<3 {
            state = reduce(reducer, state, [.action(.increment)])
            clock.advance(by: .milliseconds(400))
        }
        clock.advance(by: .seconds(2))
        state = reduce(reducer, state, [.action(.add(10))])
        #expect(state.undoCount == 2)
        state = reduce(reducer, state, [.undo])
        #expect(state.present.count == 3)
        state = reduce(reducer, state, [.undo])
        #expect(state.present.count == 0)
    }

    @Test("With a key and an interval, a long pause splits a group")
    func groupByKeyAndTime() {
        let clock = TestClock()
        let reducer = TodoList().undoable(UndoableOptions(groupingBy: { _ in "typing" }, debounceInterval: .seconds(1), clock: clock))
        var state = reduce(reducer, UndoableState(TodoList.State()), [.action(.type("a")), .action(.type("b"))])
        clock.advance(by: .seconds(5))
        state = reduce(reducer, state, [.action(.type("c"))])
        #expect(state.undoCount == 2)
    }

    /// Deprecated itself, so that calling the deprecated spellings warns nowhere.
    @available(*, deprecated)
    @Test("The former name, groupingInterval, still sets the debounce interval")
    func groupingIntervalAlias() {
        let clock = TestClock()
        var options = UndoableOptions<Tally.Action>(groupingInterval: .seconds(1), clock: clock)
        #expect(options.debounceInterval == .seconds(1) && options.groupingInterval == .seconds(1))
        let reducer = Tally().undoable(options)
        let state = reduce(reducer, UndoableState(Tally.State()), [.action(.increment), .action(.increment)])
        #expect(state.undoCount == 1)
        options.groupingInterval = nil
        #expect(options.debounceInterval == nil)
    }
}
