import Observation
import Testing
import TestSupport
import UndoableReducer

@Suite("Observing a store")
struct StoreObservationTests {
    @Test func subscribersReceiveEveryLaterStateInOrder() {
        let store = Store(initialState: 0, reducer: Counter())
        store.send(.increment)
        let seen = Shared<[Int]>([])
        let subscription = store.subscribe { count in seen.withLock { $0.append(count) } }

        store.send(.increment)
        store.send(.add(5))
        #expect(seen.value == [2, 7])

        subscription.cancel()
        store.send(.increment)
        #expect(seen.value == [2, 7])
    }

    @Test func releasingTheSubscriptionUnsubscribes() {
        let store = Store(initialState: 0, reducer: Counter())
        let seen = Shared<[Int]>([])
        var subscription: StoreSubscription? = store.subscribe { count in
            seen.withLock { $0.append(count) }
        }
        store.send(.increment)
        withExtendedLifetime(subscription) {}
        subscription = nil
        store.send(.increment)
        #expect(seen.value == [1])
    }

    @Test func actionsSentByASubscriberAreNeitherReentrantNorOutOfOrder() {
        let depth = Shared((current: 0, deepest: 0))
        let store = Store(initialState: 0, reducer: Reduce<Int, Counter.Action> { count, action in
            depth.withLock {
                $0.current += 1
                $0.deepest = max($0.deepest, $0.current)
            }
            defer { depth.withLock { $0.current -= 1 } }
            return Counter().reduce(into: &count, action: action)
        })
        let seen = Shared<[Int]>([])
        let subscription = store.subscribe { [weak store] count in
            seen.withLock { $0.append(count) }
            if count < 3 {
                store?.send(.increment)
                // The store has already reduced it, but will notify about it only after
                // this notification returns.
                #expect(store?.state == count + 1)
            }
        }
        store.send(.increment)
        #expect(store.state == 3)
        #expect(seen.value == [1, 2, 3])
        #expect(depth.value.deepest == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test(.hangGuard)
    func statesStreamStartsWithTheCurrentStateThenFollowsEveryStep() async {
        let store = Store(initialState: 10, reducer: Counter())
        let states = store.states
        store.send(.increment)
        store.send(.decrement)
        store.send(.add(3))

        var received: [Int] = []
        for await count in states {
            received.append(count)
            if received.count == 4 { break }
        }
        #expect(received == [10, 11, 10, 13])
    }

    @Test(.hangGuard)
    func statesStreamFinishesWhenTheStoreIsReleased() async {
        var store: Store<Int, Counter.Action>? = Store(initialState: 0, reducer: Counter())
        let states = store!.states
        store?.send(.increment)
        store = nil

        var received: [Int] = []
        for await count in states {
            received.append(count)
        }
        #expect(received == [0, 1])
    }

    @Test func observationTrackingFiresOnChange() {
        let store = Store(initialState: Todos.State(), reducer: Todos())
        let changes = Shared(0)
        withObservationTracking {
            _ = store.state
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        #expect(changes.value == 0)

        store.send(.add("milk"))
        #expect(changes.value == 1)

        // onChange is one-shot: a later step does not fire it again.
        store.send(.add("eggs"))
        #expect(changes.value == 1)
    }

    @Test func observationTrackingIgnoresUntrackedStores() {
        let tracked = Store(initialState: 0, reducer: Counter())
        let untracked = Store(initialState: 0, reducer: Counter())
        let changes = Shared(0)
        withObservationTracking {
            _ = tracked.state
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        untracked.send(.increment)
        #expect(changes.value == 0)
        tracked.send(.increment)
        #expect(changes.value == 1)
    }
}
