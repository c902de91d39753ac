import Revertible
import UndoableReducer

/// An `UndoableState` as a ``TestStore`` asserts it: the present, and the history as it looks
/// from outside (what `UndoableState`'s `==` compares), all of it settable, so an expectation
/// closure states how an action changed both.
///
/// ```swift
/// await store.send(.action(.add(id: 1, title: "milk"))) {
///     $0.present.items = [Todo(id: 1, title: "milk")]
///     $0.undo = ["Add “milk”"]
/// }
/// await store.send(.undo) {
///     $0.present.items = []
///     $0.undo = []
///     $0.redo = ["Add “milk”"]
/// }
/// ```
public struct UndoableTestState<State: Versionable & Sendable>: Sendable {
    /// The current state.
    public var present: State
    /// The history's scopes, outermost first; the last is the current one.
    public var scopes: [Scope]
    /// Why the last history command was refused, or `nil` once one succeeds.
    public var error: ReversionError?

    /// The state and history of `state`.
    public init(_ state: UndoableState<State>) {
        present = state.present
        scopes = (0...state.scopeLevel).map { level in
            let steps = state.steps(inScopeLevel: level)!
            let tags = state.tags(inScopeLevel: level)!
            return Scope(
                startTag: tags.undo.first.flatMap { $0 },
                undo: steps.undo.map(Step.init),
                redo: steps.redo.map(Step.init)
            )
        }
        error = state.error
    }

    /// One scope of the history.
    public struct Scope: Hashable, Sendable {
        /// The tag of the version the scope starts from, if it has one.
        public var startTag: HistoryTag?
        /// The steps that can be undone, oldest first.
        public var undo: [Step]
        /// The steps that can be redone, next first.
        public var redo: [Step]

        public init(startTag: HistoryTag? = nil, undo: [Step] = [], redo: [Step] = []) {
            self.startTag = startTag
            self.undo = undo
            self.redo = redo
        }
    }

    /// One step of the history, without its time: a string literal is a step of one change
    /// with that label.
    public struct Step: Hashable, Sendable, ExpressibleByStringLiteral {
        /// The step's label (the undoable options' `label`), if it has one.
        public var label: String?
        /// How many recorded changes the step holds: more than one for a group, a
        /// transaction or a popped scope.
        public var changeCount: Int
        /// The tags of the version the step leads to, oldest first.
        public var tags: [HistoryTag]

        public init(_ label: String? = nil, changeCount: Int = 1, tags: [HistoryTag] = []) {
            self.label = label
            self.changeCount = changeCount
            self.tags = tags
        }

        public init(stringLiteral label: String) {
            self.init(label)
        }

        init(_ step: HistoryStep) {
            self.init(step.label, changeCount: step.changeCount, tags: step.tags)
        }
    }

    /// The current scope.
    public var currentScope: Scope {
        get { scopes[scopes.count - 1] }
        set { scopes[scopes.count - 1] = newValue }
    }

    /// The steps of the current scope that can be undone, oldest first.
    public var undo: [Step] {
        get { currentScope.undo }
        set { currentScope.undo = newValue }
    }

    /// The steps of the current scope that can be redone, next first.
    public var redo: [Step] {
        get { currentScope.redo }
        set { currentScope.redo = newValue }
    }

    /// Whether there is a step to undo in the current scope.
    public var hasUndo: Bool { !undo.isEmpty }
    /// Whether there is a step to redo in the current scope.
    public var hasRedo: Bool { !redo.isEmpty }
    /// How many steps can be undone in the current scope.
    public var undoCount: Int { undo.count }
    /// How many steps can be redone in the current scope.
    public var redoCount: Int { redo.count }
    /// The current scope, `0` for the outermost.
    public var scopeLevel: Int { scopes.count - 1 }
    /// The label of the step the next undo would take back.
    public var nextUndoLabel: String? { undo.last?.label }
    /// The label of the step the next redo would replay.
    public var nextRedoLabel: String? { redo.first?.label }
}

extension UndoableTestState: Equatable where State: Equatable {}

extension TestStore {

    /// A test store of an undoable reducer (``Reducer/undoable(_:)`` or any reducer whose
    /// state is an `UndoableState`), asserted through ``UndoableTestState``, so expectation
    /// closures state the history too.
    public convenience init<Base: Versionable & Sendable & Equatable, R: Reducer<UndoableState<Base>, Action>>(
        initialState: UndoableState<Base>,
        reducer: R,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where State == UndoableTestState<Base> {
        self.init(
            root: initialState,
            reducer: reducer,
            view: { UndoableTestState($0) },
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
            reportIssue: reportTestFailure
        )
    }

    /// Checks, on a copy of the store's state, that undoing every step returns exactly to the
    /// initial state's present, and redoing those steps to the current present (steps that were
    /// already ahead, after an undo, are left). Scopes are
    /// popped first (squashed into one step each). Fails the test for a refused step or a
    /// present that differs.
    ///
    /// It holds when every change was recorded: a change the options' `recording` filter left
    /// out stays after undo, so the initial present does not come back.
    public func assertUndoRoundTrip<Base: Versionable & Sendable & Equatable>(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where State == UndoableTestState<Base> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let end = currentRoot() as? UndoableState<Base>, let initial = initialRoot as? UndoableState<Base> else { return }
        let history = Undoable(Reduce<Base, NoAction> { _, _ in .none })
        var state = end
        func run(_ command: UndoableAction<NoAction>) {
            _ = history.reduce(into: &state, action: command)
        }

        while state.scopeLevel > 0 {
            run(.popCurrentScope)
        }
        let steps = state.steps().undo
        for (offset, step) in steps.enumerated().reversed() {
            run(.undo)
            if let error = state.error {
                return reportIssue(Message.undoRefused("Undoing", step: steps.count - offset, of: steps.count, label: step.label, error: error), site)
            }
        }
        if state.present != initial.present {
            reportIssue(Message.undoDidNotReturn(expected: initial.present, actual: state.present), site)
        }
        // Redo the steps undone, not the ones that were already ahead of the end.
        let redo = state.steps().redo.prefix(steps.count)
        for (offset, step) in redo.enumerated() {
            run(.redo)
            if let error = state.error {
                return reportIssue(Message.undoRefused("Redoing", step: offset + 1, of: redo.count, label: step.label, error: error), site)
            }
        }
        if state.present != end.present {
            reportIssue(Message.redoDidNotReturn(expected: end.present, actual: state.present), site)
        }
    }
}

/// The base action of the reducer `assertUndoRoundTrip` runs history commands with; never sent.
private struct NoAction: Sendable {}
