import UndoableReducer

/// The todo reducer of the `store-undoable` scenario: it knows nothing about undo. Positions
/// wrap around the list, so every action changes the state whatever undo did before it.
struct BenchmarkTodos: Reducer {

    enum Action: Sendable, Equatable {
        case add(TodoItem)
        case toggle(index: Int)
        case edit(index: Int, title: String)
        case remove(index: Int)
        /// Stands in for undo and redo when no history wraps the reducer, so every
        /// implementation reduces the same number of actions.
        case noop
    }

    func reduce(into state: inout TodoState, action: Action) -> Effect<Action> {
        switch action {
        case let .add(item):
            state.items.append(item)
        case let .toggle(index):
            guard !state.items.isEmpty else { break }
            state.items[index % state.items.count].isDone.toggle()
        case let .edit(index, title):
            guard !state.items.isEmpty else { break }
            state.items[index % state.items.count].title = title
        case let .remove(index):
            guard !state.items.isEmpty else { break }
            state.items.remove(at: index % state.items.count)
        case .noop:
            break
        }
        return .none
    }
}

