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
public struct UndoableWithCommands<Base: Reducer>: Reducer where Base.State: Versionable & Sendable {

    public typealias State = UndoableState<Base.State>
    public typealias Action = Base.Action

    let undoable: Undoable<Base>
    let commands: @Sendable (Base.Action) -> UndoableAction<Base.Action>?

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        undoable.apply(commands(action) ?? .action(action), to: &state)
    }
}

extension Reducer where State: Versionable & Sendable {

    /// Wraps this reducer with undo, taking history commands from its own actions:
    /// `commands` returns the command an action stands for, or `nil` for an ordinary action.
    ///
    /// The other options are those of ``undoable(historyLimit:recording:groupingBy:groupingInterval:clock:label:)``;
    /// command actions are never recorded as steps.
    public func undoable(
        commands: @escaping @Sendable (Action) -> UndoableAction<Action>?,
        historyLimit: Int? = nil,
        recording: @escaping @Sendable (Action) -> Bool = { _ in true },
        groupingBy: @escaping @Sendable (Action) -> HistoryTag? = { _ in nil },
        groupingInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        label: @escaping @Sendable (Action) -> String? = { _ in nil }
    ) -> UndoableWithCommands<Self> {
        UndoableWithCommands(
            undoable: undoable(
                historyLimit: historyLimit,
                recording: recording,
                groupingBy: groupingBy,
                groupingInterval: groupingInterval,
                clock: clock,
                label: label
            ),
            commands: commands
        )
    }
}
