import Revertible

/// A reducer with undo: wraps a base reducer so undo, redo, scopes, tags, transactions and
/// history clearing are ordinary actions, and keeps the history as diffs.
///
/// Make one with ``Reducer/undoable(_:)``:
///
/// ```swift
/// let store = Store(initialState: UndoableState(Todos.State()), reducer: Todos().undoable())
/// store.send(.action(.add(id: 1, title: "milk")))
/// store.send(.undo)
/// ```
///
/// ## Which actions make steps
/// Every base action that changes the state is one step, labelled by the options' `label`,
/// unless:
/// - `recording` returns `false` for it. Its change is kept and is *not* reverted by a later
///   undo: the present simply moves on without a step (the change is absorbed, as
///   ``UndoableState/absorb(_:)`` absorbs a change from elsewhere). Undo and redo then take
///   back only the recorded changes, around it. Where a recorded step wrote a location the
///   ignored change wrote since, the options' `conflictPolicy` decides: by default undo
///   leaves that location as it is and reverts the rest of the step
///   (``UndoableState/lastConflicts`` lists what it left), so undo never jams; with
///   `ConflictPolicy.refuse` nothing changes, the step stays, and ``UndoableState/error``
///   says so. An ignored action does not end an open group: a drag with pointer moves
///   between its updates is one step.
/// - It joins the previous step: it has the same non-`nil` key from `groupingBy` as the
///   previous recorded action (typing into one field), and, if `debounceInterval` is set,
///   comes less than that interval after it; or, without `groupingBy`, it comes less than
///   `debounceInterval` after the previous recorded action. An action whose key is `nil` is
///   always a step of its own, and `.stopGrouping` ends a group early.
///
/// An action that changes nothing makes no step; a transaction is always a step of its own.
/// Actions sent by the base reducer's effects come back as `.action(_)` and are recorded like
/// any other: an effect's response the user should not undo (a server's answer, a sync) is
/// left out by `recording`, and undo then leaves it in place.
///
/// ## Recorded as the trees are written
/// A `TreeArray` at a stored property of the state is recorded as the base reducer writes it:
/// the history lets go of its own copy of the tree while the reducer runs, so the reducer
/// writes in place, and the tree's first write (an element by index or id, an insert, a
/// removal) is the step, without comparing the two versions. A run that does more (two writes
/// to one tree, a tree assigned anew, another property changed too, a step that may join a
/// group) is compared instead, with the version before the run that the history kept for it.
/// The steps are the same either way.
///
/// ## Authors
/// With the options' `author`, each step records who made it, and `.undo(by:)` takes back the
/// newest step of one author only, leaving every other author's later steps in place (see
/// `HistoryCommand/undoByAuthor(_:)`).
public struct Undoable<Base: Reducer>: Reducer where Base.State: Versionable & Sendable {

    public typealias State = UndoableState<Base.State>
    public typealias Action = UndoableAction<Base.Action>

    // Visible to clients so that `reduce` and the recording below it specialize for the
    // client's state where the store is made (see `Store.reduce`).
    @usableFromInline let base: Base
    @usableFromInline let options: UndoableOptions<Base.Action>

    /// Wraps `base`, recording steps as `options` say.
    public init(_ base: Base, options: UndoableOptions<Base.Action> = UndoableOptions()) {
        self.base = base
        self.options = options
    }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        apply(action, to: &state).map(Action.action)
    }

    /// Reduces one undoable action and returns the base effects it produced.
    @inlinable
    func apply(_ action: Action, to state: inout State) -> Effect<Base.Action> {
        switch action {
        case let .action(action):
            return record(action, in: &state)
        case let .transaction(actions):
            return recordTransaction(actions, in: &state)
        case let .history(command):
            perform(command, on: &state)
            return .none
        }
    }

    /// Runs a history command; the history keeps the error of a refusal.
    @inlinable
    func perform(_ command: HistoryCommand, on state: inout State) {
        // A write nothing recorded yet is someone else's: absorbed, so the steps undo
        // around it (under the options' conflict policy) and never take it back.
        state.engine.recordWithoutTracking(state.present, comparing: versionedDifference)
        // The history's own copy holds exactly the bytes its steps check (the present may
        // spell a string differently yet equally): it becomes the present first, and the
        // command then changes the present in place, the history's copy released meanwhile.
        state.storedPresent = state.engine.current
        state.engine.perform(command, on: &state.storedPresent, policy: options.policy)
    }

    @inlinable
    func record(_ action: Base.Action, in state: inout State) -> Effect<Base.Action> {
        let isRecorded = options.recording(action)
        if isRecorded, let lentTrees = state.engine.lendTrees(to: state.present, policy: options.policy) {
            // The run writes the present's trees in place, each write journaled.
            let effect = base.reduce(into: &state.storedPresent, action: action)
            state.engine.record(
                state.present,
                lentTrees: lentTrees,
                annotation: StepRecord(label: options.label(action), actions: [action]),
                grouping: options.grouping(of: action),
                author: options.author?(action),
                policy: options.policy
            )
            return effect
        }
        let effect = base.reduce(into: &state.storedPresent, action: action)
        if isRecorded {
            state.engine.record(
                state.present,
                annotation: StepRecord(label: options.label(action), actions: [action]),
                grouping: options.grouping(of: action),
                author: options.author?(action),
                policy: options.policy,
                comparing: versionedDifference
            )
        } else {
            state.engine.recordWithoutTracking(state.present, comparing: versionedDifference)
        }
        return effect
    }

    @inlinable
    func recordTransaction(_ actions: [Base.Action], in state: inout State) -> Effect<Base.Action> {
        var effects: [Effect<Base.Action>] = []
        for action in actions {
            effects.append(base.reduce(into: &state.storedPresent, action: action))
        }
        state.engine.record(
            state.present,
            annotation: StepRecord(label: actions.lazy.compactMap(options.label).first, actions: actions),
            changeCount: actions.count,
            grouping: .alone,
            author: options.author.flatMap { author in actions.lazy.compactMap(author).first },
            policy: options.policy,
            comparing: versionedDifference
        )
        return .merge(effects)
    }
}

extension Reducer where State: Versionable & Sendable {

    /// Wraps this reducer so undo, redo, scopes, tags, transactions and history clearing are
    /// actions (``UndoableAction``) and its state carries its history (``UndoableState``).
    ///
    /// ```swift
    /// let reducer = Todos().undoable(UndoableOptions(historyLimit: 100, label: { $0.label }))
    /// ```
    public func undoable(_ options: UndoableOptions<Action> = UndoableOptions()) -> Undoable<Self> {
        Undoable(self, options: options)
    }
}
