import Revertible
import Testing
import UndoableReducer
import UndoableReducerTesting

// The code examples of UndoableReducer's documentation: the doc comments of its public API and
// the articles of `UndoableReducer.docc`. Each example stands here line for line
// (`ReadmeSyncTests` checks it), after the declarations it needs; `#expect` states what the
// example says.

// `Reducer`'s example.
struct Counter: Reducer {
    enum Action: Sendable { case increment, decrement }

    func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state += 1
        case .decrement: state -= 1
        }
        return .none
    }
}

// `Reduce`'s example.
enum CounterAction: Sendable {
    case increment, decrement
}

// `Scope`'s and `CombineReducers`' example.
struct AppState {
    var counter = 0
    var actionCount = 0
}

enum AppAction: Sendable {
    case counter(Counter.Action)

    var counter: Counter.Action? {
        if case let .counter(action) = self { action } else { nil }
    }
}

// `Effect`'s and `StoreTask`'s example.
struct ItemsClient: Sendable {
    func fetchItems() async throws -> [String] { ["milk", "eggs", "bread"] }
}

struct Feed: Reducer {
    struct State: Sendable {
        var items: [String] = []
        var isLoading = false
    }

    enum Action: Sendable {
        case refreshTapped
        case itemsLoaded([String])
    }

    let api = ItemsClient()

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .refreshTapped:
            state.isLoading = true
            return .run { send in
                let items = try await api.fetchItems()
                send(.itemsLoaded(items))
            }
        case let .itemsLoaded(items):
            state.items = items
            state.isLoading = false
            return .none
        }
    }
}

// `Undoable`'s example.
extension Todos.Action {
    var label: String {
        switch self {
        case let .add(_, title): "Add “\(title)”"
        case .toggle: "Toggle"
        }
    }
}

// `UndoableOptions`' example: a reducer with selection and typing actions.
struct TodoReducer: Reducer {
    enum Action: Sendable {
        case add(id: Int, title: String)
        case select(id: Int?)
        case type(id: Int, title: String)

        var isSelection: Bool {
            if case .select = self { true } else { false }
        }

        var fieldBeingTyped: HistoryTag? {
            if case let .type(id, _) = self { HistoryTag(id) } else { nil }
        }

        var label: String? {
            switch self {
            case let .add(_, title): "Add “\(title)”"
            case .select: nil
            case .type: "Typing"
            }
        }
    }

    func reduce(into state: inout Todos.State, action: Action) -> Effect<Action> {
        switch action {
        case let .add(id, title):
            state.items.append(Todo(id: id, title: title))
        case .select:
            break
        case let .type(id, title):
            if let index = state.items.firstIndex(where: { $0.id == id }) {
                state.items[index].title = title
            }
        }
        return .none
    }
}

// `UndoableWithCommands`' example: an app whose actions include undo and redo.
struct AppReducer: Reducer {
    enum Action: Sendable {
        case add(id: Int, title: String)
        case undoTapped
        case redoTapped
    }

    func reduce(into state: inout Todos.State, action: Action) -> Effect<Action> {
        if case let .add(id, title) = action {
            state.items.append(Todo(id: id, title: title))
        }
        return .none
    }
}

@Suite("Documentation examples: UndoableReducer")
struct UndoableReducerDocumentationTests {

    @Test("Overview: a store runs a reducer and its effects")
    func overview() async {
        struct Counter: Reducer {
            enum Action: Sendable { case increment, incrementLater }

            func reduce(into count: inout Int, action: Action) -> Effect<Action> {
                switch action {
                case .increment:
                    count += 1
                    return .none
                case .incrementLater:
                    return .run { send in
                        try await Task.sleep(for: .seconds(1))
                        send(.increment)
                    }
                }
            }
        }

        let store = Store(initialState: 0, reducer: Counter())
        store.send(.increment)                      // store.state == 1
        await store.send(.incrementLater).finish()  // store.state == 2
        #expect(store.state == 2)
    }

    @Test("Reduce")
    func reduce() {
        let counter = Reduce<Int, CounterAction> { count, action in
            switch action {
            case .increment: count += 1
            case .decrement: count -= 1
            }
            return .none
        }
        let store = Store(initialState: 0, reducer: counter)
        store.send(.increment)
        #expect(store.state == 1)
    }

    @Test("Store")
    func store() {
        let store = Store(initialState: 0, reducer: Counter())
        store.send(.increment)
        #expect(store.state == 1)
    }

    @Test("Effect and StoreTask")
    func effectAndStoreTask() async {
        let store = Store(initialState: Feed.State(), reducer: Feed())
        await store.send(.refreshTapped).finish()
        #expect(store.state.items.count == 3)
        #expect(!store.state.isLoading)
    }

    @Test("Scope")
    func scope() {
        let counter = Scope(state: \AppState.counter, embed: AppAction.counter, extract: \.counter) {
            Counter()
        }
        let store = Store(initialState: AppState(), reducer: counter)
        store.send(.counter(.increment))
        #expect(store.state.counter == 1)
    }

    @Test("CombineReducers")
    func combineReducers() {
        let app = CombineReducers<AppState, AppAction> {
            Scope(state: \.counter, embed: AppAction.counter, extract: \.counter) {
                Counter()
            }
            Reduce { state, action in
                state.actionCount += 1
                return .none
            }
        }
        let store = Store(initialState: AppState(), reducer: app)
        store.send(.counter(.increment))
        store.send(.counter(.decrement))
        #expect(store.state.counter == 0)
        #expect(store.state.actionCount == 2)
    }

    @Test("Undoable")
    func undoable() {
        let store = Store(initialState: UndoableState(Todos.State()), reducer: Todos().undoable())
        store.send(.action(.add(id: 1, title: "milk")))
        store.send(.undo)
        #expect(store.state.present.items.isEmpty)
        #expect(store.state.hasRedo)
    }

    @Test("HistoryCommand")
    func historyCommand() {
        let store = Store(initialState: UndoableState(Todos.State()), reducer: Todos().undoable())
        store.send(.action(.add(id: 1, title: "milk")))
        store.send(.tag("saved"))
        store.send(.action(.add(id: 2, title: "eggs")))
        store.send(.undo)                      // UndoableAction's shorthand for .history(.undo(to: .steps(1)))
        store.send(.history(.undo(to: "saved")))
        #expect(store.state.present.items.count == 1 && store.state.error == nil)
        #expect(store.state.redoCount == 1)
    }

    @Test("Reducer.undoable(_:)")
    func undoableOptions() {
        let reducer = Todos().undoable(UndoableOptions(historyLimit: 100, label: { $0.label }))
        let store = Store(initialState: UndoableState(Todos.State()), reducer: reducer)
        store.send(.action(.add(id: 1, title: "milk")))
        #expect(store.state.nextUndoLabel == "Add “milk”")
    }

    @Test("UndoableOptions")
    func options() {
        let reducer = TodoReducer().undoable(UndoableOptions(
            historyLimit: 100,
            recording: { !$0.isSelection },
            groupingBy: { $0.fieldBeingTyped },
            label: \.label
        ))
        let store = Store(initialState: UndoableState(Todos.State()), reducer: reducer)
        store.send(.action(.add(id: 1, title: "")))
        store.send(.action(.type(id: 1, title: "m")))
        store.send(.action(.select(id: 1)))
        store.send(.action(.type(id: 1, title: "mi")))
        store.send(.action(.type(id: 1, title: "milk")))
        #expect(store.state.undoCount == 2)
        #expect(store.state.nextUndoLabel == "Typing")
        store.send(.undo)
        #expect(store.state.present.items[0].title == "")
    }

    @Test("UndoableWithCommands")
    func commands() {
        let reducer = AppReducer().undoable(commands: { action in
            switch action {
            case .undoTapped: .undo
            case .redoTapped: .redo
            default: nil
            }
        })
        let store = Store(initialState: UndoableState(Todos.State()), reducer: reducer)
        store.send(.add(id: 1, title: "milk"))
        store.send(.undoTapped)
        #expect(store.state.present.items.isEmpty)
        store.send(.redoTapped)
        #expect(store.state.present.items.count == 1)
    }
}

// The "Testing a feature" article, and the examples of `Store.observe` and `Store.values(of:)`.
extension Feed.State: Equatable {}
extension Feed.Action: Equatable {}

@Suite("Documentation examples: testing a feature")
struct TestingArticleTests {

    @Test("A test store asserts each change and each received action")
    func sendAndReceive() async {
        let store = TestStore(initialState: Feed.State(), reducer: Feed())

        await store.send(.refreshTapped) { $0.isLoading = true }
        await store.receive(.itemsLoaded(["milk", "eggs", "bread"])) {
            $0.isLoading = false
            $0.items = ["milk", "eggs", "bread"]
        }
        await store.finish()
    }

    @Test("The expectation states the history")
    func undoable() async {
        let store = TestStore(initialState: UndoableState(Todos.State()), reducer: Todos().undoable())

        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.items = [Todo(id: 1, title: "milk")]
            $0.undo = [.init()] // one step, without a label
        }
        await store.send(.tag("saved")) {
            $0.undo[0].tags = ["saved"]
        }
        await store.send(.undo) {
            $0.present.items = []
            $0.undo = []
            $0.redo = [.init(tags: ["saved"])]
        }
        store.assertUndoRoundTrip()
    }

    @Test("Non-exhaustive tests")
    func nonExhaustive() async {
        let store = TestStore(initialState: Feed.State(), reducer: Feed())
        store.exhaustivity = .off
        await store.send(.refreshTapped)
        await store.receive(.itemsLoaded(["milk", "eggs", "bread"])) { $0.items = ["milk", "eggs", "bread"] }
    }

    @Test("Observing one value")
    func observeOneValue() async {
        let store = Store(initialState: UndoableState(Todos.State()), reducer: Todos().undoable())
        let subscription = store.observe(\.hasUndo) { hasUndo in
            print("undo is now", hasUndo ? "enabled" : "disabled")
        }
        let watcher = Task {
            for await canUndo in store.values(of: \.hasUndo) {
                print("undo", canUndo ? "enabled" : "disabled")
            }
        }
        store.send(.action(.add(id: 1, title: "milk")))
        watcher.cancel()
        withExtendedLifetime(subscription) {}
    }
}
