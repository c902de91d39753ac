import Revertible

/// An undoable history written down as actions: the state before its oldest step, and the
/// actions that rebuild every step, tag and scope from there, for logs and analytics. It can
/// be rebuilt with ``Undoable/restore(_:)``, but only by a deterministic reducer whose recorded
/// actions read nothing unrecorded, and branches are not kept: to save a history, save
/// ``UndoableState`` itself (its ``UndoableState/archive`` holds the diffs).
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
    case history(HistoryError)
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
        // A tag an open scope moved is first given where it was before the scope moved it,
        // so that the rebuilt scope remembers the move and abandoning it puts the tag back.
        var movedFrom: [HistoryVersion: [HistoryTag]] = [:]
        for scope in engine.scopes {
            for (tag, version) in scope.movedTags {
                movedFrom[version, default: []].append(tag)
            }
        }
        func tagging(_ version: HistoryVersion) -> [UndoableAction<Action>] {
            var tags: [HistoryTag] = []
            for tag in (movedFrom[version] ?? []) + engine.tags(of: version) where !tags.contains(tag) {
                tags.append(tag)
            }
            return tags.map { .tag($0) }
        }
        var actions: [UndoableAction<Action>] = []
        for level in 0...engine.scopeLevel {
            let scope = engine.scopes[level]
            if level > 0 { actions.append(.pushNewScope) }
            // Every tag of the version the scope starts from, not only the newest.
            actions += tagging(scope.floor)
            let described = engine.steps(inScopeLevel: level)!
            for (step, description) in zip(scope.undo + scope.redo, described.undo + described.redo) {
                if let author = step.author, let isUndo = step.isAuthorUndo {
                    // Made by a per-author move, which replays as that move.
                    actions.append(isUndo ? .undo(by: author) : .redo(by: author))
                } else {
                    guard let stepActions = step.annotation.actions as? [Action] else { throw .actionTypeMismatch }
                    actions.append(.transaction(stepActions))
                }
                actions += tagging(description.version)
            }
            if !scope.redo.isEmpty { actions.append(.undo(to: .steps(scope.redo.count))) }
        }
        return UndoableReplay(base: try oldestVersion(), actions: actions, present: present)
    }

    /// The present with every step of every scope undone.
    private func oldestVersion() throws(UndoableReplayError) -> State {
        var history = engine
        let policy = HistoryPolicy()
        while history.scopeLevel > 0 {
            if case let .failure(error) = history.perform(.undoAndPopCurrentScope, policy: policy) { throw .history(error) }
        }
        if case let .failure(error) = history.perform(.undoCurrentScope, policy: policy) { throw .history(error) }
        return history.current
    }
}

extension Undoable {

    /// Rebuilds the history written down in `replay`: the same present, steps, labels, tags
    /// and scopes. The base reducer's effects are not run.
    ///
    /// - Throws: ``UndoableReplayError/presentMismatch`` if the replay does not arrive at its
    ///   saved present.
    public func restore(_ replay: UndoableReplay<Base.State, Base.Action>) throws(UndoableReplayError) -> UndoableState<Base.State> {
        // No limit and no grouping while replaying: redo steps are undo steps for a moment, and
        // each transaction is one step.
        var unlimited = options
        unlimited.historyLimit = nil
        unlimited.debounceInterval = nil
        unlimited.groupingBy = { _ in nil }
        let replaying = Undoable(base, options: unlimited)
        var state = UndoableState(replay.base)
        for action in replay.actions {
            _ = replaying.apply(action, to: &state)
        }
        guard state.present == replay.present else { throw .presentMismatch }
        state.engine.trim(to: options.historyLimit)
        state.engine.lastError = nil
        return state
    }
}
