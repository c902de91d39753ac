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

    /// The limit, the debounce interval and the clock, as the history applies them.
    @usableFromInline var policy: HistoryPolicy
    /// Returns `false` for actions whose changes are kept without an undo step.
    public var recording: @Sendable (Action) -> Bool
    /// A key for each action (any `Hashable & Sendable` value: a field's identifier, an enum
    /// case, a string); consecutive recorded actions with the same key are one step. An action
    /// whose key is `nil` is always a step of its own. `nil` (the default) groups by
    /// ``debounceInterval`` alone.
    public var groupingBy: (@Sendable (Action) -> (any Hashable & Sendable)?)?
    /// A label for the step an action starts ("Add “milk”").
    public var label: @Sendable (Action) -> String?
    /// What undo and redo do at a location something else changed since the step was made
    /// (an action `recording` refused, an effect's action it refused, ``UndoableState/absorb(_:)``,
    /// another author): `ConflictPolicy.skip` (the default) leaves it as the other writer
    /// set it and reverts the rest of the step, so undo never jams.
    public var conflictPolicy: ConflictPolicy {
        get { policy.conflictPolicy }
        set { policy.conflictPolicy = newValue }
    }
    /// Who made each recorded action's step, for ``UndoableAction/undo(by:)``; `nil` (the
    /// default) records steps without author. Steps of different authors are never grouped;
    /// a transaction's step is by the first of its actions that has an author.
    public var author: (@Sendable (Action) -> HistoryAuthor?)?

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
    ///   - groupingBy: A key for each action, of any `Hashable & Sendable` type;
    ///     consecutive recorded actions with the same key are one step, and an action whose
    ///     key is `nil` is always a step of its own, never joining a group.
    ///   - debounceInterval: With `groupingBy`, the longest pause within a group; without
    ///     it, recorded actions less than this apart are one step (the controller's
    ///     `debounceInterval`, the same idea).
    ///   - clock: The clock that measures `debounceInterval` and times each step (a
    ///     `TestClock` in tests).
    ///   - label: A label for the step an action starts.
    ///   - conflictPolicy: What undo and redo do where something else changed a location
    ///     the step wrote since: skip it (the default), refuse the move, or overwrite it.
    ///   - author: Who made each recorded action's step, for ``UndoableAction/undo(by:)``.
    public init(
        historyLimit: Int? = nil,
        recording: @escaping @Sendable (Action) -> Bool = { _ in true },
        groupingBy: (@Sendable (Action) -> (any Hashable & Sendable)?)? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        label: @escaping @Sendable (Action) -> String? = { _ in nil },
        conflictPolicy: ConflictPolicy = .skip,
        author: (@Sendable (Action) -> HistoryAuthor?)? = nil
    ) {
        policy = HistoryPolicy(limit: historyLimit, debounceInterval: debounceInterval, clock: clock)
        self.recording = recording
        self.groupingBy = groupingBy
        self.label = label
        policy.conflictPolicy = conflictPolicy
        self.author = author
    }

    /// The most steps kept in the current scope, or `nil` for no limit (see
    /// ``init(historyLimit:recording:groupingBy:debounceInterval:clock:label:conflictPolicy:author:)``).
    public var historyLimit: Int? {
        get { policy.limit }
        set { policy.limit = newValue }
    }

    /// How `action` may join the step before it: by its key, if ``groupingBy`` is set (an
    /// action without a key is a step of its own), or else by time alone.
    @usableFromInline
    func grouping(of action: Action) -> Grouping {
        guard let groupingBy else { return .grouped() }
        guard let key = groupingBy(action) else { return .alone }
        return .grouped(key: HistoryTag(key))
    }

    /// The longest pause within a group of recorded actions, or `nil` to group by key alone.
    public var debounceInterval: Duration? {
        get { policy.debounceInterval }
        set { policy.debounceInterval = newValue }
    }
}

extension UndoableOptions {

    /// The name ``debounceInterval`` had before the controller's and the reducer's were one.
    @available(*, deprecated, renamed: "debounceInterval")
    public var groupingInterval: Duration? {
        get { debounceInterval }
        set { debounceInterval = newValue }
    }

    /// The options, with the debounce interval under its former name, `groupingInterval`.
    @available(*, deprecated, renamed: "init(historyLimit:recording:groupingBy:debounceInterval:clock:label:conflictPolicy:author:)")
    public init(
        historyLimit: Int? = nil,
        recording: @escaping @Sendable (Action) -> Bool = { _ in true },
        groupingBy: (@Sendable (Action) -> (any Hashable & Sendable)?)? = nil,
        groupingInterval: Duration?,
        clock: some Clock<Duration> = ContinuousClock(),
        label: @escaping @Sendable (Action) -> String? = { _ in nil },
        conflictPolicy: ConflictPolicy = .skip,
        author: (@Sendable (Action) -> HistoryAuthor?)? = nil
    ) {
        self.init(
            historyLimit: historyLimit,
            recording: recording,
            groupingBy: groupingBy,
            debounceInterval: groupingInterval,
            clock: clock,
            label: label,
            conflictPolicy: conflictPolicy,
            author: author
        )
    }
}
