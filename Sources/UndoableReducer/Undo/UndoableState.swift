import Revertible

/// The state of a reducer wrapped by `undoable`: the base state (``present``) and its undo
/// history (``history``), read in the same words as `VersioningController`'s: both are a
/// `HistoryReading`.
///
/// History memory is the diff of each step, not a copy of the state: a step that edits one
/// title of a ten-thousand-item list keeps that title's change. It has value semantics:
/// copying it and sending actions to one copy never changes the other's history.
public struct UndoableState<State: Versionable & Sendable>: Sendable {

    /// The current state.
    ///
    /// Kept apart from the history's own copy of it, so that a base action mutates it in place
    /// (no copy-on-write copy of its collections) and recording costs the comparison alone.
    public internal(set) var present: State {
        @inlinable get { storedPresent }
        _modify { yield &storedPresent }
        set { storedPresent = newValue }
    }
    /// The storage of ``present``: the undoable reducer, inlined into clients, writes it in
    /// place, and a public property with an internal setter cannot be `@usableFromInline`.
    @usableFromInline var storedPresent: State
    /// The history; read it through ``history``.
    @usableFromInline var engine: History<State, StepRecord>

    /// Starts with `present` and an empty history.
    public init(_ present: State) {
        storedPresent = present
        engine = History(present)
    }

    /// The history as it is now: counts, tags, steps, the tree. The state answers each of
    /// its questions directly too (``hasUndo``, ``tags()``, ...; see `HistoryReading`).
    public var history: HistoryView<State> { HistoryView(engine) }

    /// Makes `value` the present without an undo step: a change from elsewhere (a sync, a
    /// database, another window). Undo and redo leave it in place: they revert only the
    /// locations where a step's change is still there, and skip the others (see
    /// ``UndoableOptions/conflictPolicy``).
    public mutating func absorb(_ value: State) {
        present = value
        engine.recordWithoutTracking(value, comparing: versionedDifference)
    }
}

extension UndoableState: HistoryReading {}

/// Two undoable states are equal when their presents are, and their histories look the same
/// from outside: the same scopes, steps (labels, change counts, tags, authors) and tags, and the same
/// error. Step times are not compared.
extension UndoableState: Equatable where State: Equatable {

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.present == rhs.present, lhs.error == rhs.error, lhs.scopeLevel == rhs.scopeLevel else { return false }
        return (0...lhs.scopeLevel).allSatisfy { level in
            lhs.comparableSteps(inScopeLevel: level) == rhs.comparableSteps(inScopeLevel: level)
                && lhs.tags(inScopeLevel: level)! == rhs.tags(inScopeLevel: level)!
        }
    }

    /// The steps with what `==` leaves out cleared: their times and versions.
    private func comparableSteps(inScopeLevel level: Int) -> [[HistoryStep]] {
        let steps = steps(inScopeLevel: level)!
        return [steps.undo, steps.redo].map {
            $0.map { step in
                var step = step
                step.time = .zero
                step.version = HistoryVersion(0)
                step.parent = HistoryVersion(0)
                return step
            }
        }
    }
}

/// What the undoable reducer remembers about each step: its label, and the base actions that
/// made it, so a history can be replayed (see ``UndoableReplay``).
@usableFromInline
struct StepRecord: HistoryAnnotation {
    @usableFromInline var label: String?
    /// The step's base actions, in order (type-erased, so `UndoableState` needs no `Action`
    /// parameter).
    @usableFromInline var actions: [any Sendable]

    @usableFromInline
    init(label: String?, actions: [any Sendable]) {
        self.label = label
        self.actions = actions
    }

    /// A loaded step has its label and no actions to replay.
    @usableFromInline
    init(savedLabel label: String?) {
        self.init(label: label, actions: [])
    }

    @usableFromInline
    func merged(with later: StepRecord) -> StepRecord {
        StepRecord(label: label ?? later.label, actions: actions + later.actions)
    }
}
