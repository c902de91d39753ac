import Testing
import UndoableReducer

@Suite("Sending concurrently")
struct StoreConcurrencyTests {
    @Test func sendingFromManyTasksAtOnceLosesNoAction() async {
        let tasks = 64
        let sendsPerTask = 100
        let store = Store(initialState: 0, reducer: Counter())
        let seen = Shared<[Int]>([])
        let subscription = store.subscribe { count in seen.withLock { $0.append(count) } }

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<sendsPerTask {
                        store.send(.increment)
                    }
                }
            }
        }

        let total = tasks * sendsPerTask
        #expect(store.state == total)
        // Every step was delivered once, in the order it happened.
        #expect(seen.value == Array(1...total))
        withExtendedLifetime(subscription) {}
    }

    @Test func effectsSendingConcurrentlyLoseNoAction() async {
        let effects = 32
        let sendsPerEffect = 50
        let store = Store(initialState: 0, reducer: Reduce<Int, Counter.Action> { count, action in
            if action == .add(0) {
                return .merge((0..<effects).map { _ in
                    .run { send in
                        for _ in 0..<sendsPerEffect {
                            send(.increment)
                        }
                    }
                })
            }
            return Counter().reduce(into: &count, action: action)
        })

        await store.send(.add(0)).finish()
        #expect(store.state == effects * sendsPerEffect)
    }
}
