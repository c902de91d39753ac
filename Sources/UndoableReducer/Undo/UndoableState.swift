import Revertible

/// The state of a reducer wrapped by `undoable`: the base state (``present``) and its undo
/// history.
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
    /// The grouping key and time of the last recorded action, to decide whether the next one
    /// joins its step.
    var lastGroup: GroupMark?

    /// The error of the last history command that failed, or `nil` once one succeeds.
    public internal(set) var lastError: ReversionError?

    /// Starts with `present` and an empty history.
    public init(_ present: State) {
        self.present = present
        history = History(present, limit: nil)
    }

    /// Whether there is a step to undo in the current scope.
    public var canUndo: Bool { history.canUndo }
    /// Whether there is a step to redo in the current scope.
    public var canRedo: Bool { history.canRedo }
    /// How many steps can be undone in the current scope.
    public var undoCount: Int { history.undoCount }
    /// How many steps can be redone in the current scope.
    public var redoCount: Int { history.redoCount }
    /// The current scope, `0` for the outermost.
    public var scopeLevel: Int { history.scopeLevel }

    /// The label of the step the next undo would take back ("Add “milk”"), if it has one.
    public var nextUndoLabel: String? { history.nextUndo?.annotation.label }
    /// The label of the step the next redo would replay, if it has one.
    public var nextRedoLabel: String? { history.nextRedo?.annotation.label }

    /// The labels of the current scope's steps: `undo` oldest first, `redo` next first.
    public var labels: (undo: [String?], redo: [String?]) {
        let scope = history.scopes[history.scopeLevel]
        return (scope.undo.map(\.annotation.label), scope.redo.reversed().map(\.annotation.label))
    }

    /// The tags of a scope's versions, `nil` where untagged: `undo` from the scope's start to
    /// the present, `redo` the versions ahead, next first.
    ///
    /// - Parameter level: The scope, by default the current one.
    public func tags(inScopeLevel level: Int? = nil) -> (undo: [AnyHashable?], redo: [AnyHashable?]) {
        history.tags(inScopeLevel: level ?? history.scopeLevel)
    }
}

/// Two undoable states are equal when their presents are, and their histories look the same
/// from outside: the same scopes, step counts, labels and tags, and the same last error.
extension UndoableState: Equatable where State: Equatable {

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.present == rhs.present, lhs.lastError == rhs.lastError,
              lhs.history.scopes.count == rhs.history.scopes.count
        else { return false }
        return lhs.history.scopes.indices.allSatisfy { level in
            let (left, right) = (lhs.history.scopes[level], rhs.history.scopes[level])
            return left.undo.map(\.annotation.label) == right.undo.map(\.annotation.label)
                && left.redo.map(\.annotation.label) == right.redo.map(\.annotation.label)
                && lhs.tags(inScopeLevel: level) == rhs.tags(inScopeLevel: level)
        }
    }
}

/// What the undoable reducer remembers about each step: its label, and the base actions that
/// made it, so a history can be replayed (see ``UndoableReplay``).
struct StepRecord: HistoryAnnotation {
    var label: String?
    /// The step's base actions, in order (type-erased, so `UndoableState` needs no `Action`
    /// parameter).
    var actions: [any Sendable]

    func merged(with later: StepRecord) -> StepRecord {
        StepRecord(label: label ?? later.label, actions: actions + later.actions)
    }
}

/// The grouping key and time of the last recorded action.
struct GroupMark: Sendable {
    var key: HistoryTag?
    var time: Duration?
}
