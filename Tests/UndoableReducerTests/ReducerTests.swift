import Testing
import UndoableReducer

@Suite("Reducers")
struct ReducerTests {
    @Test func sendUpdatesTheStateBeforeReturning() {
        let store = Store(initialState: 0, reducer: Counter())
        store.send(.increment)
        #expect(store.state == 1)
        store.send(.add(10))
        store.send(.decrement)
        #expect(store.state == 10)
    }

    @Test func todoReducerAddsTogglesAndRemoves() {
        let store = Store(initialState: Todos.State(), reducer: Todos())
        store.send(.add("milk"))
        store.send(.add("eggs"))
        store.send(.add("bread"))
        store.send(.toggle(id: 2))
        #expect(store.state.items.map(\.isDone) == [false, true, false])

        store.send(.remove(id: 1))
        #expect(store.state.items.map(\.title) == ["eggs", "bread"])

        store.send(.clearCompleted)
        #expect(store.state.items == [Todos.Item(id: 3, title: "bread")])
        #expect(store.state.nextID == 4)
    }

    @Test func reduceWrapsAClosureOrAnotherReducer() {
        let doubling = Reduce<Int, Counter.Action> { count, _ in
            count *= 2
            return .none
        }
        var count = 3
        _ = doubling.reduce(into: &count, action: .increment)
        #expect(count == 6)

        let erased = Reduce(Counter())
        _ = erased.reduce(into: &count, action: .add(4))
        #expect(count == 10)
    }

    @Test func combinedReducersRunInOrderOnTheSameState() {
        let log = Shared<[String]>([])
        let reducer = CombineReducers<Int, Counter.Action> {
            Counter()
            Reduce { count, _ in
                log.withLock { $0.append("second saw \(count)") }
                count *= 10
                return .none
            }
        }
        let store = Store(initialState: 1, reducer: reducer)
        store.send(.increment)
        #expect(store.state == 20)
        #expect(log.value == ["second saw 2"])
    }

    @Test(arguments: [false, true])
    func reducerBuilderSupportsConditionsAndLoops(includeExtra: Bool) {
        let reducer = CombineReducers<Int, Counter.Action> {
            for _ in 0..<3 {
                Counter()
            }
            if includeExtra {
                Reduce { count, _ in
                    count += 100
                    return .none
                }
            }
        }
        let store = Store(initialState: 0, reducer: reducer)
        store.send(.increment)
        #expect(store.state == (includeExtra ? 103 : 3))
    }

    @Test func scopeRunsChildReducersOnlyOnTheirStateAndActions() {
        let store = Store(initialState: AppState(), reducer: CombineReducers<AppState, AppAction> {
            Scope(state: \.counter, embed: AppAction.counter, extract: \.counter) {
                Counter()
            }
            Scope(state: \.todos, embed: AppAction.todos, extract: \.todos) {
                Todos()
            }
            Reduce { state, action in
                state.actionCount += 1
                if action == .reset {
                    state.counter = 0
                }
                return .none
            }
        })

        store.send(.counter(.add(5)))
        store.send(.todos(.add("milk")))
        #expect(store.state.counter == 5)
        #expect(store.state.todos.items.map(\.title) == ["milk"])
        #expect(store.state.actionCount == 2)

        store.send(.reset)
        #expect(store.state.counter == 0)
        #expect(store.state.todos.items.count == 1)
        #expect(store.state.actionCount == 3)
    }

    @Test func scopeMapsChildEffectsBackToParentActions() async {
        struct Child: Reducer {
            enum Action: Sendable, Equatable { case start, reply(Int) }

            func reduce(into state: inout [Int], action: Action) -> Effect<Action> {
                switch action {
                case .start:
                    return .merge(.send(.reply(1)), .run { send in send(.reply(2)) })
                case let .reply(value):
                    state.append(value)
                    return .none
                }
            }
        }
        enum ParentAction: Sendable, Equatable {
            case child(Child.Action)
            var child: Child.Action? {
                if case let .child(action) = self { action } else { nil }
            }
        }

        struct Parent: Sendable, Equatable {
            var child: [Int] = []
            var seen: [ParentAction] = []
        }
        let store = Store(initialState: Parent(), reducer: CombineReducers<Parent, ParentAction> {
            Scope(state: \.child, embed: ParentAction.child, extract: \.child) {
                Child()
            }
            Reduce { state, action in
                state.seen.append(action)
                return .none
            }
        })

        await store.send(.child(.start)).finish()
        #expect(store.state.child == [1, 2])
        #expect(store.state.seen == [.child(.start), .child(.reply(1)), .child(.reply(2))])
    }
}
