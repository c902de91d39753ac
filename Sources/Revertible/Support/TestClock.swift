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
public final class TestClock: Clock, @unchecked Sendable {
    // All mutable state is guarded by `lock`.

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

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []

    /// A clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant {
        lock.withLock { current }
    }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the clock is advanced to `deadline`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock {
                if deadline <= current { return true }
                sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        try Task.checkCancellation()
    }

    /// Moves the clock forward, waking every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let woken = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }
}
