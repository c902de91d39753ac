import Foundation

/// A clock that moves only when told to, so tests of time-based behaviour (debouncing,
/// grouping, effects that sleep) never sleep.
///
/// ```swift
/// let clock = TestClock()
/// let controller = VersioningController("", debounceInterval: .milliseconds(500), clock: clock)
/// controller.append("a")
/// clock.advance(by: .milliseconds(10))
/// controller.append("ab") // joins the burst: one step
/// ```
public final class TestClock: Clock, Sendable {

    /// A point in the clock's time: how far it has been advanced.
    public struct Instant: InstantProtocol {
        /// The time since the clock was made.
        public var offset: Duration

        /// The instant `offset` after the clock was made.
        init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var current = Instant(offset: .zero)
        var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// A clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant {
        state.withLock { $0.current }
    }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the clock is advanced to `deadline`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if deadline <= state.current { return true }
                state.sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        try Task.checkCancellation()
    }

    /// Moves the clock forward, waking every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state in
            let now = state.current.advanced(by: duration)
            state.current = now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }
}
