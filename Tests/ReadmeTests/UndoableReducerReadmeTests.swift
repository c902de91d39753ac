import Foundation
import Revertible
import Testing
import UndoableReducer
import UndoableReducerTesting

// The UndoableReducer examples of the README and of the "Adding undo to a reducer" and "Testing
// a feature" articles. `ReadmeSyncTests` checks that every block stands here.

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
        #expect(store.state.error == HistoryError.unknownTag("nowhere"))
    }
}

// The README's TestStore example.
@Test func addToggleAndUndo() async {
    let store = TestStore(
        initialState: UndoableState(Todos.State()),
        reducer: Todos().undoable(UndoableOptions(label: { action in
            if case let .add(_, title) = action { "Add “\(title)”" } else { "Toggle" }
        }))
    )

    await store.send(.action(.add(id: 1, title: "milk"))) {
        $0.present.items = [Todo(id: 1, title: "milk")]
        $0.undo = ["Add “milk”"]
    }
    await store.send(.action(.toggle(id: 1))) {
        $0.present.items[0].isDone = true
        $0.undo.append("Toggle")
    }
    await store.send(.undo) {
        $0.present.items[0].isDone = false
        $0.undo = ["Add “milk”"]
        $0.redo = ["Toggle"]
    }
    store.assertUndoRoundTrip() // undoing every step gives the initial state back
}

// The failure message the "Testing a feature" article (UndoableReducerTesting's catalog) shows,
// for a toggle whose expectation forgot the change.
@Test func readmeFailureMessage() async {
    let store = TestStore(
        initialState: UndoableState(Todos.State()),
        reducer: Todos().undoable(UndoableOptions(label: { action in
            if case let .add(_, title) = action { "Add “\(title)”" } else { "Toggle" }
        }))
    )
    await store.send(.action(.add(id: 1, title: "milk"))) {
        $0.present.items = [Todo(id: 1, title: "milk")]
        $0.undo = ["Add “milk”"]
    }
    let article = try! String(
        contentsOf: ReadmeSyncTests.root.appendingPathComponent(
            "Sources/UndoableReducerTesting/UndoableReducerTesting.docc/TestingAFeature.md"
        ),
        encoding: .utf8
    )
    await withKnownIssue {
        await store.send(.action(.toggle(id: 1))) {
            $0.undo.append("Toggle")
        }
    } matching: { issue in
        let message = issue.comments.map(\.rawValue).joined()
        return article.contains("```\n" + message + "\n```")
    }
}
