import Revertible
import UndoableReducer

/// The history section of the first todo's data file (format 1), read once to import it: an
/// ``UndoableReplay`` without its present, which the file holds in its own section. The new
/// database saves steps as reversions, never as actions.
///
/// Its length is bounded by the history limit: one transaction per step, plus tags, scopes and
/// a final undo for the redo steps, never a log of everything ever done.
struct V1SavedHistory: Decodable, Sendable {
    /// The list before the oldest step kept.
    var base: TodoList
    /// The actions that rebuild the steps, tags and scopes from `base`.
    var actions: [V1SavedAction]

    /// The replay to restore, arriving at `present`.
    func replay(arrivingAt present: TodoList) -> UndoableReplay<TodoList, TodoAction> {
        UndoableReplay(base: base, actions: actions.map(\.action), present: present)
    }
}

/// One action of a saved replay, spelled as the first data-file format spells it, so files
/// written by earlier versions of `todo` load unchanged whatever the library calls its
/// actions. A replay holds only these four kinds.
enum V1SavedAction: Decodable, Sendable {
    case transaction([TodoAction])
    case tag(HistoryTag)
    case pushScope
    case undo(steps: Int)

    var action: UndoableAction<TodoAction> {
        switch self {
        case let .transaction(actions): .transaction(actions)
        case let .tag(tag): .tag(tag)
        case .pushScope: .pushNewScope
        case let .undo(steps): .undo(to: .steps(steps))
        }
    }
}
