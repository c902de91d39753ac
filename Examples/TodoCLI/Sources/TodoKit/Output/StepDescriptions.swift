import UndoableReducer

/// What each step of the current scope did, for `undo`, `redo` and `history`: the step's
/// label, plus how many more changes it holds when it holds several.
///
/// A committed scope is one step made of all its changes, and the library labels it with its
/// first change's label; "Undid: add "x"" would hide that the undo took back three changes.
/// The number of changes per step is not in `UndoableState`'s public API, but the replay
/// written for the file has one transaction per step, which gives it.
struct StepDescriptions {
    /// The steps undo would take back, oldest first.
    var undo: [String]
    /// The steps redo would replay, next first.
    var redo: [String]

    init(_ state: UndoableState<TodoList>) {
        let labels = state.labels
        let sizes = Self.stepSizes(state)
        func describe(_ label: String?, size: Int?) -> String {
            let label = label ?? "change"
            guard let size, size > 1 else { return label }
            return "\(label) (+\(size - 1) more)"
        }
        undo = labels.undo.enumerated().map { index, label in
            describe(label, size: sizes?[index])
        }
        redo = labels.redo.enumerated().map { index, label in
            describe(label, size: sizes?[labels.undo.count + index])
        }
    }

    /// The number of actions of each step of the current scope, in version order (undo
    /// steps oldest first, then redo steps next first), or `nil` if the replay fails.
    private static func stepSizes(_ state: UndoableState<TodoList>) -> [Int]? {
        guard let replay = try? state.replay(of: TodoAction.self) else { return nil }
        // The replay lists each scope's steps after its `pushScope`; the last scope's are
        // the current scope's.
        var sizes: [Int] = []
        for action in replay.actions {
            switch action {
            case .pushScope: sizes = []
            case let .transaction(actions): sizes.append(actions.count)
            default: break
            }
        }
        guard sizes.count == state.undoCount + state.redoCount else { return nil }
        return sizes
    }
}
