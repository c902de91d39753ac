import Foundation
import Revertible
import UndoableReducer

/// A counter whose state can be versioned.
struct Tally: Reducer {
    struct State: Versionable, Codable {
        var count = 0

        func addReversions(into reverter: inout some Reverter<State>) {
            reverter.appendReversion(at: \.count)
        }
    }

    enum Action: Sendable, Equatable, Codable {
        case increment
        case add(Int)
        case noop
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state.count += 1
        case let .add(amount): state.count += amount
        case .noop: break
        }
        return .none
    }
}

/// A todo list whose reducer knows nothing about undo.
struct TodoList: Reducer {
    struct Todo: Identifiable, Versionable, Codable {
        let id: Int
        var title: String
        var isDone = false

        func addReversions(into reverter: inout some Reverter<Todo>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.isDone)
        }
    }

    struct State: Versionable, Codable {
        var todos: [Todo] = []
        var draft = ""
        var lastSeen = 0

        func addReversions(into reverter: inout some Reverter<State>) {
            reverter.appendReversion(at: \.todos)
            reverter.appendReversion(at: \.draft)
            reverter.appendReversion(at: \.lastSeen)
        }
    }

    enum Action: Sendable, Equatable, Codable {
        case add(id: Int, title: String)
        case toggle(id: Int)
        case rename(id: Int, title: String)
        case remove(id: Int)
        case type(String)
        case seen(Int)
        case load
        case loaded([String])
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .add(id, title):
            state.todos.append(Todo(id: id, title: title))
        case let .toggle(id):
            if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].isDone.toggle() }
        case let .rename(id, title):
            if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].title = title }
        case let .remove(id):
            state.todos.removeAll { $0.id == id }
        case let .type(text):
            state.draft += text
        case let .seen(value):
            state.lastSeen = value
        case .load:
            return .run { send in send(.loaded(["from", "effect"])) }
        case let .loaded(titles):
            for title in titles { state.todos.append(Todo(id: 100 + state.todos.count, title: title)) }
        }
        return .none
    }

    static func label(_ action: Action) -> String? {
        switch action {
        case let .add(_, title): "Add “\(title)”"
        case .toggle: "Toggle"
        case .rename: "Rename"
        case .remove: "Remove"
        case .type: "Typing"
        case .seen: nil
        case .load, .loaded: "Load"
        }
    }
}

/// Sends `actions` through `reducer` directly, as a store would, and returns the state.
func reduce<R: Reducer>(_ reducer: R, _ state: R.State, _ actions: [R.Action]) -> R.State {
    var state = state
    for action in actions {
        _ = reducer.reduce(into: &state, action: action)
    }
    return state
}
