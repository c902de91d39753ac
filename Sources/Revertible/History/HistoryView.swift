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
    let base: any HistoryReadable<Value>

    package init(_ history: some HistoryReadable<Value>) {
        base = history
    }

    /// The view itself: a view answers its questions as every front door does.
    public var history: HistoryView<Value> { self }
}

extension HistoryView: HistoryReading {}

/// Sound: `base` is always a `History` (the only `HistoryReadable`), whose annotation is
/// `Sendable` and which is `Sendable` when its value is; the view never mutates it.
extension HistoryView: @unchecked Sendable where Value: Sendable {}

/// A history of any step annotation, read by ``HistoryView``. `History` alone conforms: the
/// protocol only hides its annotation type from the view's.
package protocol HistoryReadable<Value> {
    associatedtype Value: Revertible
    var hasUndo: Bool { get }
    var hasRedo: Bool { get }
    var undoCount: Int { get }
    var redoCount: Int { get }
    var scopeLevel: Int { get }
    var lastError: ReversionError? { get }
    var lastConflicts: [ReversionConflict] { get }
    var nextUndoLabel: String? { get }
    var nextRedoLabel: String? { get }
    var currentVersionID: HistoryVersion { get }
    var currentTags: [HistoryTag] { get }
    func tags(of version: HistoryVersion) -> [HistoryTag]
    func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])?
    func location(of tag: HistoryTag) -> HistoryTagLocation
    func steps(inScopeLevel level: Int) -> (undo: [HistoryStep], redo: [HistoryStep])?
    func branches(from version: HistoryVersion) -> [HistoryStep]
    func tree(inScopeLevel level: Int) -> [HistoryStep]?
    var archive: HistoryArchive<Value> { get }
}

extension History: HistoryReadable {
    package var nextUndoLabel: String? { nextUndo?.annotation.label }
    package var nextRedoLabel: String? { nextRedo?.annotation.label }
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
    var error: ReversionError? { get }
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

/// Every answer, given once: read from the history the view holds.
extension HistoryReading {
    public var hasUndo: Bool { history.base.hasUndo }
    public var hasRedo: Bool { history.base.hasRedo }
    public var undoCount: Int { history.base.undoCount }
    public var redoCount: Int { history.base.redoCount }
    public var scopeLevel: Int { history.base.scopeLevel }
    public var error: ReversionError? { history.base.lastError }
    public var lastConflicts: [ReversionConflict] { history.base.lastConflicts }
    public var nextUndoLabel: String? { history.base.nextUndoLabel }
    public var nextRedoLabel: String? { history.base.nextRedoLabel }
    public var currentVersionID: HistoryVersion { history.base.currentVersionID }
    public var currentVersionTags: [HistoryTag] { history.base.currentTags }
    public func tags(of version: HistoryVersion) -> [HistoryTag] { history.base.tags(of: version) }
    public func tags() -> (undo: [HistoryTag?], redo: [HistoryTag?]) {
        let base = history.base
        return base.tags(inScopeLevel: base.scopeLevel)!
    }
    public func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])? {
        history.base.tags(inScopeLevel: level)
    }
    public func location(of tag: some Hashable & Sendable) -> HistoryTagLocation {
        history.base.location(of: HistoryTag(tag))
    }
    public func steps() -> (undo: [HistoryStep], redo: [HistoryStep]) {
        let base = history.base
        return base.steps(inScopeLevel: base.scopeLevel)!
    }
    public func steps(inScopeLevel level: Int) -> (undo: [HistoryStep], redo: [HistoryStep])? {
        history.base.steps(inScopeLevel: level)
    }
    public func branches(from version: HistoryVersion) -> [HistoryStep] { history.base.branches(from: version) }
    public func tree() -> [HistoryStep] {
        let base = history.base
        return base.tree(inScopeLevel: base.scopeLevel)!
    }
    public func tree(inScopeLevel level: Int) -> [HistoryStep]? { history.base.tree(inScopeLevel: level) }
    public var archive: HistoryArchive<Value> { history.base.archive }
}
