import Foundation
import UndoableReducer

/// A value shared between a test and the closures it hands to the store.
///
/// Guarded by `NSLock` rather than `Mutex`, which ThreadSanitizer cannot see on Linux.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    var value: Value {
        withLock { $0 }
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&storage)
    }
}

struct Counter: Reducer {
    enum Action: Sendable, Equatable {
        case increment
        case decrement
        case add(Int)
    }

    func reduce(into count: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .increment: count += 1
        case .decrement: count -= 1
        case let .add(amount): count += amount
        }
        return .none
    }
}

struct Todos: Reducer {
    struct Item: Sendable, Equatable {
        var id: Int
        var title: String
        var isDone = false
    }

    struct State: Sendable, Equatable {
        var items: [Item] = []
        var nextID = 1
    }

    enum Action: Sendable, Equatable {
        case add(String)
        case toggle(id: Int)
        case remove(id: Int)
        case clearCompleted
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .add(title):
            state.items.append(Item(id: state.nextID, title: title))
            state.nextID += 1
        case let .toggle(id):
            if let index = state.items.firstIndex(where: { $0.id == id }) {
                state.items[index].isDone.toggle()
            }
        case let .remove(id):
            state.items.removeAll { $0.id == id }
        case .clearCompleted:
            state.items.removeAll(where: \.isDone)
        }
        return .none
    }
}

/// A parent feature embedding both children, for composition tests.
struct AppState: Sendable, Equatable {
    var counter = 0
    var todos = Todos.State()
    var actionCount = 0
}

enum AppAction: Sendable, Equatable {
    case counter(Counter.Action)
    case todos(Todos.Action)
    case reset

    var counter: Counter.Action? {
        if case let .counter(action) = self { action } else { nil }
    }

    var todos: Todos.Action? {
        if case let .todos(action) = self { action } else { nil }
    }
}
