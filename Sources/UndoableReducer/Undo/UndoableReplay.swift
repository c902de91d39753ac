import Revertible

/// An undoable history written down as actions: the state before its oldest step, and the
/// actions that rebuild every step, tag and scope from there. Save it (it is `Codable` when
/// the state and actions are) and rebuild the history with ``Undoable/restore(_:)``.
///
/// A replay has one transaction per step, so its length is bounded by the history, not by
/// how long the history has been used. Replaying needs a deterministic base reducer: give
/// actions the values they depend on (ids, dates) instead of creating them in the reducer.
public struct UndoableReplay<State: Sendable, Action: Sendable>: Sendable {
    /// The state before the oldest step.
    public var base: State
    /// The actions that rebuild the history from ``base``.
    public var actions: [UndoableAction<Action>]
    /// The present the replay must arrive at.
    public var present: State

    /// A replay of `actions` from `base`, expected to arrive at `present`.
    public init(base: State, actions: [UndoableAction<Action>], present: State) {
        self.base = base
        self.actions = actions
        self.present = present
    }
}

extension UndoableReplay: Equatable where State: Equatable, Action: Equatable {}
extension UndoableReplay: Codable where State: Codable, Action: Codable {}

/// Why a history could not be written down as a replay or rebuilt from one.
public enum UndoableReplayError: Error, Equatable, Sendable {
    /// A step holds actions of another type than the one asked for.
    case actionTypeMismatch
    /// The history could not be undone to its oldest version.
    case reversion(ReversionError)
    /// Replaying the actions did not arrive at the saved present: the reducer is not
    /// deterministic, or the replay was altered.
    case presentMismatch
}

extension UndoableState {

    /// This history written down as actions of type `Action` (the base reducer's).
    ///
    /// Changes made by actions that were not recorded (the `recording` filter) are not in
    /// it; restoring then arrives at a different present and fails with
    /// ``UndoableReplayError/presentMismatch``.
    public func replay<Action: Sendable>(of _: Action.Type = Action.self) throws(UndoableReplayError) -> UndoableReplay<State, Action> {
        var actions: [UndoableAction<Action>] = []
        for (level, scope) in history.scopes.enumerated() {
            if level > 0 { actions.append(.pushScope) }
            if let tag = scope.baseTagValue { actions.append(.tag(HistoryTag(erased: tag))) }
            for step in scope.undo + scope.redo.reversed() {
                guard let stepActions = step.annotation.actions as? [Action] else { throw .actionTypeMismatch }
                actions.append(.transaction(stepActions))
                if let tag = step.tag { actions.append(.tag(HistoryTag(erased: tag))) }
            }
            if !scope.redo.isEmpty { actions.append(.undo(steps: scope.redo.count)) }
        }
        return UndoableReplay(base: try oldestVersion(), actions: actions, present: present)
    }

    /// The present with every step of every scope undone.
    private func oldestVersion() throws(UndoableReplayError) -> State {
        var history = history
        var value = history.current
        do {
            while history.scopeLevel > 0 {
                try history.discardScope(&value)
            }
            try history.undoScope(&value)
        } catch {
            throw .reversion(error)
        }
        return value
    }
}

extension Undoable {

    /// Rebuilds the history written down in `replay`: the same present, steps, labels, tags
    /// and scopes. The base reducer's effects are not run.
    ///
    /// - Throws: ``UndoableReplayError/presentMismatch`` if the replay does not arrive at its
    ///   saved present.
    public func restore(_ replay: UndoableReplay<Base.State, Base.Action>) throws(UndoableReplayError) -> UndoableState<Base.State> {
        // No limit while replaying: redo steps are undo steps for a moment.
        let unlimited = Undoable(base, historyLimit: nil, recording: isRecorded, groupingBy: groupKey, label: label)
        var state = UndoableState(replay.base)
        for action in replay.actions {
            _ = unlimited.apply(action, to: &state)
        }
        guard state.present == replay.present else { throw .presentMismatch }
        state.history.limit = historyLimit
        state.lastError = nil
        return state
    }
}
