import Revertible

/// How an undoable reducer records steps: the one place its options are spelled.
///
/// ```swift
/// let reducer = TodoReducer().undoable(UndoableOptions(
///     historyLimit: 100,
///     recording: { !$0.isSelection },
///     groupingBy: { $0.fieldBeingTyped },
///     label: \.label
/// ))
/// ```
public struct UndoableOptions<Action>: Sendable {

    /// The limit, the grouping interval and the clock, as the history applies them.
    var policy: HistoryPolicy
    /// Returns `false` for actions whose changes are kept without an undo step.
    public var recording: @Sendable (Action) -> Bool
    /// A key; consecutive recorded actions with the same non-`nil` key are one step.
    public var groupingBy: @Sendable (Action) -> HistoryTag?
    /// A label for the step an action starts ("Add “milk”").
    public var label: @Sendable (Action) -> String?

    /// - Parameters:
    ///   - historyLimit: The most steps to keep in the current scope, counting every
    ///     branch, or `nil` for no limit; abandoned branches are dropped first, then the
    ///     oldest steps (exactly as `VersioningController.historyLimit` says), and a lowered
    ///     limit applies on the next action. A scope never costs the steps before it: they
    ///     are kept until it ends, then the limit applies again; a scope past the limit keeps
    ///     its newest steps and folds the older ones into its start, so popping and
    ///     abandoning it still cover everything it did.
    ///   - recording: Returns `false` for actions whose changes are kept without an undo
    ///     step (see ``Undoable`` for exactly what undo does around them).
    ///   - groupingBy: A key; consecutive recorded actions with the same non-`nil` key are
    ///     one step.
    ///   - groupingInterval: With a key, the longest pause within a group; without one,
    ///     recorded actions less than this apart are one step.
    ///   - clock: The clock that measures `groupingInterval` and times each step (a
    ///     `TestClock` in tests).
    ///   - label: A label for the step an action starts.
    public init(
        historyLimit: Int? = nil,
        recording: @escaping @Sendable (Action) -> Bool = { _ in true },
        groupingBy: @escaping @Sendable (Action) -> HistoryTag? = { _ in nil },
        groupingInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        label: @escaping @Sendable (Action) -> String? = { _ in nil }
    ) {
        policy = HistoryPolicy(limit: historyLimit, groupingInterval: groupingInterval, clock: clock)
        self.recording = recording
        self.groupingBy = groupingBy
        self.label = label
    }

    /// The most steps kept in the current scope, or `nil` for no limit (see
    /// ``init(historyLimit:recording:groupingBy:groupingInterval:clock:label:)``).
    public var historyLimit: Int? {
        get { policy.limit }
        set { policy.limit = newValue }
    }

    /// The longest pause within a group of recorded actions, or `nil` to group by key alone.
    public var groupingInterval: Duration? {
        get { policy.groupingInterval }
        set { policy.groupingInterval = newValue }
    }
}
