import Foundation
import Revertible
import Testing
import UndoableReducer

/// The undoable reducer's features combined: a limit with open scopes and a `recording:`
/// filter, groups across filtered actions, errors cleared by every successful command, and
/// command actions that still reach the base reducer.
@Suite("Undoable: features compose")
struct UndoableCombinationTests {

    struct Counter: Reducer {
        struct State: Versionable, Equatable, Sendable {
            var count = 0
            var note = ""
            var position = 0

            func addReversions(into reverter: inout some Reverter<State>) {
                reverter.appendReversion(at: \.count)
                reverter.appendReversion(at: \.note)
                reverter.appendReversion(at: \.position)
            }
        }

        enum Action: Sendable, Equatable {
            case increment
            case setNote(String)
            case drag(Int)
            case hover
            case undoTapped
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .increment: state.count += 1
            case let .setNote(note): state.note = note
            case let .drag(position): state.position = position
            case .hover, .undoTapped: break
            }
            return .none
        }
    }

    private func run(_ reducer: some Reducer<UndoableState<Counter.State>, UndoableAction<Counter.Action>>, _ actions: [UndoableAction<Counter.Action>]) -> UndoableState<Counter.State> {
        var state = UndoableState(Counter.State())
        for action in actions { _ = reducer.reduce(into: &state, action: action) }
        return state
    }

    @Test("Abandoning a scope the limit trimmed keeps an unrecorded note (limit 1)")
    func trimmedScopeKeepsUnrecordedChange() {
        let reducer = Counter().undoable(UndoableOptions(historyLimit: 1, recording: { action in
            if case .setNote = action { false } else { true }
        }))
        let state = run(reducer, [.pushNewScope, .action(.increment), .action(.increment), .action(.increment), .action(.setNote("keep")), .undoAndPopCurrentScope])
        #expect(state.present.note == "keep")
        #expect(state.present.count == 0 && state.scopeLevel == 0 && state.error == nil)
    }

    @Test("A successful tag or scope push clears the error")
    func errorClearedByEveryCommand() {
        let reducer = Counter().undoable()
        for command: UndoableAction<Counter.Action> in [.tag("t"), .pushNewScope, .removeAllVersions, .undo] {
            let state = run(reducer, [.undo(to: "missing"), command])
            #expect(state.error == nil, "\(command)")
        }
        #expect(run(reducer, [.undo(to: "missing")]).error == .unknownTag("missing"))
    }

    @Test("An action filtered out by recording: does not end an open group")
    func filteredActionKeepsGroupOpen() {
        let reducer = Counter().undoable(UndoableOptions(
            recording: { $0 != .hover },
            groupingBy: { action in if case .drag = action { "drag" } else { nil } }
        ))
        var actions: [UndoableAction<Counter.Action>] = []
        for position in 1...10 {
            actions += [.action(.drag(position)), .action(.hover)]
        }
        let state = run(reducer, actions)
        #expect(state.undoCount == 1 && state.steps().undo[0].changeCount == 10)
    }

    @Test("A command action of the app's own enum still reaches the base reducer")
    func commandsReachTheBase() {
        struct Analytics: Reducer {
            let log: LockedLog
            func reduce(into state: inout Counter.State, action: Counter.Action) -> Effect<Counter.Action> {
                if action == .undoTapped { log.append("undo tapped") }
                return Counter().reduce(into: &state, action: action)
            }
        }
        let log = LockedLog()
        let reducer = Analytics(log: log).undoable(commands: { $0 == .undoTapped ? .undo : nil })
        var state = UndoableState(Counter.State())
        _ = reducer.reduce(into: &state, action: .increment)
        _ = reducer.reduce(into: &state, action: .undoTapped)
        #expect(state.present.count == 0 && log.entries == ["undo tapped"])
    }

    @Test("A transaction's actions are counted in its step; a popped scope counts all of its changes")
    func changeCounts() {
        let reducer = Counter().undoable()
        let state = run(reducer, [
            .transaction([.increment, .increment, .setNote("x")]),
            .pushNewScope, .action(.increment), .action(.increment), .popCurrentScope,
        ])
        #expect(state.steps().undo.map(\.changeCount) == [3, 2])
    }
}

/// A log that effects and reducers may append to from any thread.
final class LockedLog: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ entry: String) { lock.withLock { storage.append(entry) } }
    var entries: [String] { lock.withLock { storage } }
}
