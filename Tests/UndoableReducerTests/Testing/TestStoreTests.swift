import Revertible
import Testing
import UndoableReducer
import UndoableReducerTesting

/// A feature with every kind of effect: a `.run` that answers, a synchronous `.send`, a timer
/// on a test clock, and an effect that never ends.
struct Loader: Reducer {
    struct State: Equatable, Sendable {
        var isLoading = false
        var items: [String] = []
        var ticks = 0
        var pongs = 0
    }

    enum Action: Sendable, Equatable {
        case load
        case loaded([String])
        case ping
        case pong
        case startTimer
        case tick
        case listen
    }

    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load:
            state.isLoading = true
            return .run { send in send(.loaded(["milk", "eggs"])) }
        case let .loaded(items):
            state.isLoading = false
            state.items = items
        case .ping:
            return .send(.pong)
        case .pong:
            state.pongs += 1
        case .startTimer:
            // The deadlines are taken here, so the test may advance the clock as soon as
            // `send` returns, whether or not the effect has started sleeping yet.
            let start = clock.now
            return .run { [clock] send in
                for second in 1...3 {
                    try await clock.sleep(until: start.advanced(by: .seconds(second)))
                    send(.tick)
                }
            }
        case .tick:
            state.ticks += 1
        case .listen:
            return .run { _ in try await Task.sleep(for: .seconds(3600)) }
        }
        return .none
    }
}

@Suite("TestStore: asserting a feature")
struct TestStoreTests {
    @Test func sendAssertsTheWholeChange() async {
        let store = TestStore(initialState: 0, reducer: Counter())
        await store.send(.increment) { $0 = 1 }
        await store.send(.add(5)) { $0 += 5 }
        await store.send(.decrement) { $0 = 5 }
        #expect(store.state == 5)
    }

    @Test func anEffectsActionIsReceivedWithItsOwnChange() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()))
        await store.send(.load) { $0.isLoading = true }
        await store.receive(.loaded(["milk", "eggs"])) {
            $0.isLoading = false
            $0.items = ["milk", "eggs"]
        }
    }

    @Test func synchronousSendEffectsAreReceivedToo() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()))
        await store.send(.ping)
        await store.receive(.pong) { $0.pongs = 1 }
    }

    @Test func receiveCanMatchACaseInsteadOfAWholeAction() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()))
        await store.send(.load) { $0.isLoading = true }
        await store.receive(where: { if case .loaded = $0 { true } else { false } }) {
            $0.isLoading = false
            $0.items = ["milk", "eggs"]
        }
    }

    @Test func aTimerOnATestClockIsDrivenByAdvancingTheClock() async {
        let clock = TestClock()
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: clock))
        await store.send(.startTimer)
        for tick in 1...3 {
            clock.advance(by: .seconds(1))
            await store.receive(.tick) { $0.ticks = tick }
        }
        await store.finish()
    }

    @Test @MainActor func worksFromTheMainActor() async {
        var sent = 0 // main-actor state the closures may touch
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()))
        await store.send(.load) {
            sent += 1
            $0.isLoading = true
        }
        await store.receive(.loaded(["milk", "eggs"])) {
            $0.isLoading = false
            $0.items = ["milk", "eggs"]
        }
        #expect(sent == 1)
    }

    @Test func aCancelledEffectNoLongerCounts() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()))
        let listening = await store.send(.listen)
        listening.cancel()
        await store.finish()
    }

    @Test func nonExhaustiveStoresCheckOnlyWhatTheTestStates() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        store.exhaustivity = .off
        await store.send(.ping)
        await store.send(.load)
        // `.pong` arrived first and is skipped.
        await store.receive(.loaded(["milk", "eggs"])) { $0.items = ["milk", "eggs"] }
        await store.send(.listen)
        await store.send(.ping) { $0.pongs = 1 }
        #expect(store.state.pongs == 1)
        await store.finish(timeout: .zero)
        #expect(failures.value == [])
    }

    @Test func nonExhaustiveStoresStillFailOnWhatTheTestGotWrong() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        store.exhaustivity = .off
        await store.send(.load) { $0.isLoading = false }
        store.skipReceivedActions()
        #expect(failures.value == ["""
        State after sending .load does not match the expectation (- expected, + actual):

          Loader.State(
        -   isLoading: false,
        +   isLoading: true,
            items: [],
            ticks: 0,
          …
        """])
    }

    @Test func skippingLeavesNothingToFailAtTheEnd() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        await store.send(.ping)
        store.skipReceivedActions()
        await store.send(.listen)
        store.skipInFlightEffects()
        #expect(store.state.pongs == 1)
        await store.finish()
        #expect(failures.value == [])
    }
}

@Suite("TestStore: failing when it should, with the exact message")
struct TestStoreFailureTests {
    @Test func aWrongExpectationFailsWithADiff() async {
        let (store, failures) = recordingFailures(0, Counter())
        await store.send(.increment) { $0 = 2 }
        #expect(failures.value == ["""
        State after sending .increment does not match the expectation (- expected, + actual):

        - 2
        + 1
        """])
        // The store moves on to the actual state, so one mistake fails one assertion.
        await store.send(.increment) { $0 = 2 }
        #expect(failures.value.count == 1)
    }

    @Test func aChangeTheClosureDoesNotStateFails() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        await store.send(.load)
        store.skipReceivedActions()
        #expect(failures.value == ["""
        State after sending .load does not match the expectation (- expected, + actual):

          Loader.State(
        -   isLoading: false,
        +   isLoading: true,
            items: [],
            ticks: 0,
          …
        """])
    }

    @Test func aMissingReceiveFailsAtFinish() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        await store.send(.load) { $0.isLoading = true }
        await store.finish()
        #expect(failures.value == ["""
        1 action received but never asserted with receive:
          .loaded(["milk", "eggs"])
        """])
    }

    @Test func aMissingReceiveFailsWhenTheStoreIsReleased() async {
        let failures: Shared<[String]>
        do {
            let (store, recorded) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
            failures = recorded
            await store.send(.ping)
            await store.send(.ping)
        }
        #expect(failures.value == [
            "1 action received before sending .ping must be received first:\n  .pong",
            "1 action received but never asserted with receive:\n  .pong",
        ])
    }

    @Test func anUnfinishedEffectFailsAtFinish() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        await store.send(.listen)
        await store.finish(timeout: .zero)
        #expect(failures.value == ["""
        An effect is still running at the end of the test, started by:
          .listen
        Receive their actions, cancel them, or call skipInFlightEffects().
        """])
    }

    @Test func anUnfinishedEffectFailsWhenTheStoreIsReleased() async {
        let failures: Shared<[String]>
        do {
            let (store, recorded) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
            failures = recorded
            store.timeout = .milliseconds(10)
            await store.send(.listen)
            await store.send(.startTimer)
        }
        #expect(failures.value == ["""
        2 effects are still running at the end of the test, started by:
          .listen
          .startTimer
        Receive their actions, cancel them, or call skipInFlightEffects().
        """])
    }

    @Test func receivingWhenNoEffectCanSendFailsAtOnce() async {
        let (store, failures) = recordingFailures(0, Counter())
        await store.receive(.increment)
        #expect(failures.value == ["Expected to receive .increment, but no action was received and no effect is running."])
    }

    @Test func receivingFromAnEffectThatSendsNothingTimesOut() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        store.timeout = .milliseconds(20)
        await store.send(.listen)
        await store.receive(.tick)
        store.skipInFlightEffects()
        #expect(failures.value == ["""
        Expected to receive .tick, but none arrived within 0.02 seconds while effects were running, started by:
          .listen
        """])
    }

    @Test func receivingAnotherActionFailsWithADiffOfTheActions() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        await store.send(.load) { $0.isLoading = true }
        await store.receive(.loaded(["milk", "bread"]))
        #expect(failures.value == ["""
        Received an unexpected action (- expected, + received):

          …
            [
              "milk",
        -     "bread"
        +     "eggs"
            ]
          )
        """])
    }

    @Test func anExpectationThatChangesNothingForAnActionThatChangesNothingFails() async {
        let (store, failures) = recordingFailures(Loader.State(), Loader(clock: TestClock()))
        await store.send(.ping) { $0.pongs = 0 }
        await store.receive(.pong) { $0.pongs = 1 }
        #expect(failures.value == ["The expectation closure changed nothing and neither did sending .ping; leave the closure out."])
    }

    @Test func aThrowingExpectationFails() async {
        struct Oops: Error {}
        let (store, failures) = recordingFailures(0, Counter())
        await store.send(.increment) { _ in throw Oops() }
        #expect(failures.value == ["The expectation closure threw after sending .increment: Oops()"])
    }
}

@Suite("TestStore: reporting to the test framework")
struct TestStoreReportingTests {
    @Test func aFailureIsASwiftTestingIssueWithTheMessage() async {
        let store = TestStore(initialState: 0, reducer: Counter())
        await withKnownIssue {
            await store.send(.increment) { $0 = 2 }
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["State after sending .increment does not match the expectation (- expected, + actual):\n\n- 2\n+ 1"]
        }
    }
}
