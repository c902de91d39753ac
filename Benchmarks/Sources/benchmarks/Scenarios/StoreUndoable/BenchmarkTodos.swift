import UndoableReducer

/// An action of the `store-undoable` scenario's todo reducer.
enum BenchmarkTodoAction: Sendable, Equatable {
    case add(TodoItem)
    case toggle(index: Int)
    case edit(index: Int, title: String)
    case remove(index: Int)
    /// Stands in for undo and redo when no history wraps the reducer, so every
    /// implementation reduces the same number of actions.
    case noop
}

/// The todo reducer of the `store-undoable` scenario: it knows nothing about undo. Positions
/// wrap around the list, so every action changes the state whatever undo did before it.
/// Generic over the collection holding the items (`Array` or `TreeArray`).
struct BenchmarkTodos<State: TodoCollectionState>: Reducer {

    typealias Action = BenchmarkTodoAction

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let count = state.itemCount
        switch action {
        case let .add(item):
            state.append(item)
        case let .toggle(index):
            guard count > 0 else { break }
            state.toggle(at: index % count)
        case let .edit(index, title):
            guard count > 0 else { break }
            state.setTitle(title, at: index % count)
        case let .remove(index):
            guard count > 0 else { break }
            state.remove(at: index % count)
        case .noop:
            break
        }
        return .none
    }
}
