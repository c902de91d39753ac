import UndoableReducer

/// The history section of the data file: an ``UndoableReplay`` without its present, which the
/// file already holds in its own section (the one `todo list` reads).
///
/// Its length is bounded by the history limit: one transaction per step, plus tags, scopes and
/// a final undo for the redo steps, never a log of everything ever done.
struct SavedHistory: Codable, Sendable {
    /// The list before the oldest step kept.
    var base: TodoList
    /// The actions that rebuild the steps, tags and scopes from `base`.
    var actions: [UndoableAction<TodoAction>]

    init(_ replay: UndoableReplay<TodoList, TodoAction>) {
        base = replay.base
        actions = replay.actions
    }

    /// The replay to restore, arriving at `present`.
    func replay(arrivingAt present: TodoList) -> UndoableReplay<TodoList, TodoAction> {
        UndoableReplay(base: base, actions: actions, present: present)
    }
}
