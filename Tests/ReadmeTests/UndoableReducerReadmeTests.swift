import Revertible
import Testing
import UndoableReducer

// The README's UndoableReducer examples. `ReadmeSyncTests` checks it matches the README.

struct Todo: Identifiable, Versionable {
    let id: Int
    var title: String
    var isDone = false

    func addReversions(into reverter: inout some Reverter<Todo>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.isDone)
    }
}

struct Todos: Reducer {
    struct State: Versionable {
        var items: [Todo] = []

        func addReversions(into reverter: inout some Reverter<State>) {
            reverter.appendReversion(at: \.items)
        }
    }

    enum Action: Sendable {
        case add(id: Int, title: String)
        case toggle(id: Int)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .add(id, title):
            state.items.append(Todo(id: id, title: title))
        case let .toggle(id):
            if let index = state.items.firstIndex(where: { $0.id == id }) {
                state.items[index].isDone.toggle()
            }
        }
        return .none
    }
}

@Suite("README: UndoableReducer")
struct UndoableReducerReadmeTests {

    @Test("Undo for your reducer in one line")
    func todos() {
        let store = Store(
            initialState: UndoableState(Todos.State()),
            reducer: Todos().undoable(UndoableOptions(historyLimit: 100, label: { action in
                if case let .add(_, title) = action { "Add “\(title)”" } else { "Toggle" }
            }))
        )

        store.send(.action(.add(id: 1, title: "milk")))
        store.send(.action(.toggle(id: 1)))
        #expect(store.state.nextUndoLabel == "Toggle")

        store.send(.undo)
        #expect(store.state.present.items[0].isDone == false)
        store.send(.transaction([.add(id: 2, title: "eggs"), .toggle(id: 2)]))
        store.send(.undo)
        #expect(store.state.present.items.count == 1)
        #expect(store.state.hasRedo)
    }

    @Test("Scopes, tags and refusals as actions")
    func scopesAndTags() {
        let store = Store(initialState: UndoableState(Todos.State()), reducer: Todos().undoable())

        store.send(.action(.add(id: 1, title: "milk")))
        store.send(.tag("shopping"))
        store.send(.pushNewScope)
        store.send(.action(.add(id: 2, title: "eggs")))
        store.send(.action(.toggle(id: 2)))
        store.send(.popCurrentScope) // the scope's two steps become one
        #expect(store.state.undoCount == 2)
        #expect(store.state.location(of: "shopping") == .behind(steps: 1))

        store.send(.undo(to: "shopping"))
        #expect(store.state.present.items.count == 1)
        store.send(.undo(to: "nowhere"))
        #expect(store.state.error == ReversionError.unknownTag("nowhere"))
    }
}
