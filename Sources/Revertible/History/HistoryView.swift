/// A read-only look at one history: its counts, scopes, tags, steps and tree, the same
/// answers whichever front door it comes from (`controller.history`, `$property.history`,
/// `state.history` of an undoable reducer).
///
/// ```swift
/// let controller = ValueVersioningController("Hello")
/// controller.append("Hello, world")
/// controller.tag("greeting")
/// let history = controller.history
/// // history.undoCount == 1, history.currentVersionTags == ["greeting"]
/// ```
///
/// A view is a snapshot: it holds a copy of the history (copy-on-write, so taking one costs
/// no copy of its steps), and later changes to the history never change a view already taken.
/// Its questions are ``HistoryReading``'s, answered once for the view and every front door
/// alike: `controller.hasUndo` is `controller.history.hasUndo`.
public struct HistoryView<Value: Revertible> {

    /// The history read: a `History` of the front door's own step annotation, which the
    /// view's type does not name.
    let base: any HistoryReading<Value>

    package init<Annotation>(_ history: History<Value, Annotation>) {
        base = history
    }

    /// The view itself: a view answers its questions as every front door does.
    public var history: HistoryView<Value> { self }
}

extension HistoryView: HistoryReading {}

/// Sound: `base` is always a `History` (the only initializer takes one), whose annotation is
/// `Sendable` and which is `Sendable` when its value is; the view never mutates it.
extension HistoryView: @unchecked Sendable where Value: Sendable {}

/// The history answers every question itself, under the protocol's names; the view only
/// hides its annotation type. Each requirement needs a witness here or in `History`'s own
/// files: the protocol's default would ask the view, which would ask this history again.
extension History: HistoryReading {
    @usableFromInline
    package var history: HistoryView<Value> { HistoryView(self) }
    @usableFromInline
    package var error: HistoryError? { lastError }
    @usableFromInline
    package var nextUndoLabel: String? { nextUndo?.annotation.label }
    @usableFromInline
    package var nextRedoLabel: String? { nextRedo?.annotation.label }

    @usableFromInline
    package func tags() -> (undo: [HistoryTag?], redo: [HistoryTag?]) {
        tags(inScopeLevel: scopeLevel)!
    }

    @usableFromInline
    package func steps() -> (undo: [HistoryStep], redo: [HistoryStep]) {
        steps(inScopeLevel: scopeLevel)!
    }
}

/// A type that reads one history through a ``HistoryView``: `VersioningController` (so
/// `@Versioned`'s projected value) and the undoable reducer's `UndoableState`. It answers
/// every question of the view under the view's name (`controller.hasUndo`), by default by
/// asking its ``history``: a question is answered in one place, and every front door has it.
///
/// The answers are requirements, so generic code and tests see a conforming type's own
/// answer, if it ever gave one.
public protocol HistoryReading<Value> {
    /// The type of the versions the history holds.
    associatedtype Value: Revertible
    /// The history, as it is now.
    var history: HistoryView<Value> { get }

    /// Whether there is a step to undo in the current scope.
    var hasUndo: Bool { get }
    /// Whether there is a step to redo in the current scope.
    var hasRedo: Bool { get }
    /// How many steps can be undone in the current scope.
    var undoCount: Int { get }
    /// How many steps can be redone in the current scope.
    var redoCount: Int { get }
    /// The current scope, `0` for the outermost.
    var scopeLevel: Int { get }
    /// Why the last history command (an undo, a redo, a scope or tag operation) was refused,
    /// or `nil` once one succeeds.
    var error: HistoryError? { get }
    /// The locations the last undo, redo or move found changed by another writer, with what
    /// the step expected there and what was found; empty when it found none, or when the
    /// move reverted everything. A refusal (``ConflictPolicy/refuse``) lists its conflicts in
    /// ``error`` instead.
    var lastConflicts: [ReversionConflict] { get }
    /// The label of the step the next undo would take back ("Add “milk”"), if it has one.
    /// Steps have labels where the front door gives them (the undoable reducer's `label`).
    var nextUndoLabel: String? { get }
    /// The label of the step the next redo would replay, if it has one.
    var nextRedoLabel: String? { get }
    /// The identifier of the current version.
    var currentVersionID: HistoryVersion { get }
    /// The tags of the current version, oldest first.
    var currentVersionTags: [HistoryTag] { get }
    /// Every tag of `version`, oldest first (``tags()`` shows only the newest of each
    /// version); empty for a version without tags or one the history does not hold.
    func tags(of version: HistoryVersion) -> [HistoryTag]
    /// The tags of the current scope's versions, `nil` where a version has none: `undo` lists
    /// the versions from the scope's start up to the current one, `redo` the versions ahead,
    /// next first. For example `(["original", nil, "without-child"], ["with-child"])`.
    func tags() -> (undo: [HistoryTag?], redo: [HistoryTag?])
    /// The tags of the versions of the scope at `level`, or `nil` if there is no such scope.
    func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])?
    /// Where the version tagged `tag` is, seen from the present: `.present` for a document
    /// saved at the version tagged `"saved"`, say.
    func location(of tag: some Hashable & Sendable) -> HistoryTagLocation
    /// The steps of the current scope, with labels, change counts, tags and times: `undo`
    /// oldest first, `redo` next first.
    func steps() -> (undo: [HistoryStep], redo: [HistoryStep])
    /// The steps of the scope at `level`, or `nil` if there is no such scope.
    func steps(inScopeLevel level: Int) -> (undo: [HistoryStep], redo: [HistoryStep])?
    /// The steps that leave `version` in the current scope: more than one where a change
    /// after an undo started a branch. Redo follows the last.
    func branches(from version: HistoryVersion) -> [HistoryStep]
    /// Every step of the current scope, in the order they were made; each step's `parent`
    /// links it into the tree of versions.
    func tree() -> [HistoryStep]
    /// Every step of the scope at `level`, in the order they were made (branches off undo's
    /// and redo's way included), or `nil` if there is no such scope.
    func tree(inScopeLevel level: Int) -> [HistoryStep]?
    /// The history without the current version, for saving (it is `Codable` when `Value`
    /// is): the whole archive, or ``HistoryArchive/changes(since:)`` after each change.
    /// Encodes nothing. Loading checks it against the current version, saved beside it.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    var archive: HistoryArchive<Value> { get }
}

/// Every answer, given once: the history's own, asked through the view.
extension HistoryReading {
    public var hasUndo: Bool { history.base.hasUndo }
    public var hasRedo: Bool { history.base.hasRedo }
    public var undoCount: Int { history.base.undoCount }
    public var redoCount: Int { history.base.redoCount }
    public var scopeLevel: Int { history.base.scopeLevel }
    public var error: HistoryError? { history.base.error }
    public var lastConflicts: [ReversionConflict] { history.base.lastConflicts }
    public var nextUndoLabel: String? { history.base.nextUndoLabel }
    public var nextRedoLabel: String? { history.base.nextRedoLabel }
    public var currentVersionID: HistoryVersion { history.base.currentVersionID }
    public var currentVersionTags: [HistoryTag] { history.base.currentVersionTags }
    public func tags(of version: HistoryVersion) -> [HistoryTag] { history.base.tags(of: version) }
    public func tags() -> (undo: [HistoryTag?], redo: [HistoryTag?]) { history.base.tags() }
    public func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])? {
        history.base.tags(inScopeLevel: level)
    }
    public func location(of tag: some Hashable & Sendable) -> HistoryTagLocation { history.base.location(of: tag) }
    public func steps() -> (undo: [HistoryStep], redo: [HistoryStep]) { history.base.steps() }
    public func steps(inScopeLevel level: Int) -> (undo: [HistoryStep], redo: [HistoryStep])? {
        history.base.steps(inScopeLevel: level)
    }
    public func branches(from version: HistoryVersion) -> [HistoryStep] { history.base.branches(from: version) }
    public func tree() -> [HistoryStep] { history.base.tree() }
    public func tree(inScopeLevel level: Int) -> [HistoryStep]? { history.base.tree(inScopeLevel: level) }
    public var archive: HistoryArchive<Value> { history.base.archive }
}
