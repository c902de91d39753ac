import Revertible

/// An action for a reducer wrapped by ``Reducer/undoable(_:)``: one of the base reducer's
/// actions, or a history command in the same words as `VersioningController`'s.
public enum UndoableAction<Action: Sendable>: Sendable {
    /// An action of the base reducer, recorded as one undo step (unless filtered out or
    /// grouped with the previous one).
    case action(Action)
    /// Undoes to `target` in the current scope: a number of steps, or a tagged version.
    case undo(to: HistoryTarget)
    /// Redoes to `target` in the current scope, up to and including a tagged version.
    case redo(to: HistoryTarget)
    /// Takes back the newest step of this author (the options' `author`) that is not taken
    /// back yet, leaving every other author's later steps in place: selectively, under the
    /// options' `conflictPolicy`, and recorded as a new step by the author (plain `.undo`
    /// takes it back like any other). A step whose every location others have changed since
    /// is passed over for the next older one.
    ///
    /// Send it as ``undo(by:)``; the case is spelled apart because Swift cannot yet match
    /// cases that share a base name.
    case undoByAuthor(HistoryAuthor)
    /// Takes back the newest `.undo(by:)` of this author that is not taken back yet, as a new
    /// step by the author, unless the author recorded an ordinary step since. Send it as
    /// ``redo(by:)``.
    case redoByAuthor(HistoryAuthor)
    /// Moves to `destination` in the current scope's tree of versions, whichever branch it
    /// is on.
    case move(to: HistoryDestination)
    /// Undoes every step of the current scope, staying in it.
    case undoCurrentScope
    /// Redoes every step of the current scope.
    case redoCurrentScope
    /// Names the present; a tag names one version, so tagging another moves it.
    case tag(HistoryTag)
    /// Starts a scope on the present: undo and redo stay inside it until it is popped.
    case pushNewScope
    /// Ends the current scope, squashing its steps into one step on the scope below.
    case popCurrentScope
    /// Abandons the current scope: undoes its steps and removes it; the tags it moved go
    /// back to the versions they named before.
    case undoAndPopCurrentScope
    /// Forgets every step, tag and scope; the present stays.
    case removeAllVersions
    /// Applies several base actions as one undo step of its own.
    case transaction([Action])
    /// Ends the open group: the next recorded action starts a new step, even with the same
    /// grouping key or inside the grouping interval (Yjs's `stopCapturing`).
    case stopGrouping

    /// Undoes one step.
    public static var undo: Self { .undo(to: .oneStep) }
    /// Redoes one step.
    public static var redo: Self { .redo(to: .oneStep) }
    /// Takes back the newest step of `author` not taken back yet (``undoByAuthor(_:)``).
    public static func undo(by author: HistoryAuthor) -> Self { .undoByAuthor(author) }
    /// Takes back the newest per-author undo of `author` (``redoByAuthor(_:)``).
    public static func redo(by author: HistoryAuthor) -> Self { .redoByAuthor(author) }

    /// Whether this action works on the history rather than the base state.
    var isHistoryCommand: Bool {
        switch self {
        case .action, .transaction: false
        default: true
        }
    }

    /// The history command this action stands for, or `nil` for base actions and per-author
    /// moves.
    var command: HistoryCommand? {
        switch self {
        case .action, .transaction, .undoByAuthor, .redoByAuthor: nil
        case let .undo(target): .undo(target)
        case let .redo(target): .redo(target)
        case let .move(destination): .move(destination)
        case .undoCurrentScope: .undoCurrentScope
        case .redoCurrentScope: .redoCurrentScope
        case let .tag(tag): .tag(tag)
        case .pushNewScope: .pushNewScope
        case .popCurrentScope: .popCurrentScope
        case .undoAndPopCurrentScope: .undoAndPopCurrentScope
        case .removeAllVersions: .removeAllVersions
        case .stopGrouping: .stopGrouping
        }
    }
}

extension UndoableAction: Equatable where Action: Equatable {}
extension UndoableAction: Hashable where Action: Hashable {}
extension UndoableAction: Codable where Action: Codable {}
