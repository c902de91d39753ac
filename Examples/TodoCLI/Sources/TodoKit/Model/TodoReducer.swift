import Revertible
import UndoableReducer

/// The todo list's reducer. It knows nothing about undo: `undoable` adds that around it
/// (see ``TodoReducer/withUndo(historyLimit:conflictPolicy:)``).
///
/// Actions naming an item that is gone do nothing, so a stale action can never corrupt the
/// list; the command layer checks positions before it sends anything.
public struct TodoReducer: Reducer {
    public typealias State = TodoList
    public typealias Action = TodoAction

    public init() {}

    public func reduce(into state: inout TodoList, action: TodoAction) -> Effect<TodoAction> {
        switch action {
        case let .add(id, title):
            state.items.append(TodoItem(id: id, title: title))
        case let .setDone(id, _, isDone):
            if let index = state.index(of: id) { state.items[index].isDone = isDone }
        case let .edit(id, _, title):
            if let index = state.index(of: id) { state.items[index].title = title }
        case let .remove(id, _):
            if let index = state.index(of: id) { state.items.remove(at: index) }
        case let .move(id, _, _, destination):
            if let index = state.index(of: id) {
                let item = state.items.remove(at: index)
                state.items.insert(item, at: min(max(destination, 0), state.items.count))
            }
        case let .clear(ids):
            let removed = Set(ids)
            state.items.removeAll { removed.contains($0.id) }
        case let .replaceAll(items, _), let .absorb(items):
            state.items = TreeArray(items)
        }
        return .none
    }
}

extension TodoReducer {

    /// The reducer the app runs: this one with undo, redo, tags and scopes, every step
    /// labelled for `todo undo` and `todo history`; `nil` keeps every step.
    ///
    /// - Parameter conflictPolicy: What a move does where an absorbed change (another
    ///   person's, on a shared list) wrote since its step. A file has no other writers, so
    ///   it keeps the default `.refuse` (an outside edit stops the move, naming the step);
    ///   the server store moves with `.skip` and reports the engine's `lastConflicts`.
    public static func withUndo(historyLimit: Int?, conflictPolicy: ConflictPolicy = .refuse) -> Undoable<TodoReducer> {
        TodoReducer().undoable(UndoableOptions(
            historyLimit: historyLimit,
            recording: { if case .absorb = $0 { false } else { true } },
            label: TodoAction.label,
            conflictPolicy: conflictPolicy
        ))
    }
}
