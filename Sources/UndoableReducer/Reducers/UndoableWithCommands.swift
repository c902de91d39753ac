import Revertible

/// An undoable reducer for an app whose own action type already has undo and redo cases:
/// `commands` picks them out, so no wrapper enum is needed.
///
/// ```swift
/// let reducer = AppReducer().undoable(commands: { action in
///     switch action {
///     case .undoTapped: .undo
///     case .redoTapped: .redo
///     default: nil
///     }
/// })
/// ```
///
/// A command action runs the history command, then still reaches the base reducer (for an
/// analytics effect, say); whatever the base changes then is kept without a step.
public struct UndoableWithCommands<Base: Reducer>: Reducer where Base.State: Versionable & Sendable {

    public typealias State = UndoableState<Base.State>
    public typealias Action = Base.Action

    let undoable: Undoable<Base>
    let commands: @Sendable (Base.Action) -> UndoableAction<Base.Action>?

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let mapped = commands(action) ?? .action(action)
        let effect = undoable.apply(mapped, to: &state)
        guard mapped.isHistoryCommand else { return effect }
        let baseEffect = undoable.base.reduce(into: &state.present, action: action)
        state.engine.recordWithoutTracking(state.present, comparing: versionedDifference)
        return .merge([effect, baseEffect])
    }

    /// Rebuilds the history written down in `replay`; see ``Undoable/restore(_:)``.
    public func restore(_ replay: UndoableReplay<Base.State, Base.Action>) throws(UndoableReplayError) -> UndoableState<Base.State> {
        try undoable.restore(replay)
    }
}

extension Reducer where State: Versionable & Sendable {

    /// Wraps this reducer with undo, taking history commands from its own actions:
    /// `commands` returns the command an action stands for, or `nil` for an ordinary action.
    /// Command actions are never recorded as steps.
    public func undoable(
        commands: @escaping @Sendable (Action) -> UndoableAction<Action>?,
        _ options: UndoableOptions<Action> = UndoableOptions()
    ) -> UndoableWithCommands<Self> {
        UndoableWithCommands(undoable: undoable(options), commands: commands)
    }
}
