import Revertible
import Testing
import UndoableReducer
import UndoableReducerTesting

@Suite("TestStore: undoable reducers state their history")
struct UndoableTestStoreTests {
    let todos = TodoList().undoable(UndoableOptions(label: TodoList.label))

    @Test func theExpectationStatesThePresentAndTheSteps() async {
        let store = TestStore(initialState: UndoableState(TodoList.State()), reducer: todos)
        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.todos = [.init(id: 1, title: "milk")]
            $0.undo = ["Add “milk”"]
        }
        await store.send(.action(.toggle(id: 1))) {
            $0.present.todos[0].isDone = true
            $0.undo.append("Toggle")
        }
        #expect(store.state.hasUndo && store.state.undoCount == 2 && store.state.nextUndoLabel == "Toggle")

        await store.send(.undo) {
            $0.present.todos[0].isDone = false
            $0.undo = ["Add “milk”"]
            $0.redo = ["Toggle"]
        }
        await store.send(.tag("saved")) {
            $0.undo[0].tags = ["saved"]
        }
        await store.send(.undo(to: "nowhere")) {
            $0.error = .unknownTag("nowhere")
        }
        store.assertUndoRoundTrip()
    }

    @Test func scopesAndTransactionsAreStatedToo() async {
        let store = TestStore(initialState: UndoableState(TodoList.State()), reducer: todos)
        await store.send(.pushNewScope) {
            $0.scopes.append(.init())
        }
        #expect(store.state.scopeLevel == 1)
        await store.send(.transaction([.add(id: 1, title: "a"), .add(id: 2, title: "b")])) {
            $0.present.todos = [.init(id: 1, title: "a"), .init(id: 2, title: "b")]
            $0.undo = [.init("Add “a”", changeCount: 2)]
        }
        await store.send(.popCurrentScope) {
            $0.scopes = [.init(undo: [.init("Add “a”", changeCount: 2)])]
        }
        store.assertUndoRoundTrip()
    }

    @Test func effectsOfTheBaseReducerComeBackAsRecordedActions() async {
        let store = TestStore(initialState: UndoableState(TodoList.State()), reducer: todos)
        await store.send(.action(.load))
        await store.receive(.action(.loaded(["from", "effect"]))) {
            $0.present.todos = [.init(id: 100, title: "from"), .init(id: 101, title: "effect")]
            $0.undo = ["Load"]
        }
        await store.finish()
        store.assertUndoRoundTrip()
    }

    @Test func aHistoryChangeTheTestDoesNotStateFailsWithADiff() async {
        let (store, failures) = recordingFailures(undoable: UndoableState(Tally.State()), Tally().undoable())
        await store.send(.action(.increment)) {
            $0.present.count = 1
        }
        #expect(failures.value == ["""
        State after sending .action(.increment) does not match the expectation (- expected, + actual):

          …
              UndoableTestState<Tally.State>.Scope(
                startTag: nil,
        -       undo: [],
        +       undo: [
        +         UndoableTestState<Tally.State>.Step(
        +           label: nil,
        +           changeCount: 1,
        +           tags: []
        +         )
        +       ],
                redo: []
              )
          …
        """])
    }

    @Test func theRoundTripFailsWhenUndoDoesNotComeBack() async {
        // `seen` is not recorded: undo keeps it, so the initial present never comes back.
        let reducer = TodoList().undoable(UndoableOptions(recording: { if case .seen = $0 { false } else { true } }))
        let (store, failures) = recordingFailures(undoable: UndoableState(TodoList.State()), reducer)
        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.todos = [.init(id: 1, title: "milk")]
            $0.undo = [.init()]
        }
        await store.send(.action(.seen(7))) { $0.present.lastSeen = 7 }
        store.assertUndoRoundTrip()
        #expect(failures.value == ["""
        Undoing every step does not return to the initial state (- initial, + after undoing):

          …
            todos: [],
            draft: "",
        -   lastSeen: 0
        +   lastSeen: 7
          )
        """])
    }

    @Test func authorsAreStatedWhenAsked() async {
        let reducer = TodoList().undoable(UndoableOptions(label: TodoList.label, author: { action in
            if case .type = action { "ana" } else { "ben" }
        }))
        let store = TestStore(initialState: UndoableState(TodoList.State()), reducer: reducer, stating: .authors)
        await store.send(.action(.type("milk"))) {
            $0.present.draft = "milk"
            $0.undo = [.init("Typing", author: "ana")]
        }
        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.todos = [.init(id: 1, title: "milk")]
            $0.undo.append(.init("Add “milk”", author: "ben"))
        }
        await store.send(.undo(by: "ana")) {
            $0.present.draft = ""
            $0.undo.append(.init("Typing", author: "ana"))
        }
        // Without `.authors`, steps are stated as before authors existed.
        let plain = reduce(reducer, UndoableState(TodoList.State()), [.action(.type("a"))])
        #expect(UndoableTestState(plain).undo == ["Typing"])
        #expect(UndoableTestState(plain, stating: .authors).undo == [.init("Typing", author: "ana")])
    }
}
