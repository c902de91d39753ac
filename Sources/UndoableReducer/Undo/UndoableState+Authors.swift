import Revertible

// A per-person Undo button reads these. They are methods of the state, not of
// `HistoryReading`: the answer depends on the conflict policy, which the reducer's options
// hold and the state does not.
extension UndoableState {

    /// Whether `.undo(by: author)` would do anything: the state of a per-person Undo button.
    /// It tries the undo on a copy, so it agrees with the action exactly: `false` where the
    /// author's steps have nothing left to take back. A step `policy` would refuse counts.
    ///
    /// - Parameters:
    ///   - author: Whose steps the button takes back.
    ///   - policy: The options' `conflictPolicy`, if not the default.
    public func hasUndo(by author: HistoryAuthor, onConflict policy: ConflictPolicy = .skip) -> Bool {
        nextUndo(by: author, onConflict: policy) != nil
    }

    /// Whether `.redo(by: author)` would do anything, as ``hasUndo(by:onConflict:)``.
    public func hasRedo(by author: HistoryAuthor, onConflict policy: ConflictPolicy = .skip) -> Bool {
        nextRedo(by: author, onConflict: policy) != nil
    }

    /// The step `.undo(by: author)` would take back, for the button's title, or `nil` when it
    /// would do nothing.
    public func nextUndo(by author: HistoryAuthor, onConflict policy: ConflictPolicy = .skip) -> HistoryStep? {
        engine.nextUndo(by: author, onConflict: policy)
    }

    /// The undo step by `author` that `.redo(by: author)` would take back, or `nil` when it
    /// would do nothing.
    public func nextRedo(by author: HistoryAuthor, onConflict policy: ConflictPolicy = .skip) -> HistoryStep? {
        engine.nextRedo(by: author, onConflict: policy)
    }
}
