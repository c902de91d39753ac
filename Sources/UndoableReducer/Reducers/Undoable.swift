import Revertible

/// A reducer with undo: wraps a base reducer so undo, redo, scopes, tags, transactions and
/// history clearing are ordinary actions, and keeps the history as diffs.
///
/// Make one with `base.undoable()` or `undoable(base)`:
///
/// ```swift
/// let store = Store(initialState: UndoableState(Todos()), reducer: TodoReducer().undoable())
/// store.send(.action(.add("milk")))
/// store.send(.undo)
/// ```
///
/// ## Which actions make steps
/// Every base action that changes the state is one step, labelled by `label`, unless:
/// - `recording` returns `false` for it. Its change is kept and is *not* reverted by a later
///   undo: the present simply moves on without a step. Undo and redo then take back only the
///   recorded changes, around it. If a recorded step wrote the same location as the ignored
///   change, undoing it would overwrite that change, so it fails instead: nothing changes,
///   the step stays, and ``UndoableState/lastError`` says so. An ignored action also ends any
///   group, so its change never joins a step.
/// - It joins the previous step: it has the same non-`nil` key from `groupingBy` as the
///   previous recorded action (typing into one field), and, if `groupingInterval` is set,
///   comes less than that interval after it; or, with only `groupingInterval`, it comes less
///   than the interval after the previous recorded action.
///
/// An action that changes nothing makes no step. Actions sent by the base reducer's effects
/// come back as `.action(_)` and are recorded like any other.
public struct Undoable<Base: Reducer>: Reducer where Base.State: Versionable & Sendable {

    public typealias State = UndoableState<Base.State>
    public typealias Action = UndoableAction<Base.Action>

    let base: Base
    let historyLimit: Int?
    let isRecorded: @Sendable (Base.Action) -> Bool
    let groupKey: @Sendable (Base.Action) -> HistoryTag?
    let groupingInterval: Duration?
    let now: @Sendable () -> Duration
    let label: @Sendable (Base.Action) -> String?

    /// Wraps `base`; see ``Reducer/undoable(historyLimit:recording:groupingBy:groupingInterval:clock:label:)``
    /// for the options.
    public init(
        _ base: Base,
        historyLimit: Int? = nil,
        recording isRecorded: @escaping @Sendable (Base.Action) -> Bool = { _ in true },
        groupingBy groupKey: @escaping @Sendable (Base.Action) -> HistoryTag? = { _ in nil },
        groupingInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        label: @escaping @Sendable (Base.Action) -> String? = { _ in nil }
    ) {
        self.base = base
        self.historyLimit = historyLimit
        self.isRecorded = isRecorded
        self.groupKey = groupKey
        self.groupingInterval = groupingInterval
        now = elapsedTime(on: clock)
        self.label = label
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        apply(action, to: &state).map(Action.action)
    }

    /// Reduces one undoable action and returns the base effects it produced.
    func apply(_ action: Action, to state: inout State) -> Effect<Base.Action> {
        if state.history.limit != historyLimit {
            state.history.limit = historyLimit
        }
        switch action {
        case let .action(action):
            return record(action, in: &state)
        case let .transaction(actions):
            return recordTransaction(actions, in: &state)
        case let .undo(steps):
            navigate(&state) { (history, value) throws(ReversionError) in try history.undo(&value, steps: steps) }
        case let .redo(steps):
            navigate(&state) { (history, value) throws(ReversionError) in try history.redo(&value, steps: steps) }
        case let .undoToTag(tag):
            navigate(&state) { (history, value) throws(ReversionError) in try history.undo(&value, to: tag.base) }
        case let .redoToTag(tag):
            navigate(&state) { (history, value) throws(ReversionError) in try history.redo(&value, to: tag.base) }
        case let .tag(tag):
            state.history.tagCurrentVersion(erased: tag.base)
        case .pushScope:
            state.history.pushScope()
        case .popScope:
            navigate(&state) { (history, _) throws(ReversionError) in _ = try history.popScope() }
        case .discardScope:
            navigate(&state) { (history, value) throws(ReversionError) in _ = try history.discardScope(&value) }
        case .clearHistory:
            state.history.removeAll()
            state.lastError = nil
        }
        state.lastGroup = nil
        return .none
    }

    private func record(_ action: Base.Action, in state: inout State) -> Effect<Base.Action> {
        let effect = base.reduce(into: &state.present, action: action)
        guard isRecorded(action) else {
            state.history.replaceCurrent(with: state.present)
            state.lastGroup = nil
            return effect
        }
        let mark = GroupMark(key: groupKey(action), time: groupingInterval.map { _ in now() })
        let joinsGroup = state.lastGroup.map { joins(mark, after: $0) } ?? false
        let recorded = state.history.record(
            state.present,
            annotation: StepRecord(label: label(action), actions: [action]),
            joiningGroup: joinsGroup,
            openingGroup: mark.key != nil || groupingInterval != nil
        )
        if recorded {
            state.lastGroup = mark
        }
        return effect
    }

    private func joins(_ mark: GroupMark, after previous: GroupMark) -> Bool {
        if let key = mark.key, key != previous.key { return false }
        guard let interval = groupingInterval, let time = mark.time, let previousTime = previous.time else {
            return mark.key != nil
        }
        return time - previousTime < interval
    }

    private func recordTransaction(_ actions: [Base.Action], in state: inout State) -> Effect<Base.Action> {
        var effects: [Effect<Base.Action>] = []
        for action in actions {
            effects.append(base.reduce(into: &state.present, action: action))
        }
        state.history.record(state.present, annotation: StepRecord(label: actions.lazy.compactMap(label).first, actions: actions))
        state.lastGroup = nil
        return .merge(effects)
    }

    /// Runs a history command on the present, in place, recording a failure in `lastError`.
    private func navigate(
        _ state: inout State,
        _ operation: (inout History<Base.State, StepRecord>, inout Base.State) throws(ReversionError) -> Void
    ) {
        // On the history's own copy, which holds exactly the bytes its steps check (the present
        // may spell a string differently yet equally), then handed to the present.
        var value = state.history.current
        defer { state.present = value }
        do {
            try operation(&state.history, &value)
            state.lastError = nil
        } catch {
            state.lastError = error
        }
    }
}

extension Reducer where State: Versionable & Sendable {

    /// Wraps this reducer so undo, redo, scopes, tags, transactions and history clearing are
    /// actions (``UndoableAction``) and its state carries its history (``UndoableState``).
    ///
    /// - Parameters:
    ///   - historyLimit: The most undo steps to keep, or `nil` for no limit; the oldest are
    ///     dropped first.
    ///   - recording: Returns `false` for actions whose changes are kept without an undo
    ///     step (see ``Undoable`` for exactly what undo does around them).
    ///   - groupingBy: A key; consecutive actions with the same non-`nil` key are one step.
    ///   - groupingInterval: With a key, the longest pause within a group; without one,
    ///     actions less than this apart are one step.
    ///   - clock: The clock that measures `groupingInterval`.
    ///   - label: A label for the step an action starts ("Add “milk”").
    public func undoable(
        historyLimit: Int? = nil,
        recording: @escaping @Sendable (Action) -> Bool = { _ in true },
        groupingBy: @escaping @Sendable (Action) -> HistoryTag? = { _ in nil },
        groupingInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        label: @escaping @Sendable (Action) -> String? = { _ in nil }
    ) -> Undoable<Self> {
        Undoable(
            self,
            historyLimit: historyLimit,
            recording: recording,
            groupingBy: groupingBy,
            groupingInterval: groupingInterval,
            clock: clock,
            label: label
        )
    }
}

/// Wraps `base` so undo, redo, scopes, tags and transactions are actions; the free-function
/// spelling of ``Reducer/undoable(historyLimit:recording:groupingBy:groupingInterval:clock:label:)``.
public func undoable<Base: Reducer>(
    _ base: Base,
    historyLimit: Int? = nil,
    recording: @escaping @Sendable (Base.Action) -> Bool = { _ in true },
    groupingBy: @escaping @Sendable (Base.Action) -> HistoryTag? = { _ in nil },
    groupingInterval: Duration? = nil,
    clock: any Clock<Duration> = ContinuousClock(),
    label: @escaping @Sendable (Base.Action) -> String? = { _ in nil }
) -> Undoable<Base> where Base.State: Versionable & Sendable {
    base.undoable(
        historyLimit: historyLimit,
        recording: recording,
        groupingBy: groupingBy,
        groupingInterval: groupingInterval,
        clock: clock,
        label: label
    )
}
