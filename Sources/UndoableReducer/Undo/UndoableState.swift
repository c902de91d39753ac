import Revertible

/// The state of a reducer wrapped by `undoable`: the base state (``present``) and its undo
/// history, read in the same words as `VersioningController`'s.
///
/// History memory is the diff of each step, not a copy of the state: a step that edits one
/// title of a ten-thousand-item list keeps that title's change. It has value semantics:
/// copying it and sending actions to one copy never changes the other's history.
public struct UndoableState<State: Versionable & Sendable>: Sendable {

    /// The current state.
    ///
    /// Kept apart from the history's own copy of it, so that a base action mutates it in place
    /// (no copy-on-write copy of its collections) and recording costs the comparison alone.
    public internal(set) var present: State
    var history: History<State, StepRecord>

    /// Starts with `present` and an empty history.
    public init(_ present: State) {
        self.present = present
        history = History(present)
    }

    /// Whether there is a step to undo in the current scope.
    public var hasUndo: Bool { history.hasUndo }
    /// Whether there is a step to redo in the current scope.
    public var hasRedo: Bool { history.hasRedo }
    /// How many steps can be undone in the current scope.
    public var undoCount: Int { history.undoCount }
    /// How many steps can be redone in the current scope.
    public var redoCount: Int { history.redoCount }
    /// The current scope, `0` for the outermost.
    public var scopeLevel: Int { history.scopeLevel }
    /// Why the last history command was refused, or `nil` once one succeeds.
    public var error: HistoryError? { history.lastError }
    /// The locations the last undo or redo left as something else had set them (or wrote
    /// over, under `ConflictPolicy.overwrite`): written since the step by an action that
    /// was not recorded, ``absorb(_:)`` or another author. Empty when the move reverted
    /// everything.
    public var lastConflicts: [ReversionConflict] { history.lastConflicts }

    /// Makes `value` the present without an undo step: a change from elsewhere (a sync, a
    /// database, another window). Undo and redo leave it in place: they revert only the
    /// locations where a step's change is still there, and skip the others (see
    /// ``UndoableOptions/conflictPolicy``).
    public mutating func absorb(_ value: State) {
        present = value
        history.recordWithoutTracking(value)
    }

    /// The label of the step the next undo would take back ("Add “milk”"), if it has one.
    public var nextUndoLabel: String? { history.nextUndo?.annotation.label }
    /// The label of the step the next redo would replay, if it has one.
    public var nextRedoLabel: String? { history.nextRedo?.annotation.label }

    /// The tags of the current scope's versions, `nil` where untagged: `undo` from the
    /// scope's start to the present, `redo` the versions ahead, next first.
    public func tags() -> (undo: [HistoryTag?], redo: [HistoryTag?]) {
        history.tags(inScopeLevel: history.scopeLevel)!
    }

    /// The tags of the versions of the scope at `level`, or `nil` if there is no such scope.
    public func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])? {
        history.tags(inScopeLevel: level)
    }

    /// The tags of the present, oldest first.
    public var currentVersionTags: [HistoryTag] { history.currentTags }

    /// Every tag of `version`, oldest first (``tags()`` shows only the newest of each
    /// version); empty for a version without tags or one the history does not hold.
    public func tags(of version: HistoryVersion) -> [HistoryTag] {
        history.tags(of: version)
    }

    /// Where the version tagged `tag` is, seen from the present.
    public func location(of tag: some Hashable & Sendable) -> HistoryTagLocation {
        history.location(of: HistoryTag(tag))
    }

    /// The steps of the current scope, with labels, change counts, tags and times: `undo`
    /// oldest first, `redo` next first.
    public func steps() -> (undo: [HistoryStep], redo: [HistoryStep]) {
        history.steps(inScopeLevel: history.scopeLevel)!
    }

    /// The steps of the scope at `level`, or `nil` if there is no such scope.
    public func steps(inScopeLevel level: Int) -> (undo: [HistoryStep], redo: [HistoryStep])? {
        history.steps(inScopeLevel: level)
    }

    /// The identifier of the present's version.
    public var currentVersionID: HistoryVersion { history.currentVersionID }

    /// The steps that leave `version` in the current scope; redo follows the last.
    public func branches(from version: HistoryVersion) -> [HistoryStep] {
        history.branches(from: version)
    }

    /// Every step of the current scope, in the order they were made.
    public func tree() -> [HistoryStep] {
        history.tree()
    }

    /// Every step of the scope at `level`, in the order they were made, or `nil` if there is
    /// no such scope; for the testing module, which shows every branch of every scope.
    package func tree(inScopeLevel level: Int) -> [HistoryStep]? {
        history.tree(inScopeLevel: level)
    }
}

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

    private func comparableSteps(inScopeLevel level: Int) -> [[HistoryStep]] {
        let steps = steps(inScopeLevel: level)!
        return [steps.undo, steps.redo].map { $0.map { HistoryStep(label: $0.label, changeCount: $0.changeCount, tags: $0.tags, author: $0.author) } }
    }
}

/// What the undoable reducer remembers about each step: its label, and the base actions that
/// made it, so a history can be replayed (see ``UndoableReplay``).
struct StepRecord: HistoryAnnotation {
    var label: String?
    /// The step's base actions, in order (type-erased, so `UndoableState` needs no `Action`
    /// parameter).
    var actions: [any Sendable]

    init(label: String?, actions: [any Sendable]) {
        self.label = label
        self.actions = actions
    }

    /// A loaded step has its label and no actions to replay.
    init(savedLabel label: String?) {
        self.init(label: label, actions: [])
    }

    func merged(with later: StepRecord) -> StepRecord {
        StepRecord(label: label ?? later.label, actions: actions + later.actions)
    }
}
