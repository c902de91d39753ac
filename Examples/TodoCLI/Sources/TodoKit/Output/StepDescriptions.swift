import Revertible
import UndoableReducer

/// What each step of the current scope did, for `undo`, `redo` and `history`: the step's
/// label, plus how many more changes it holds when it holds several (a committed scope is one
/// step labelled by its first change; "Undid: add "x"" would hide that it took back three).
struct StepDescriptions {
    /// The steps undo would take back, oldest first.
    var undo: [String]
    /// The steps redo would replay, next first.
    var redo: [String]

    /// The `undo` steps nearest the present and the `redo` next ones only: a move of a few
    /// steps reads no more of a long history than it crosses.
    init(_ state: UndoableState<TodoList>, undo undoCount: Int, redo redoCount: Int) {
        let steps = state.nearestSteps(undo: undoCount, redo: redoCount)
        undo = steps.undo.map(Self.describe)
        redo = steps.redo.map(Self.describe)
    }

    static func describe(_ step: HistoryStep) -> String {
        let label = step.label ?? "change"
        return step.changeCount > 1 ? "\(label) (+\(step.changeCount - 1) more)" : label
    }
}
