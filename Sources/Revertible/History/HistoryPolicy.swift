import Foundation

/// How a history bounds and groups its steps: the one policy that the controller's settings
/// and the undoable reducer's options both configure.
@usableFromInline
package struct HistoryPolicy: Sendable {
    /// The largest number of steps kept in the current scope (a scope never trims the steps
    /// before its start; see `History.trim(to:)`), or `nil` for no limit.
    @usableFromInline
    package var limit: Int?
    /// The debounce interval: changes less than this apart join one step (with a grouping
    /// key: the longest pause within a group); `nil` to group by key alone.
    @usableFromInline package var debounceInterval: Duration?
    /// The time elapsed on the history's clock.
    @usableFromInline
    package var now: @Sendable () -> Duration
    /// What undo, redo and the other moves do where another writer changed a location a step
    /// wrote, unless a command says otherwise.
    ///
    /// `.skip` unless the maker chooses: undo never jams, and never takes back what someone
    /// else changed. The `todo` example chooses `.refuse` for its partial reads.
    @usableFromInline
    package var conflictPolicy: ConflictPolicy
    /// Tells the readings of `now` apart from those of any other policy's clock.
    @usableFromInline let clockIdentity: ClockIdentity
    /// The author of the steps recorded under this policy when the caller names none (a
    /// controller's `author`).
    @usableFromInline
    package var author: HistoryAuthor?
    /// Whether a reducer's run is recorded as its `TreeArray`s write it (see
    /// `History.lendTrees(to:policy:)`); off, every step is found by comparing versions, as
    /// the differential tests do to check one against the other.
    @usableFromInline
    package var recordsWrites = true

    package init(
        limit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        conflictPolicy: ConflictPolicy = .skip
    ) {
        self.limit = limit
        self.conflictPolicy = conflictPolicy
        self.debounceInterval = debounceInterval
        now = elapsedTime(on: clock)
        clockIdentity = ClockIdentity()
    }
}

/// Which clock, read from which origin, a policy's readings come from: made with each policy,
/// since two policies of the same clock may measure from different origins (see
/// ``elapsedTime(on:)``), and a history must know when its readings start afresh.
@usableFromInline
final class ClockIdentity: Sendable {}

/// How a history turns clock readings into step times that never go backwards.
///
/// A history outlives its clocks: it is reloaded in another process, given a new clock by
/// `withDebouncing(clock:interval:)`, or driven by a `TestClock` that starts at zero. A reading
/// older than the newest time the history holds would put a new step before older ones, and a
/// move by time (`earlier(by:)`) would land on the wrong version. So each clock's readings are
/// shifted by an offset, zero while the clock agrees with the history, and raised just enough
/// whenever a reading would go back: the first step on a new clock is as old as the newest step
/// before it, and later steps keep the spacing the new clock measures.
@usableFromInline
struct HistoryTimeline: Sendable {
    /// The clock whose readings the offset applies to; `nil` until the first reading.
    @usableFromInline var clock: ClockIdentity?
    /// What is added to the clock's readings.
    @usableFromInline var offset: Duration = .zero
    /// The newest time given out, or `nil` if not known yet (a history just loaded).
    @usableFromInline var newest: Duration?

    /// Spelled out for `History.stamp`, which clients specialize.
    @usableFromInline
    init() {}
}

/// Whether a recorded change may join the step before it.
@usableFromInline
package enum Grouping: Sendable {
    /// A step of its own (a transaction): it closes any open group and opens none.
    case alone
    /// A change that joins the open group when the policy says so: same non-`nil` `key`
    /// (within the interval, if there is one), or, without a key, within the interval.
    /// `time` is when the change happened, if not now.
    case grouped(key: HistoryTag? = nil, at: Duration? = nil)

    /// When the change happened, as the caller read its clock, if not now.
    @usableFromInline
    var time: Duration? {
        guard case let .grouped(_, time) = self else { return nil }
        return time
    }

    /// The change's key and its time in the history, `time`; `nil` for a step of its own.
    @usableFromInline
    func mark(at time: Duration) -> GroupMark? {
        guard case let .grouped(key, _) = self else { return nil }
        return GroupMark(key: key, time: time)
    }
}

/// The grouping key and time of a recorded change.
@usableFromInline
struct GroupMark: Sendable {
    @usableFromInline var key: HistoryTag?
    @usableFromInline var time: Duration
}

/// A function returning the time on `clock`, as a duration: instants of an arbitrary clock
/// cannot be stored without its type, durations can.
///
/// The system clocks (`ContinuousClock`, `SuspendingClock`) measure from 1970 UTC, read once
/// from the wall clock and advanced by `clock`, so the times are monotonic within a process
/// and still mean the same in the next one, where a saved history is loaded. A ``TestClock``
/// measures from its own start, so every policy made with it agrees. Any other clock measures
/// from the moment this was called. Either way the history keeps its times in order across
/// clocks (see ``HistoryTimeline``).
func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    if let clock = clock as? TestClock { return { clock.now.offset } }
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
