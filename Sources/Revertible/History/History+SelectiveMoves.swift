// Selective moves for the undoable reducer, on top of the strict moves: the smallest hook
// that lets a history's undo skip other writers' changes. The engine's own selective moves
// (the `selective-core` work of issue 24: `perform(_:on:policy:onConflict:)` and the
// policy's `conflictPolicy`) supersede this file; `performSelectively` already passes its
// policy on through `HistoryPolicy.conflictPolicy`, so it keeps its meaning there.
extension History {

    /// Reverts one step of a move (undo, redo, a move through the tree): strictly, as always,
    /// unless ``performSelectively(_:on:policy:)`` set a conflict policy for the move.
    mutating func revertMove(_ reversion: Reversion<Value>, _ value: inout Value) throws(ReversionError) {
        guard let movePolicy else {
            try reversion.revert(&value)
            return
        }
        let conflicts = reversion.revertSelectively(&value, onConflict: movePolicy)
        guard !conflicts.isEmpty else { return }
        if movePolicy == .refuse {
            lastConflicts = conflicts
            throw ReversionError(.conflict(conflicts))
        }
        lastConflicts += conflicts
    }

    /// Runs `command` as ``perform(_:on:policy:)`` does, with its moves selective under
    /// `policy`'s ``HistoryPolicy/conflictPolicy``: a step's location someone else changed
    /// since is skipped, refused or overwritten, so under ``ConflictPolicy/skip`` and
    /// ``ConflictPolicy/overwrite`` every step moves and undo never jams. ``lastConflicts``
    /// lists the conflicts met.
    @discardableResult
    package mutating func performSelectively(_ command: HistoryCommand, on value: inout Value, policy: HistoryPolicy) -> Result<Bool, ReversionError> {
        lastConflicts = []
        movePolicy = policy.conflictPolicy
        defer { movePolicy = nil }
        return perform(command, on: &value, policy: policy)
    }
}
