import Foundation
import UndoableReducer

/// An action as the test store's inner store sees it: sent by the test, or by an effect.
enum TestAction<Action: Sendable>: Sendable {
    case sent(Action, id: UInt64)
    case received(Action)

    var action: Action {
        switch self {
        case let .sent(action, _), let .received(action): action
        }
    }

    var sentID: UInt64? {
        if case let .sent(_, id) = self { id } else { nil }
    }
}

/// Where an assertion was written, for the failure it reports.
struct CallSite: Sendable {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
}

/// Everything the reducer of a test store has done that the test has not asserted yet: the
/// actions reduced, each with the state after it, and the asynchronous effects still running.
///
/// Guarded by an `NSCondition` (a pthread mutex that ThreadSanitizer sees), which also lets a
/// releasing test store wait, bounded, for effects that are just returning.
final class TestStoreLog<State: Sendable, Action: Sendable>: @unchecked Sendable {
    // Safe to share: every stored property is only touched between `condition.lock()` and
    // `condition.unlock()`.

    struct Entry {
        var action: Action
        /// The id of the test's `send`, or `nil` for an action an effect sent.
        var sentID: UInt64?
        var state: State
    }

    enum WaitOutcome: Equatable {
        /// An action is waiting to be received.
        case action
        /// No action is waiting and no effect is running: none can come.
        case idle
        case timedOut
    }

    private let condition = NSCondition()
    /// Reduced actions not yet asserted, oldest first.
    private var entries: [Entry] = []
    /// Running effects, by id: the action whose reduction returned each.
    private var running: [UInt64: Action] = [:]
    private var nextEffectID: UInt64 = 0
    /// Counts appended entries and finished effects, so a waiter misses none.
    private var events: UInt64 = 0
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var expiredWaiters: Set<UInt64> = []
    private var nextWaiterID: UInt64 = 0

    private func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: Recording (from the reducer, under the store's lock)

    func append(_ entry: Entry) {
        let woken = withLock {
            entries.append(entry)
            return signal()
        }
        for waiter in woken { waiter.resume() }
    }

    func effectStarted(by action: Action) -> UInt64 {
        withLock {
            defer { nextEffectID += 1 }
            running[nextEffectID] = action
            return nextEffectID
        }
    }

    func effectFinished(_ id: UInt64) {
        let woken = withLock {
            running.removeValue(forKey: id)
            return signal()
        }
        for waiter in woken { waiter.resume() }
    }

    /// Counts an event and takes every waiter to resume; called under the lock.
    private func signal() -> [CheckedContinuation<Void, Never>] {
        events += 1
        condition.broadcast()
        defer { waiters = [:] }
        return Array(waiters.values)
    }

    // MARK: Reading (from the test)

    /// Removes and returns the entry of the test's send `id` and the entries before it.
    func takeSent(_ id: UInt64) -> (before: [Entry], sent: Entry?) {
        withLock {
            guard let index = entries.firstIndex(where: { $0.sentID == id }) else { return (entries, nil) }
            defer { entries.removeFirst(index + 1) }
            return (Array(entries[..<index]), entries[index])
        }
    }

    func takeFirst() -> Entry? {
        withLock { entries.isEmpty ? nil : entries.removeFirst() }
    }

    func takeAll() -> [Entry] {
        withLock {
            defer { entries = [] }
            return entries
        }
    }

    /// The actions that started the effects still running, oldest effect first.
    var runningOrigins: [Action] {
        withLock { running.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Forgets the running effects (after they were cancelled or reported).
    func forgetRunning() {
        withLock { running = [:] }
    }

    /// Waits until an action is waiting to be received, or no effect is running, or
    /// `timeout` has passed.
    func waitForAction(timeout: Duration) async -> WaitOutcome {
        await wait(timeout: timeout) {
            if !entries.isEmpty { return .action }
            if running.isEmpty { return .idle }
            return nil
        }
    }

    /// Waits until no effect is running, or `timeout` has passed; returns whether none is.
    func waitForEffects(timeout: Duration) async -> Bool {
        await wait(timeout: timeout) { running.isEmpty ? .idle : nil } == .idle
    }

    /// Blocks the calling thread until no effect is running, or `timeout` has passed, for a
    /// test store being released, which cannot suspend. It only waits while an effect runs.
    func blockUntilEffectsFinish(timeout: Duration) {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18)
        withLock {
            while !running.isEmpty, condition.wait(until: deadline) {}
        }
    }

    private func wait(timeout: Duration, until check: () -> WaitOutcome?) async -> WaitOutcome {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let (outcome, seen) = withLock { (check(), events) }
            if let outcome { return outcome }
            if ContinuousClock.now >= deadline { return .timedOut }
            await waitForEvent(after: seen, until: deadline)
        }
    }

    /// Suspends until an event later than `seen`, or `deadline`.
    private func waitForEvent(after seen: UInt64, until deadline: ContinuousClock.Instant) async {
        let id = withLock {
            defer { nextWaiterID += 1 }
            return nextWaiterID
        }
        let timer = Task { [weak self] in
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
            } catch {
                return // woken by an event first
            }
            self?.expire(id)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = withLock {
                if events != seen || expiredWaiters.remove(id) != nil { return true }
                waiters[id] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
        withLock { _ = expiredWaiters.remove(id) }
    }

    private func expire(_ id: UInt64) {
        let waiter = withLock {
            guard let waiter = waiters.removeValue(forKey: id) else {
                expiredWaiters.insert(id)
                return nil as CheckedContinuation<Void, Never>?
            }
            return waiter
        }
        waiter?.resume()
    }
}

/// The reducer a test store runs: the feature's reducer, recording each action with the state
/// after it, marking the actions its effects send as received, and tracking those effects.
struct RecordingReducer<Root: Sendable, Action: Sendable, State: Sendable>: Reducer {
    let base: any Reducer<Root, Action>
    let view: @Sendable (Root) -> State
    let log: TestStoreLog<State, Action>

    func reduce(into root: inout Root, action: TestAction<Action>) -> Effect<TestAction<Action>> {
        let effect = base.reduce(into: &root, action: action.action)
        log.append(.init(action: action.action, sentID: action.sentID, state: view(root)))
        let origin = action.action
        let log = log
        return effect
            .map { TestAction.received($0) }
            .tracking(started: { log.effectStarted(by: origin) }, finished: { log.effectFinished($0) })
    }
}
