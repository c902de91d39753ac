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
package struct History<Value: Revertible, Annotation: HistoryAnnotation> {

    /// The current version. `nil` only while a command runs on a value handed in by the
    /// caller, so that the caller's storage is uniquely referenced and mutates in place.
    var reference: Value?
    /// The scopes, outermost first; never empty.
    package internal(set) var scopes: [HistoryScope<Value, Annotation>]
    /// The open group of changes kept as one step, if any.
    var group: OpenGroup?
    /// Tags and the versions they name, in the order they were given.
    var tagged: [(tag: HistoryTag, version: HistoryVersion)] = []
    /// The identifier the next new version gets.
    var nextVersion = HistoryVersion(1)
    /// How clock readings become step times that never go backwards (see ``stamp(_:policy:)``).
    var timeline = HistoryTimeline()
    /// The error of the last command that failed, or `nil` once one succeeds.
    package var lastError: HistoryError?
    /// The locations the last command's moves found changed by another writer (see
    /// ``ConflictPolicy``); empty when it found none, or moved nothing.
    package internal(set) var lastConflicts: [ReversionConflict] = []
    /// What the running command's moves do at a conflict: the command's policy, else the
    /// history policy's.
    var conflictPolicy: ConflictPolicy = .skip
    /// Whether a change made without a step (``absorb(_:)``) ever moved this history's
    /// present: its steps may then no longer apply exactly, and an archive says so (see
    /// ``HistoryArchive/Outline``).
    var hasAbsorbedWrites = false

    package init(_ value: Value) {
        reference = value
        scopes = [HistoryScope(floor: HistoryVersion(0))]
    }

    /// The current version: the last one recorded, undone to or redone to.
    package var current: Value {
        reference!
    }

    var top: Int { scopes.count - 1 }

    package var scopeLevel: Int { top }
    package var undoCount: Int { scopes[top].undoCount }
    package var redoCount: Int { scopes[top].redoCount }
    package var hasUndo: Bool { undoCount > 0 }
    package var hasRedo: Bool { scopes[top].children[currentVersion] != nil }
    package var nextUndo: RecordedStep<Value, Annotation>? { scopes[top].currentStep }
    package var nextRedo: RecordedStep<Value, Annotation>? { scopes[top].nextStep(.forward) }

    /// The identifier of the current version.
    var currentVersion: HistoryVersion { scopes[top].current }

    /// Records `value` as the new current version.
    ///
    /// When it differs from the current version, one step holding the reversion between them
    /// is pushed on the current scope (clearing its redo steps), or, when `grouping` joins
    /// the open group under `policy`, folded into the group's step. When it is equal, nothing
    /// is recorded. Either way the history keeps its own copy of the current version, moved
    /// only by its steps (see ``advanceReference(to:by:)``), never `value` itself.
    ///
    /// - Parameters:
    ///   - changeCount: How many changes `value` holds (a transaction's actions), as
    ///     ``HistoryStep/changeCount`` reports them.
    ///   - author: Who made the change; `nil` for `policy`'s author. A change never joins a
    ///     group of another author's.
    /// - Returns: Whether the history changed.
    @discardableResult
    package mutating func record(
        _ value: Value,
        annotation: Annotation,
        changeCount: Int = 1,
        grouping: Grouping = .alone,
        author: HistoryAuthor? = nil,
        policy: HistoryPolicy
    ) -> Bool {
        // One comparison finds the change and the ignored places, which the history's copy
        // takes from `value` once it holds the change.
        let author = author ?? policy.author
        let (change, ignored) = recordedDifference(value, from: current)
        defer { adoptIgnoredProperties(ignored, of: value) }
        let time = stamp(grouping.time ?? policy.now(), policy: policy)
        let mark = grouping.mark(at: time)
        if let mark, joinsGroup(mark, policy: policy), scopes[top].currentStep?.author == author {
            extendGroup(with: value, by: change, annotation: annotation, mark: mark)
            return true
        }
        endGroup()
        guard let reversion = change else { return false }
        // Keep the version before the change only for a group, which diffs against it: held
        // while the reference advances, it would force a copy of the reference's storage.
        let groupBase = mark.flatMap { opensGroup($0, policy: policy) ? reference : nil }
        advanceReference(to: value, by: reversion)
        // The oldest version's time is unknown until the first step (a state made without a
        // clock, or history removed): taking the first step's keeps moves by time from it sane.
        if top == 0, scopes[0].steps.isEmpty, scopes[0].floorTime == .zero {
            scopes[0].floorTime = time
        }
        push(RecordedStep(
            reversion: reversion,
            version: makeVersion(),
            annotation: annotation,
            time: time,
            changeCount: changeCount,
            authorship: author.map { StepAuthorship(author: $0) }
        ))
        if let groupBase, let mark {
            group = OpenGroup(base: groupBase, scope: top, mark: mark)
        }
        trim(to: policy.limit)
        return true
    }

    /// Makes `value` the current version without recording a step: undo will not take this
    /// change back. Earlier steps still apply wherever `value` agrees with the version they
    /// were made from.
    ///
    /// An open group stays open, so a drag interrupted by untracked pointer moves is still one
    /// step: its base takes the untracked change too, so the step never holds it. If the
    /// untracked change overlaps the group's own changes, the group ends instead.
    package mutating func recordWithoutTracking(_ value: Value) {
        let (change, ignored) = recordedDifference(value, from: current)
        defer { adoptIgnoredProperties(ignored, of: value) }
        guard let change else { return }
        hasAbsorbedWrites = true
        if var open = group {
            if (try? change.inverted.revert(&open.base)) != nil {
                group = open
            } else {
                group = nil
            }
        }
        advanceReference(to: value, by: change)
    }

    /// Makes the current version `value`, which `change` (the reversion from `value` back to
    /// the current version) tells apart from it, by applying `change` forward to the history's
    /// own copy.
    ///
    /// Not by adopting `value`: equality cannot see everything reversions check. A string
    /// re-spelled in a canonically equivalent form (`"é"` as `"e\u{301}"`) is equal, so no
    /// reversion records the re-spelling; adopted, it would make every older step at that
    /// string, which checks exact bytes, fail forever. Applied in place, the change costs its
    /// own size, and `value`'s storage stays the caller's alone.
    mutating func advanceReference(to value: Value, by change: Reversion<Value>) {
        var next = reference!
        reference = nil
        // Unchecked: `change` was made from this very version, so the check before writing
        // cannot fail, and would read every location the change writes once more.
        // Toward `value`: the copy then shares `value`'s storage where it holds the very
        // same bytes, which a check of exact bytes allows, where equality would not.
        if change.inverted.revertUnchecked(&next, toward: value) {
            reference = next
        } else {
            // Cannot happen, for the same reason.
            reference = value
        }
    }

    /// Takes the content of `ignored` (the places, at any depth, that the comparison with
    /// `value` found its type ignores: ``Reverter/ignore(_:)``) from `value`: no step records
    /// them, and undo and redo hand them back as the caller last set them.
    mutating func adoptIgnoredProperties(_ ignored: [IgnoredProperty<Value>], of value: Value) {
        guard !ignored.isEmpty else { return }
        ignored.copy(from: value, into: &reference!)
    }

    /// Makes `version`, an earlier version, the current one again for `value`, which equals
    /// it but may differ in ignored places: those come from `value`, found by comparing the
    /// two (a rare path: a group whose changes came back to where it started).
    mutating func resetReference(to version: Value, adoptingIgnoredPropertiesOf value: Value) {
        reference = version
        adoptIgnoredProperties(recordedDifference(value, from: version).ignored, of: value)
    }

    /// Adds a step after the current version of the current scope. The steps redo would
    /// have taken stay, as a branch: a change after an undo loses nothing. The caller trims to
    /// the limit once the reference is back.
    mutating func push(_ step: RecordedStep<Value, Annotation>) {
        scopes[top].append(step)
    }

    /// A new version identifier.
    mutating func makeVersion() -> HistoryVersion {
        defer { nextVersion.rawValue += 1 }
        return nextVersion
    }

    /// Forgets every step and tag in every scope, and every scope but the outermost; the
    /// current version stays.
    mutating func removeAllVersions() {
        group = nil
        hasAbsorbedWrites = false
        tagged = []
        scopes = [HistoryScope(floor: makeVersion())]
    }
}

/// A step's extra description (a label and the actions that made it, say), merged when steps
/// are squashed into one.
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
    package var label: String? { nil }
}

/// No annotation.
package struct NoAnnotation: HistoryAnnotation {
    package init() {}
    package init(savedLabel label: String?) {}
    package func merged(with later: NoAnnotation) -> NoAnnotation { self }
}

/// One undoable change: the reversion from the version after it to the version before it.
package struct RecordedStep<Value, Annotation> {
    package var reversion: Reversion<Value>
    /// The version this step leads to.
    var version: HistoryVersion
    package var annotation: Annotation
    /// When the step was recorded (its first change, for a group).
    var time: Duration
    /// How many recorded changes the step holds.
    var changeCount = 1
    /// The version this step starts from; set when it joins a scope's tree.
    var parent = HistoryVersion(0)
    /// How many steps lie between this step's version and the scope's first version, plus
    /// the scope's ``HistoryScope/floorDepth``.
    var depth = 0
    /// Who made the step, and what `undo(by:)` did with it; `nil` for a step without author.
    var authorship: StepAuthorship?
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

extension RecordedStep where Annotation: HistoryAnnotation {

    /// The same step with another kind of annotation, made from this one's label: what an
    /// archive saves, and what a loaded history keeps.
    func relabelled<Other: HistoryAnnotation>(as _: Other.Type = Other.self) -> RecordedStep<Value, Other> {
        RecordedStep<Value, Other>(
            reversion: reversion, version: version, annotation: Other(savedLabel: annotation.label),
            time: time, changeCount: changeCount, parent: parent, depth: depth, authorship: authorship
        )
    }
}

/// The annotation an archive keeps of a step: its label.
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
extension RecordedStep: Sendable where Value: Sendable, Annotation: Sendable {}
extension ScopeStart: Sendable where Value: Sendable, Annotation: Sendable {}
