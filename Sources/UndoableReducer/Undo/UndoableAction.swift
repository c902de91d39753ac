/// An action for a reducer wrapped by ``Reducer/undoable(historyLimit:recording:groupingBy:groupingInterval:clock:label:)``:
/// one of the base reducer's actions, or a history command.
public enum UndoableAction<Action: Sendable>: Sendable {
    /// An action of the base reducer, recorded as one undo step (unless filtered out or
    /// grouped with the previous one).
    case action(Action)
    /// Undoes up to `steps` steps of the current scope.
    case undo(steps: Int)
    /// Redoes up to `steps` steps of the current scope.
    case redo(steps: Int)
    /// Undoes to the version tagged `tag` in the current scope, stopping on it.
    case undoToTag(HistoryTag)
    /// Redoes up to and including the step that made the version tagged `tag`.
    case redoToTag(HistoryTag)
    /// Names the current version.
    case tag(HistoryTag)
    /// Starts a scope: undo and redo stay inside it until it is popped or discarded.
    case pushScope
    /// Ends the current scope, squashing its steps into one step on the scope below.
    case popScope
    /// Abandons the current scope: undoes its steps and removes it.
    case discardScope
    /// Forgets every step, tag and scope; the present stays.
    case clearHistory
    /// Applies several base actions as one undo step.
    case transaction([Action])

    /// Undoes one step.
    public static var undo: Self { .undo(steps: 1) }
    /// Redoes one step.
    public static var redo: Self { .redo(steps: 1) }
}

extension UndoableAction: Equatable where Action: Equatable {}
extension UndoableAction: Hashable where Action: Hashable {}
extension UndoableAction: Codable where Action: Codable {}
