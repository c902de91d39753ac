// The history engine: this folder holds all of it. Archive/ saves and loads it, Storage/ holds
// a scope's tables; comparing two values lives apart, in Comparing/, and each kind of change
// in its node's own file (Changes/, TreeArray/, TextBuffer/).
//
// The three walks a reader most often needs:
//
// `store.send(.action(a))` (UndoableReducer): `Undoable.reduce` lends the present's
// `TreeArray`s to the run (`lendTrees`, History+LentTrees, with the lending walk beside the
// tree's node in TreeArray/), runs the base reducer on the present, then `record(_:lentTrees:)`
// takes the trees' changes from their journal. Either way `History.record` (History+Recording):
// `stamp` (History+Time), `joinsGroup` (History+Grouping); where the journal cannot vouch or
// nothing was lent, the comparison `versionedDifference` (Comparing/Versionable, the type's
// `addReversions` through `ReversionCollector`, each place's node); `advanceReference` moves
// the history's copy by the change; `appendStep` (History+Recording) adds the step to the
// current `HistoryScope` (Storage/), whose `HistoryStepTable` and `HistoryChildren` take it;
// `trim` (History+Limit); `checkInvariantsInDebugBuilds` (History+Invariants).
//
// `store.send(.undo)`, like every command: `History.perform` (History+Commands) ends the open
// group, sets the conflict policy, then `run` calls `undo(_:to:)` (History+Navigation):
// `steps(to:_:)` resolves the destination, `walk` takes each move, `apply` (History+Conflicts)
// reverts the step strictly (`mayRevertStrictly`) or else selectively under the policy, and
// `passNextStep` (Storage/HistoryScope) moves the scope; then `trim` and the invariant check.
//
// `controller.undo(by: author)`: `History.perform` and `run` as above, then `move(by:_:on:policy:)`
// (History+Authors): `authorTarget` finds the author's newest step not taken back, its
// reversion is applied selectively (Reversion+Selective and the nodes), the result is compared
// with the present (Comparing/) and added as a new step by `appendStep`, the one step-maker.

/// The undo and redo stacks of one tracked value: the one engine behind
/// ``VersioningController``, `@Versioned` and the undoable reducer.
///
/// A value type, so a copy's history never changes when the original moves on. It keeps its
/// own copy of the current version and, per step, only the reversion from one comparison,
/// applied backward to undo and forward to redo. Every version has an identifier; tags name
/// versions, so a version keeps its tags wherever it appears (as a step, or as the start of
/// a scope pushed on it).
///
/// Callers configure it per operation with a ``HistoryPolicy`` (limit and grouping), so the
/// policy lives in one place: the controller's settings or the reducer's options.
@usableFromInline
package struct History<Value: Revertible, Annotation: HistoryAnnotation> {

    /// The current version. `nil` only while a command runs on a value handed in by the
    /// caller, so that the caller's storage is uniquely referenced and mutates in place.
    @usableFromInline var reference: Value?
    /// The scopes, outermost first; never empty.
    @usableFromInline package internal(set) var scopes: [HistoryScope<Value, Annotation>]
    /// The open group of changes kept as one step, if any.
    @usableFromInline
    var group: OpenGroup?
    /// Tags and the versions they name, in the order they were given.
    package internal(set) var tagged: [(tag: HistoryTag, version: HistoryVersion)] = []
    /// The identifier the next new version gets.
    @usableFromInline var nextVersion = HistoryVersion(1)
    /// How clock readings become step times that never go backwards (see ``stamp(_:policy:)``).
    @usableFromInline var timeline = HistoryTimeline()
    /// The error of the last command that failed, or `nil` once one succeeds.
    @usableFromInline package var lastError: HistoryError?
    /// The locations the last command's moves found changed by another writer (see
    /// ``ConflictPolicy``); empty when it found none, or moved nothing.
    @usableFromInline package internal(set) var lastConflicts: [ReversionConflict] = []
    /// What the running command's moves do at a conflict: the command's policy, else the
    /// history policy's.
    @usableFromInline var conflictPolicy: ConflictPolicy = .skip
    /// Whether a change made without a step (``absorb(_:)``) ever moved this history's
    /// present: its steps may then no longer apply exactly, and an archive says so (see
    /// ``HistoryArchive/Outline``).
    @usableFromInline var hasAbsorbedWrites = false
    /// How many steps were recorded from the journal of a reducer's writes rather than by
    /// comparing versions (`record(_:lentTrees:...)`): what the differential tests check
    /// they exercised.
    @usableFromInline package var journaledStepCount = 0
    /// The store the history reads its steps from, if it was opened over one.
    var storage: HistoryStorage<Value, Annotation>?

    package init(_ value: Value) {
        reference = value
        scopes = [HistoryScope(floor: HistoryVersion(0))]
    }

    /// The current version: the last one recorded, undone to or redone to.
    @inlinable
    package var current: Value {
        reference!
    }

    @inlinable
    var top: Int { scopes.count - 1 }

    @usableFromInline
    package var scopeLevel: Int { top }
    @inlinable
    package var undoCount: Int { scopes[top].undoCount }
    @inlinable
    package var redoCount: Int { scopes[top].redoCount }
    @usableFromInline
    package var hasUndo: Bool { undoCount > 0 }
    @usableFromInline
    package var hasRedo: Bool { scopes[top].children[currentVersionID] != nil }
    package var nextUndo: RecordedStep<Value, Annotation>? { scopes[top].currentStep }
    package var nextRedo: RecordedStep<Value, Annotation>? { scopes[top].nextStep(.forward) }

    /// The identifier of the current version.
    @usableFromInline
    package var currentVersionID: HistoryVersion { scopes[top].current }

    /// A new version identifier.
    @inlinable
    mutating func makeVersionID() -> HistoryVersion {
        defer { nextVersion.rawValue += 1 }
        return nextVersion
    }

    /// Forgets every step and tag in every scope, and every scope but the outermost; the
    /// current version stays.
    @usableFromInline
    mutating func removeAllVersions() {
        group = nil
        hasAbsorbedWrites = false
        tagged = []
        for (level, scope) in scopes.enumerated() { retire(scope, level: level) }
        // Kept in memory until saved: the store still holds the forgotten steps.
        scopes = [HistoryScope(floor: makeVersionID())]
    }
}

/// A step's extra description (a label and the actions that made it, say), merged when steps
/// are squashed into one.
@usableFromInline
package protocol HistoryAnnotation: Sendable {
    /// The annotation of one step made of a step annotated `self` followed by one annotated
    /// `later`.
    func merged(with later: Self) -> Self
    /// The label a history view shows for the step.
    var label: String? { get }
    /// The annotation of a step loaded from an archive, which saves the label alone.
    init(savedLabel label: String?)
}

extension HistoryAnnotation {
    @usableFromInline
    package var label: String? { nil }
}

/// No annotation.
@usableFromInline
package struct NoAnnotation: HistoryAnnotation {
    @inlinable
    package init() {}
    @usableFromInline
    package init(savedLabel label: String?) {}
    @usableFromInline
    package func merged(with later: NoAnnotation) -> NoAnnotation { self }
}

/// The dropped beginning of an inner scope, kept as one reversion (never a snapshot, which
/// would overwrite untracked changes made later): popping squashes from the scope's start,
/// and abandoning the scope goes back there.
struct ScopeStart<Value, Annotation> {
    /// The version the scope started from.
    var version: HistoryVersion
    /// From the scope's floor back to its start; `nil` when the two are equal.
    var reversion: Reversion<Value>?
    /// The dropped steps' annotation, for the squashed step.
    var annotation: Annotation
    var changeCount: Int
    var time: Duration
    /// The author the dropped steps share, or `nil` when they do not all have the same.
    var author: HistoryAuthor?
}

extension ScopeStart where Annotation: HistoryAnnotation {

    /// The same start with another kind of annotation, made from this one's label: what an
    /// archive saves, and what a loaded history keeps.
    func relabelled<Other: HistoryAnnotation>(as _: Other.Type = Other.self) -> ScopeStart<Value, Other> {
        ScopeStart<Value, Other>(
            version: version, reversion: reversion, annotation: Other(savedLabel: annotation.label),
            changeCount: changeCount, time: time, author: author
        )
    }
}

struct SavedLabel: HistoryAnnotation {
    let label: String?

    init(savedLabel label: String?) {
        self.label = label
    }

    func merged(with later: SavedLabel) -> SavedLabel {
        SavedLabel(savedLabel: label ?? later.label)
    }
}

extension History: Sendable where Value: Sendable {}
extension ScopeStart: Sendable where Value: Sendable, Annotation: Sendable {}
