/// How a history bounds and groups its steps: the one policy that the controller's settings
/// and the undoable reducer's options both configure.
package struct HistoryPolicy: Sendable {
    /// The largest number of undo steps kept across all scopes, or `nil` for no limit.
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

/// A function returning the time elapsed on `clock` since this was called: instants of an
/// arbitrary clock cannot be stored without its type, durations can.
func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let origin = clock.now
    return { origin.duration(to: clock.now) }
}
