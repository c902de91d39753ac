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
///
/// By default steps are stated by label, change count and tags. A store made with
/// `stating: .all` (or some of ``Details``) also holds each step's version identifiers and
/// time, the present's version, and the branches a change after an undo left:
///
/// ```swift
/// let store = TestStore(initialState: UndoableState(Todos.State()), reducer: reducer, stating: .all)
/// await store.send(.action(.add(id: 1, title: "milk"))) {
///     $0.present.items = [Todo(id: 1, title: "milk")]
///     $0.undo = [.init("Add “milk”", version: HistoryVersion(1), parent: HistoryVersion(0), time: .zero)]
///     $0.currentVersionID = HistoryVersion(1)
/// }
/// ```
public struct UndoableTestState<State: Versionable & Sendable>: Sendable {
    /// The current state.
    public var present: State
    /// The history's scopes, outermost first; the last is the current one.
    public var scopes: [Scope]
    /// Why the last history command was refused, or `nil` once one succeeds.
    public var error: HistoryError?
    /// The locations the last history command found changed by another writer (the state's
    /// `lastConflicts`): left as they were under the default `.skip`, overwritten, or, for a
    /// refusal, also in ``error``; empty when it found none. Stated like ``error``, so a test
    /// of the default policy says what an undo skipped.
    public var lastConflicts: [ReversionConflict] = []
    /// The present's version identifier, with ``Details/versions``; `nil` otherwise.
    public var currentVersionID: HistoryVersion?

    /// What a test states of the history beyond labels, change counts and tags: each detail
    /// asked for must be stated, and one not asked for is `nil` (or empty) throughout.
    ///
    /// Authors are a detail too (``authors``), so tests written before steps had authors
    /// keep their meaning.
    public struct Details: OptionSet, Hashable, Sendable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Each step's version and parent version, and the present's version.
        public static var versions: Details { Details(rawValue: 1 << 0) }
        /// When each step was recorded (`HistoryStep.time`): use a `TestClock`.
        public static var times: Details { Details(rawValue: 1 << 1) }
        /// The steps on neither undo's nor redo's way: branches a change after an undo left.
        public static var branches: Details { Details(rawValue: 1 << 2) }
        /// Who made each step (the undoable options' `author`).
        public static var authors: Details { Details(rawValue: 1 << 3) }
        /// Every detail.
        public static var all: Details { [.versions, .times, .branches, .authors] }
    }

    /// The state and history of `state`: labels, change counts and tags, and `details` too.
    public init(_ state: UndoableState<State>, stating details: Details = []) {
        present = state.present
        let history = state.history
        scopes = (0...history.scopeLevel).map { level in
            let steps = history.steps(inScopeLevel: level)!
            let tags = history.tags(inScopeLevel: level)!
            var branches: [Step] = []
            if details.contains(.branches) {
                let onTheWay = Set((steps.undo + steps.redo).map(\.version))
                branches = history.tree(inScopeLevel: level)!.filter { !onTheWay.contains($0.version) }.map { Step($0, stating: details) }
            }
            return Scope(
                startTag: tags.undo.first.flatMap { $0 },
                undo: steps.undo.map { Step($0, stating: details) },
                redo: steps.redo.map { Step($0, stating: details) },
                branches: branches
            )
        }
        error = history.error
        lastConflicts = history.lastConflicts
        currentVersionID = details.contains(.versions) ? history.currentVersionID : nil
    }

    /// One scope of the history.
    public struct Scope: Hashable, Sendable {
        /// The tag of the version the scope starts from, if it has one.
        public var startTag: HistoryTag?
        /// The steps that can be undone, oldest first.
        public var undo: [Step]
        /// The steps that can be redone, next first.
        public var redo: [Step]
        /// With ``Details/branches``: the scope's other steps, in the order they were made
        /// (those a change after an undo left, a move through the tree reaches them); empty
        /// otherwise.
        public var branches: [Step]

        /// A scope with these steps.
        public init(startTag: HistoryTag? = nil, undo: [Step] = [], redo: [Step] = [], branches: [Step] = []) {
            self.startTag = startTag
            self.undo = undo
            self.redo = redo
            self.branches = branches
        }
    }

    /// One step of the history: a string literal is a step of one change with that label.
    /// Its versions and time are `nil` unless the store states them (``Details``).
    public struct Step: Hashable, Sendable, ExpressibleByStringLiteral {
        /// The step's label (the undoable options' `label`), if it has one.
        public var label: String?
        /// How many recorded changes the step holds: more than one for a group, a
        /// transaction or a popped scope.
        public var changeCount: Int
        /// The tags of the version the step leads to, oldest first.
        public var tags: [HistoryTag]
        /// With ``Details/versions``: the version the step leads to.
        public var version: HistoryVersion?
        /// With ``Details/versions``: the version the step starts from.
        public var parent: HistoryVersion?
        /// With ``Details/times``: when the step was recorded.
        public var time: Duration?
        /// With ``Details/authors``: who made the step, if anyone is named.
        public var author: HistoryAuthor?

        /// A step description; leave out what the store does not state.
        public init(
            _ label: String? = nil,
            changeCount: Int = 1,
            tags: [HistoryTag] = [],
            version: HistoryVersion? = nil,
            parent: HistoryVersion? = nil,
            time: Duration? = nil,
            author: HistoryAuthor? = nil
        ) {
            self.label = label
            self.changeCount = changeCount
            self.tags = tags
            self.version = version
            self.parent = parent
            self.time = time
            self.author = author
        }

        /// A step of one change labelled `label`.
        public init(stringLiteral label: String) {
            self.init(label)
        }

        init(_ step: HistoryStep, stating details: Details) {
            let versions = details.contains(.versions)
            self.init(
                step.label,
                changeCount: step.changeCount,
                tags: step.tags,
                version: versions ? step.version : nil,
                parent: versions ? step.parent : nil,
                time: details.contains(.times) ? step.time : nil,
                author: details.contains(.authors) ? step.author : nil
            )
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

    /// With ``Details/branches``: the current scope's steps on neither undo's nor redo's way,
    /// in the order they were made.
    public var branches: [Step] {
        get { currentScope.branches }
        set { currentScope.branches = newValue }
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

    /// A test store of an undoable reducer (`undoable(_:)` or any reducer whose
    /// state is an `UndoableState`), asserted through ``UndoableTestState``, so expectation
    /// closures state the history too.
    ///
    /// - Parameters:
    ///   - initialState: The state before the first action, with its history.
    ///   - reducer: The reducer under test.
    ///   - details: What the test states of the history beyond labels, change counts and
    ///     tags: ``UndoableTestState/Details/versions``, ``UndoableTestState/Details/times``,
    ///     ``UndoableTestState/Details/branches``, ``UndoableTestState/Details/authors``, or
    ///     ``UndoableTestState/Details/all``.
    ///   - reporter: Where failures go: the running test framework by default.
    ///   - fileID: The file where a failure at the end of the test (an action not received,
    ///     an effect still running) is reported: the caller's, by default.
    ///   - filePath: The path of that file, which XCTest reports.
    ///   - line: The line of that report: the caller's, by default.
    ///   - column: The column of that report: the caller's, by default.
    public convenience init<Base: Versionable & Sendable & Equatable, R: Reducer<UndoableState<Base>, Action>>(
        initialState: UndoableState<Base>,
        reducer: R,
        stating details: UndoableTestState<Base>.Details = [],
        reportingFailuresTo reporter: TestFailureReporter = .automatic,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where State == UndoableTestState<Base> {
        self.init(
            root: initialState,
            reducer: reducer,
            view: { UndoableTestState($0, stating: details) },
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
            reportIssue: { message, site in reporter(TestFailure(message, at: site)) }
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

// Details a store does not state are left out of failure diffs, which then read as they did
// before details existed.

extension UndoableTestState: CustomReflectable {
    public var customMirror: Mirror {
        var children: [Mirror.Child] = [("present", present), ("scopes", scopes), ("error", error as Any)]
        if !lastConflicts.isEmpty { children.append(("lastConflicts", lastConflicts)) }
        if let currentVersionID { children.append(("currentVersionID", currentVersionID)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

extension UndoableTestState.Scope: CustomReflectable {
    public var customMirror: Mirror {
        var children: [Mirror.Child] = [("startTag", startTag as Any), ("undo", undo), ("redo", redo)]
        if !branches.isEmpty { children.append(("branches", branches)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

extension UndoableTestState.Step: CustomReflectable {
    public var customMirror: Mirror {
        var children: [Mirror.Child] = [("label", label as Any), ("changeCount", changeCount), ("tags", tags)]
        if let version { children.append(("version", version)) }
        if let parent { children.append(("parent", parent)) }
        if let time { children.append(("time", time)) }
        if let author { children.append(("author", author)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
