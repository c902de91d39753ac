import Testing
import TestSupport
import UndoableReducer

/// Records every action it reduces, and returns the effect `effects` gives for it.
private func recorder(
    _ effects: @escaping @Sendable (Step) -> Effect<Step> = { _ in .none }
) -> Store<[Step], Step> {
    Store(initialState: [], reducer: Reduce { log, step in
        log.append(step)
        return effects(step)
    })
}

private enum Step: Sendable, Equatable {
    case start
    case next
    case record(Int)
    case failed(String)
}

private struct Failure: Error {}

@Suite("Effects")
struct EffectTests {
    @Test func noneDoesNothing() async {
        let store = recorder()
        await store.send(.start).finish()
        #expect(store.state == [.start])
    }

    @Test func sendEffectsAreReducedFirstInFirstOutBeforeSendReturns() {
        let store = recorder { step in
            switch step {
            case .start: .merge(.send(.next), .send(.record(1)))
            case .next: .send(.record(2))
            default: .none
            }
        }
        store.send(.start)
        // First in, first out: `.record(1)` was queued before `.next` produced `.record(2)`.
        #expect(store.state == [.start, .next, .record(1), .record(2)])
    }

    @Test func runEffectActionsArriveThroughTheStoreInOrder() async {
        let store = recorder { step in
            guard step == .start else { return .none }
            return .run { send in
                for value in 1...50 {
                    send(.record(value))
                    await Task.yield()
                }
            }
        }
        await store.send(.start).finish()
        #expect(store.state == [.start] + (1...50).map(Step.record))
    }

    @Test func finishAwaitsEffectsStartedByTheEffectsActions() async {
        let store = recorder { step in
            switch step {
            case .start: .run { send in send(.next) }
            case .next: .run { send in
                await Task.yield()
                send(.record(7))
            }
            default: .none
            }
        }
        await store.send(.start).finish()
        #expect(store.state == [.start, .next, .record(7)])
    }

    @Test func mapTransformsSendAndRunActions() async {
        let store = recorder { step in
            guard step == .start else { return .none }
            return Effect<Int>
                .merge(.send(1), .run { send in send(2) })
                .map { Step.record($0 * 10) }
        }
        await store.send(.start).finish()
        #expect(store.state == [.start, .record(10), .record(20)])
    }

    @Test func mergeRunsEveryEffect() async {
        let store = recorder { step in
            guard step == .start else { return .none }
            let sent: Effect<Step> = .merge([.send(.record(1)), .none, .send(.record(2))])
            return sent
                .merge(with: .run { send in send(.record(3)) })
                .merge(with: .run { send in send(.record(4)) })
        }
        await store.send(.start).finish()
        #expect(Array(store.state.prefix(3)) == [.start, .record(1), .record(2)])
        #expect(Set(store.state.dropFirst(3).map { "\($0)" }) == ["record(3)", "record(4)"])
        #expect(store.state.count == 5)
    }

    @Test func thrownErrorsReachTheCatchHandler() async {
        let store = recorder { step in
            guard step == .start else { return .none }
            return .run { _ in
                throw Failure()
            } catch: { error, send in
                send(.failed("\(type(of: error))"))
            }
        }
        await store.send(.start).finish()
        #expect(store.state == [.start, .failed("Failure")])
    }

    @Test(.hangGuard)
    func effectsAreCancelledWhenTheStoreIsReleased() async {
        let (events, event) = AsyncStream.makeStream(of: String.self)
        var store: Store<[Step], Step>? = recorder { step in
            guard step == .start else { return .none }
            return .run { send in
                await withTaskCancellationHandler {
                    event.yield("started")
                    // Wait until cancelled; an AsyncStream's iteration ends then.
                    let (never, _) = AsyncStream.makeStream(of: Never.self)
                    for await _ in never {}
                    event.yield(Task.isCancelled ? "saw cancellation" : "ended uncancelled")
                    send(.next)
                } onCancel: {
                    event.yield("cancelled")
                }
            }
        }
        let task = store?.send(.start)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started")

        weak let released = store
        store = nil
        #expect(released == nil)
        #expect(await iterator.next() == "cancelled")
        #expect(await iterator.next() == "saw cancellation")
        await task?.finish()
    }

    @Test(.hangGuard)
    func cancellingAStoreTaskCancelsItsEffectsAndDropsTheirActions() async {
        let (events, event) = AsyncStream.makeStream(of: String.self)
        let store = recorder { step in
            guard step == .start else { return .none }
            return .run { send in
                event.yield("started")
                let (never, _) = AsyncStream.makeStream(of: Never.self)
                for await _ in never {}
                send(.record(1))
                event.yield(Task.isCancelled ? "cancelled" : "ended uncancelled")
            }
        }
        let task = store.send(.start)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        task.cancel()
        #expect(await iterator.next() == "cancelled")
        await task.finish()
        #expect(store.state == [.start])
    }

    @Test(.hangGuard)
    func cancellingAStoreTaskCancelsTheEffectsItsActionsStarted() async {
        let (events, event) = AsyncStream.makeStream(of: String.self)
        let store = recorder { step in
            switch step {
            case .start:
                return .run { send in
                    send(.next)
                    let (never, _) = AsyncStream.makeStream(of: Never.self)
                    for await _ in never {}
                }
            case .next:
                return .run { _ in
                    await withTaskCancellationHandler {
                        event.yield("child started")
                        let (never, _) = AsyncStream.makeStream(of: Never.self)
                        for await _ in never {}
                    } onCancel: {
                        event.yield("child cancelled")
                    }
                }
            default:
                return .none
            }
        }
        let task = store.send(.start)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "child started")
        task.cancel()
        #expect(await iterator.next() == "child cancelled")
        await task.finish()
        #expect(store.state == [.start, .next])
    }

    @Test func aStoreWithFinishedEffectsIsReleased() async {
        var store: Store<[Step], Step>? = recorder { step in
            step == .start ? .run { send in send(.next) } : .none
        }
        await store?.send(.start).finish()
        #expect(store?.state == [.start, .next])
        weak let released = store
        store = nil
        #expect(released == nil)
    }
}
