import Foundation
import Revertible

/// An action for a reducer wrapped by ``Reducer/undoable(_:)``: one of the base reducer's
/// actions, or a `HistoryCommand`, the same commands `VersioningController` runs.
///
/// The history commands read as before: `.undo`, `.redo(to: "saved")`, `.undo(by: "ana")`,
/// `.pushNewScope` and the others are shorthands for `.history(_:)`.
public enum UndoableAction<Action: Sendable>: Sendable {
    /// An action of the base reducer, recorded as one undo step (unless filtered out or
    /// grouped with the previous one).
    case action(Action)
    /// Applies several base actions as one undo step of its own.
    case transaction([Action])
    /// A command to the history: undo, redo, a move, a tag, a scope. Per-author undo
    /// (`HistoryCommand/undoByAuthor(_:)`) takes the author's steps back under the options'
    /// `conflictPolicy`; the others as `VersioningController` runs them.
    case history(HistoryCommand)

    /// Undoes one step.
    public static var undo: Self { .history(.undo(to: .steps(1))) }
    /// Redoes one step.
    public static var redo: Self { .history(.redo(to: .steps(1))) }
    /// Removes the step undo would take, keeping the present (`HistoryCommand/dropNextUndo`):
    /// for a step a refusal left in place that is not to be undone, so the older steps are
    /// reachable again.
    public static var dropNextUndo: Self { .history(.dropNextUndo) }
    /// Undoes to `target` in the current scope: a number of steps, or a tagged version.
    public static func undo(to target: HistoryDestination) -> Self { .history(.undo(to: target)) }
    /// Redoes to `target` in the current scope, up to and including a tagged version.
    public static func redo(to target: HistoryDestination) -> Self { .history(.redo(to: target)) }
    /// Takes back the newest step of `author` not taken back yet, leaving every other
    /// author's later steps in place (`HistoryCommand/undoByAuthor(_:)`).
    public static func undo(by author: HistoryAuthor) -> Self { .history(.undoByAuthor(author)) }
    /// Takes back the newest per-author undo of `author` (`HistoryCommand/redoByAuthor(_:)`).
    public static func redo(by author: HistoryAuthor) -> Self { .history(.redoByAuthor(author)) }
    /// Moves to `destination` in the current scope's tree of versions.
    public static func move(to destination: HistoryDestination) -> Self { .history(.move(to: destination)) }
    /// Undoes every step of the current scope, staying in it.
    public static var undoCurrentScope: Self { .history(.undoCurrentScope) }
    /// Redoes every step of the current scope.
    public static var redoCurrentScope: Self { .history(.redoCurrentScope) }
    /// Names the present (`HistoryCommand/tag(_:)`).
    public static func tag(_ tag: HistoryTag) -> Self { .history(.tag(tag)) }
    /// Starts a scope on the present (`HistoryCommand/pushNewScope`).
    public static var pushNewScope: Self { .history(.pushNewScope) }
    /// Ends the current scope, squashing its steps into one (`HistoryCommand/popCurrentScope`).
    public static var popCurrentScope: Self { .history(.popCurrentScope) }
    /// Abandons the current scope (`HistoryCommand/undoAndPopCurrentScope`).
    public static var undoAndPopCurrentScope: Self { .history(.undoAndPopCurrentScope) }
    /// Forgets every step, tag and scope; the present stays.
    public static var removeAllVersions: Self { .history(.removeAllVersions) }
    /// Ends the open group (`HistoryCommand/stopGrouping`).
    public static var stopGrouping: Self { .history(.stopGrouping) }

    /// Whether this action works on the history rather than the base state.
    var isHistoryCommand: Bool {
        if case .history = self { true } else { false }
    }
}

extension UndoableAction: Equatable where Action: Equatable {}
extension UndoableAction: Hashable where Action: Hashable {}

/// Saved as before commands were one enum: `{"action": {"_0": …}}`, `{"transaction": …}`, or
/// the command's own form (`{"undo": {"to": {"steps": 1}}}`), so saved replays still load.
extension UndoableAction: Codable where Action: Codable {

    private enum CodingKeys: String, CodingKey {
        case action, transaction
    }

    private enum PayloadKeys: String, CodingKey {
        case payload = "_0"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.action) {
            let payload = try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .action)
            self = .action(try payload.decode(Action.self, forKey: .payload))
        } else if container.contains(.transaction) {
            let payload = try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .transaction)
            self = .transaction(try payload.decode([Action].self, forKey: .payload))
        } else {
            self = .history(try HistoryCommand(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case let .action(action):
            var container = encoder.container(keyedBy: CodingKeys.self)
            var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .action)
            try payload.encode(action, forKey: .payload)
        case let .transaction(actions):
            var container = encoder.container(keyedBy: CodingKeys.self)
            var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .transaction)
            try payload.encode(actions, forKey: .payload)
        case let .history(command):
            try command.encode(to: encoder)
        }
    }
}
