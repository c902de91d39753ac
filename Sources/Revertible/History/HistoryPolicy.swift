import Foundation

/// How a history bounds and groups its steps: the one policy that the controller's settings
/// and the undoable reducer's options both configure.
package struct HistoryPolicy: Sendable {
    /// The largest number of steps kept in the current scope (a scope never trims the steps
    /// before its start; see `History.trim(to:)`), or `nil` for no limit.
    package var limit: Int?
    /// Changes less than this apart join one step (with a grouping key: the longest pause
    /// within a group); `nil` to group by key alone.
    package var groupingInterval: Duration?
    /// The time elapsed on the history's clock.
    package var now: @Sendable () -> Duration

    package init(limit: Int? = nil, groupingInterval: Duration? = nil, clock: some Clock<Duration> = ContinuousClock()) {
        self.limit = limit
        self.groupingInterval = groupingInterval
        now = elapsedTime(on: clock)
    }
}

/// Whether a recorded change may join the step before it.
package enum Grouping: Sendable {
    /// A step of its own (a transaction): it closes any open group and opens none.
    case alone
    /// A change that joins the open group when the policy says so: same non-`nil` `key`
    /// (within the interval, if there is one), or, without a key, within the interval.
    /// `time` is when the change happened, if not now.
    case grouped(key: HistoryTag? = nil, at: Duration? = nil)

    func mark(now: () -> Duration) -> GroupMark? {
        guard case let .grouped(key, time) = self else { return nil }
        return GroupMark(key: key, time: time ?? now())
    }
}

/// The grouping key and time of a recorded change.
struct GroupMark: Sendable {
    var key: HistoryTag?
    var time: Duration
}

/// A function returning the time on `clock`, as a duration: instants of an arbitrary clock
/// cannot be stored without its type, durations can.
///
/// The system clocks (`ContinuousClock`, `SuspendingClock`) measure from 1970 UTC, read once
/// from the wall clock and advanced by `clock`, so the times are monotonic within a process
/// and still mean the same in the next one, where a saved history is loaded. Any other clock
/// (a test clock) measures from the moment this was called.
func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let origin = clock.now
    let base: Duration = C.self == ContinuousClock.self || C.self == SuspendingClock.self ? wallClockTime() : .zero
    return { base + origin.duration(to: clock.now) }
}

/// The time since 1970 UTC on the system's wall clock.
private func wallClockTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}
