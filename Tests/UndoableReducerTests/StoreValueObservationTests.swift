import Testing
import TestSupport
import UndoableReducer

@Suite("Observing one value of a store")
struct StoreValueObservationTests {
    @Test func observeFiresOnlyWhenTheValueChanges() {
        let store = Store(initialState: UndoableState(Tally.State()), reducer: Tally().undoable())
        let seen = Shared<[Bool]>([])
        let subscription = store.observe(\.hasUndo) { hasUndo in seen.withLock { $0.append(hasUndo) } }

        store.send(.action(.increment)) // false -> true
        store.send(.action(.increment)) // still true
        store.send(.action(.noop)) // changes nothing
        store.send(.undo) // still true
        store.send(.undo) // true -> false
        store.send(.undo) // nothing to undo
        #expect(seen.value == [true, false])

        subscription.cancel()
        store.send(.action(.increment))
        #expect(seen.value == [true, false])
    }

    @Test func wholeStateSubscribersStillSeeEveryStep() {
        let store = Store(initialState: UndoableState(Tally.State()), reducer: Tally().undoable())
        let steps = Shared(0)
        let subscription = store.subscribe { _ in steps.withLock { $0 += 1 } }
        store.send(.action(.noop))
        store.send(.action(.noop))
        #expect(steps.value == 2)
        withExtendedLifetime(subscription) {}
    }

    @Test func aClosureCanDeriveTheValue() {
        let store = Store(initialState: 0, reducer: Counter())
        let seen = Shared<[Bool]>([])
        let subscription = store.observe({ $0.isMultiple(of: 2) }) { even in seen.withLock { $0.append(even) } }
        store.send(.add(2))
        store.send(.increment)
        store.send(.add(2))
        store.send(.increment)
        #expect(seen.value == [false, true])
        withExtendedLifetime(subscription) {}
    }

    @Test(.hangGuard)
    func valuesStreamStartsWithTheCurrentValueThenYieldsDistinctValues() async {
        let store = Store(initialState: UndoableState(Tally.State()), reducer: Tally().undoable())
        let undoCounts = store.values(of: \.undoCount)
        store.send(.action(.increment))
        store.send(.action(.noop))
        store.send(.action(.add(2)))
        store.send(.tag("x"))
        store.send(.undo)

        var received: [Int] = []
        for await count in undoCounts {
            received.append(count)
            if received.count == 4 { break }
        }
        #expect(received == [0, 1, 2, 1])
    }

    @Test(.hangGuard)
    func valuesStreamFinishesWhenTheStoreIsReleased() async {
        var store: Store<Int, Counter.Action>? = Store(initialState: 0, reducer: Counter())
        let values = store!.values(of: { $0 > 0 })
        store?.send(.increment)
        store?.send(.increment)
        store = nil

        var received: [Bool] = []
        for await value in values {
            received.append(value)
        }
        #expect(received == [false, true])
    }

    @Test(.hangGuard)
    func concurrentSendersNotifyEachDistinctValueInOrder() async {
        let store = Store(initialState: 0, reducer: Counter())
        let seen = Shared<[Int]>([])
        let subscription = store.observe({ $0 / 10 }) { tens in seen.withLock { $0.append(tens) } }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<25 { store.send(.increment) }
                }
            }
        }
        #expect(store.state == 100)
        #expect(seen.value == Array(1...10))
        withExtendedLifetime(subscription) {}
    }
}
