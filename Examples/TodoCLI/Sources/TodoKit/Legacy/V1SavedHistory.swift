import Revertible
import UndoableReducer

/// The history section of the data file: an ``UndoableReplay`` without its present, which the
/// file already holds in its own section (the one `todo list` reads).
///
/// Its length is bounded by the history limit: one transaction per step, plus tags, scopes and
/// a final undo for the redo steps, never a log of everything ever done.
struct V1SavedHistory: Codable, Sendable {
    /// The list before the oldest step kept.
    var base: TodoList
    /// The actions that rebuild the steps, tags and scopes from `base`.
    var actions: [V1SavedAction]

    init(_ replay: UndoableReplay<TodoList, TodoAction>) {
        base = replay.base
        actions = replay.actions.compactMap(V1SavedAction.init)
    }

    /// The replay to restore, arriving at `present`.
    func replay(arrivingAt present: TodoList) -> UndoableReplay<TodoList, TodoAction> {
        UndoableReplay(base: base, actions: actions.map(\.action), present: present)
    }
}

/// One action of a saved replay, spelled as the first data-file format spells it, so files
/// written by earlier versions of `todo` load unchanged whatever the library calls its
/// actions. A replay holds only these four kinds.
enum V1SavedAction: Codable, Sendable {
    case transaction([TodoAction])
    case tag(HistoryTag)
    case pushScope
    case undo(steps: Int)

    init?(_ action: UndoableAction<TodoAction>) {
        switch action {
        case let .transaction(actions): self = .transaction(actions)
        case let .tag(tag): self = .tag(tag)
        case .pushNewScope: self = .pushScope
        case let .undo(to: .steps(steps)): self = .undo(steps: steps)
        default: return nil
        }
    }

    var action: UndoableAction<TodoAction> {
        switch self {
        case let .transaction(actions): .transaction(actions)
        case let .tag(tag): .tag(tag)
        case .pushScope: .pushNewScope
        case let .undo(steps): .undo(to: .steps(steps))
        }
    }
}
