/// The undo and redo stacks of one tracked value: the engine behind ``VersioningController``
/// and the undoable reducer.
///
/// A value type, so a copy's history never changes when the original moves on. It keeps one
/// reference version (the current one) and, per step, only the reversion from one comparison,
/// applied backward to undo and forward to redo.
package struct History<Value: Revertible, Annotation: HistoryAnnotation> {

    /// The current version. `nil` only while a step is being applied to a value handed in by
    /// the caller, so that the caller's storage is uniquely referenced and mutates in place.
    var reference: Value?
    /// The scopes, outermost first; never empty.
    package internal(set) var scopes: [HistoryScope<Value, Annotation>] = [HistoryScope()]
    /// The largest number of undo steps kept across all scopes, or `nil` for no limit.
    package var limit: Int? {
        didSet {
            endGroup()
            trimToLimit()
        }
    }
    /// The open group of changes kept as one step, if any.
    var group: OpenGroup?

    package init(_ value: Value, limit: Int? = nil) {
        reference = value
        self.limit = limit
    }

    /// The current version: the last one recorded, undone to or redone to.
    package var current: Value {
        reference!
    }

    var top: Int { scopes.count - 1 }

    package var scopeLevel: Int { top }
    package var undoCount: Int { scopes[top].undo.count }
    package var redoCount: Int { scopes[top].redo.count }
    package var canUndo: Bool { undoCount > 0 }
    package var canRedo: Bool { redoCount > 0 }
    package var nextUndo: HistoryStep<Value, Annotation>? { scopes[top].undo.last }
    package var nextRedo: HistoryStep<Value, Annotation>? { scopes[top].redo.last }
    package var totalUndoCount: Int { scopes.reduce(0) { $0 + $1.undo.count } }

    /// Records `value` as the new current version.
    ///
    /// When it differs from the current version, one step holding the reversion between them is
    /// pushed on the current scope (clearing its redo stack); when it is equal, nothing is
    /// recorded. Either way the history keeps its own copy of the current version, moved only
    /// by its steps (see ``advanceReference(to:by:)``), never `value` itself.
    ///
    /// - Parameters:
    ///   - joiningGroup: Fold this change into the open group's step, if one is open in the
    ///     current scope, instead of pushing a new step.
    ///   - openingGroup: Open a group with the step this change pushes, so that later changes
    ///     can join it.
    /// - Returns: Whether the history changed.
    @discardableResult
    package mutating func record(
        _ value: Value,
        tag: (any Hashable & Sendable)? = nil,
        annotation: Annotation,
        joiningGroup: Bool = false,
        openingGroup: Bool = false
    ) -> Bool {
        if joiningGroup, extendGroup(with: value, annotation: annotation) {
            if let tag { tagCurrentVersion(tag) }
            return true
        }
        endGroup()
        guard let reversion = value.reversion(to: current) else {
            if let tag { tagCurrentVersion(tag) }
            return false
        }
        // Keep the version before the change only for a group, which diffs against it: held
        // while the reference advances, it would force a copy of the reference's storage.
        let groupBase = openingGroup ? reference : nil
        advanceReference(to: value, by: reversion)
        push(HistoryStep(reversion: reversion, annotation: annotation))
        if let groupBase {
            group = OpenGroup(base: groupBase, scope: top)
        }
        if let tag { tagCurrentVersion(tag) }
        return true
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
        do {
            try change.inverted.revert(&next)
            reference = next
        } catch {
            // Cannot happen: `change` was made from this very version.
            reference = value
        }
    }

    /// Pushes a step on the current scope: a new change makes the redo stack meaningless.
    mutating func push(_ step: HistoryStep<Value, Annotation>) {
        scopes[top].redo.removeAll()
        scopes[top].undo.append(step)
        trimToLimit()
    }

    /// Drops the oldest steps, outermost scope first, until the limit holds. The version a
    /// dropped step led to becomes its scope's base, and keeps its tag.
    private mutating func trimToLimit() {
        guard let limit else { return }
        var excess = totalUndoCount - max(limit, 0)
        var scope = 0
        while excess > 0, scope < scopes.count {
            while excess > 0, let dropped = scopes[scope].undo.first {
                if scope > 0 { keepStart(ofScope: scope, dropping: dropped) }
                scopes[scope].undo.removeFirst()
                scopes[scope].baseTagBox = dropped.tagBox
                excess -= 1
                if scope == group?.scope, scopes[scope].undo.isEmpty { group = nil }
            }
            scope += 1
        }
    }

    /// Before the limit drops the oldest step of an inner scope, keeps the version the scope
    /// started from, which the scopes below are still at: popping the scope must squash its
    /// changes from there, and discarding it must go back there. Also keeps the dropped steps'
    /// annotation for the squashed step. Costs one copy of the value per such scope.
    private mutating func keepStart(ofScope level: Int, dropping step: HistoryStep<Value, Annotation>) {
        if let trimmed = scopes[level].trimmed {
            scopes[level].trimmed = (trimmed.start, trimmed.annotation.merged(with: step.annotation))
            return
        }
        var start = current
        for scope in scopes[level...].reversed() {
            for step in scope.undo.reversed() {
                // Fails only on a history made inconsistent by `replaceCurrent`; then the scope
                // starts from its oldest kept version, as before.
                guard (try? step.reversion.revert(&start)) != nil else { return }
            }
        }
        scopes[level].trimmed = (start, step.annotation)
    }

    /// Runs `body` on the caller's `value`, which is the current version, with the reference
    /// released so that the value's storage is unique and mutates in place; then makes the
    /// result the reference again.
    mutating func withReferenceReleased<R>(_ value: inout Value, _ body: (inout Value) throws(ReversionError) -> R) throws(ReversionError) -> R {
        reference = nil
        defer { reference = value }
        return try body(&value)
    }

    /// Makes `value` the current version without recording a step. Later undo steps still
    /// apply wherever `value` agrees with the version they were made from.
    package mutating func replaceCurrent(with value: Value) {
        endGroup()
        reference = value
    }

    /// Forgets every step and tag in every scope, and every scope but the outermost; the
    /// current version stays.
    package mutating func removeAll() {
        group = nil
        scopes = [HistoryScope()]
    }
}

/// A step's extra description (a label, say), merged when steps are squashed into one.
package protocol HistoryAnnotation: Sendable {
    /// The annotation of one step made of a step annotated `self` followed by one annotated
    /// `later`.
    func merged(with later: Self) -> Self
}

/// No annotation.
package struct NoAnnotation: HistoryAnnotation {
    package init() {}
    package func merged(with later: NoAnnotation) -> NoAnnotation { self }
}

/// One undoable change: the reversion from the version after it to the version before it.
package struct HistoryStep<Value, Annotation> {
    package var reversion: Reversion<Value>
    /// The tag of the version this step leads to.
    var tagBox: TagBox?
    package var annotation: Annotation

    init(reversion: Reversion<Value>, tag: (any Hashable & Sendable)? = nil, annotation: Annotation) {
        self.reversion = reversion
        self.tagBox = tag.map { TagBox(AnyHashable($0)) }
        self.annotation = annotation
    }

    package var tag: AnyHashable? {
        tagBox?.value
    }
}

/// One level of scopes: a base version and the steps taken from it.
package struct HistoryScope<Value, Annotation> {
    /// The tag of the version the scope started from.
    var baseTagBox: TagBox?
    /// Once the history limit has dropped an inner scope's oldest steps: the version the scope
    /// started from, and the dropped steps' annotation.
    var trimmed: (start: Value, annotation: Annotation)?
    package var undo: [HistoryStep<Value, Annotation>] = []
    /// The next step to redo is last.
    package var redo: [HistoryStep<Value, Annotation>] = []

    var baseTag: AnyHashable? {
        baseTagBox?.value
    }

    /// The tag of the version the scope started from.
    package var baseTagValue: AnyHashable? {
        baseTag
    }
}

/// A tag, boxed: steps are many and tags are few, so a step holds one pointer, not a whole
/// `AnyHashable`.
final class TagBox: @unchecked Sendable {
    // Immutable, and made only from `Sendable` tags (the public API takes `Hashable & Sendable`).
    let value: AnyHashable

    init(_ value: AnyHashable) {
        self.value = value
    }
}

extension History: Sendable where Value: Sendable {}
extension HistoryStep: Sendable where Value: Sendable, Annotation: Sendable {}
extension HistoryScope: Sendable where Value: Sendable, Annotation: Sendable {}
