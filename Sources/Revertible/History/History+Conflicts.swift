extension History {

    /// Applies `step` in `direction` to `value`, selectively: every location the step wrote
    /// that still holds what the step left there is reverted, and every other one is a
    /// conflict, handled by ``conflictPolicy`` and added to ``lastConflicts``.
    ///
    /// After a conflict, the step's stored reversion becomes what was actually done (one
    /// comparison of the value before and after), so the move back re-applies exactly that;
    /// a step none of whose locations applied keeps an empty reversion and still moves, so
    /// no step can keep undo or redo from going on.
    ///
    /// - Throws: ``HistoryError/stepRefused(_:step:)`` with ``ReversionError/conflict(_:)`` under ``ConflictPolicy/refuse``,
    ///   with `value` unchanged.
    @inlinable
    mutating func apply(_ step: RecordedStep<Value, Annotation>, _ direction: ReversionDirection, to value: inout Value) throws(HistoryError) {
        let reversion = direction == .backward ? step.reversion : step.reversion.inverted
        if mayRevertStrictly(reversion, value), reversion.revertUnchecked(&value) { return }
        try applySelectively(step, direction, reversion, to: &value)
    }

    /// ``apply(_:_:to:)`` where the step does not apply whole: kept out of line, so the
    /// inlinable path that clients specialize is only the common one.
    @usableFromInline
    mutating func applySelectively(
        _ step: RecordedStep<Value, Annotation>, _ direction: ReversionDirection, _ reversion: Reversion<Value>, to value: inout Value
    ) throws(HistoryError) {
        if stepsMustApplyExactly {
            throw refuse(step.version, reversion, in: value, level: top, doing: direction == .backward ? "undoing it" : "redoing it")
        }
        let before = value
        let conflicts = reversion.revertSelectively(&value, onConflict: conflictPolicy)
        if conflictPolicy == .refuse, !conflicts.isEmpty {
            // Readable after the refusal too: what the caller may skip, overwrite or drop.
            lastConflicts += conflicts
            throw .stepRefused(.conflict(conflicts))
        }
        // Without a conflict the step did all it says (another writer's change elsewhere in
        // a collection is no conflict), and it keeps its own description, which places
        // elements better than a comparison with the other writer's value would.
        guard !conflicts.isEmpty else { return }
        lastConflicts += conflicts
        let (newer, older) = direction == .backward ? (before, value) : (value, before)
        var done = step
        done.reversion = recordedDifference(newer, from: older).reversion ?? .nothing
        scopes[top].steps[step.version] = done
    }

    /// Whether `reversion` may revert `value` strictly (no copy, no comparison), which is then
    /// exactly what a selective revert would do: it applies, and, once others wrote
    /// (``absorb(_:)``), brings back no element by id that is there again. Strictly, such an
    /// element would appear twice (seed 987 of the other-writers model: a scope's start found
    /// so, then squashed into a step that brought an element back over itself). A history
    /// nobody else writes never holds such an id, and skips that check, which reads the
    /// whole collection.
    @inlinable
    func mayRevertStrictly(_ reversion: Reversion<Value>, _ value: Value) -> Bool {
        reversion.canRevert(value) && (!hasAbsorbedWrites || reversion.bringsBackOnlyAbsentIDs(value))
    }

    /// Reverts `value` by `reversion`, of the step to `version` in the current scope (or its
    /// start), where it holds what the reversion was made from, and leaves every other
    /// location as it is (see ``ConflictPolicy/skip``); strictly when nothing conflicts.
    /// Never fails: where steps must apply exactly (``stepsMustApplyExactly``), one that
    /// does not is refused (``refuse(_:_:in:level:doing:)``), which takes the running
    /// command back, and `value` is left as it is.
    func revertSkippingConflicts(_ reversion: Reversion<Value>, _ value: inout Value, step version: HistoryVersion) {
        if mayRevertStrictly(reversion, value), reversion.revertUnchecked(&value) { return }
        if stepsMustApplyExactly {
            refuse(version, reversion, in: value, level: top, doing: "taking the scope back")
            return
        }
        _ = reversion.revertSelectively(&value, onConflict: .skip)
    }

    /// Makes `value` the current version without recording a step: a change from another
    /// writer (an unrecorded action, an effect, a sync). Undo and redo then leave it where
    /// it conflicts with their steps, and the next step recorded holds only its own change.
    package mutating func absorb(_ value: Value) {
        recordWithoutTracking(value)
    }

    /// Removes the step undo would take, keeping the value as it is: its change stays, as if
    /// another writer had made it, and the steps before it become reachable. The steps redo
    /// would take after it stay, on the version before it. For a step that a refusal
    /// (``ConflictPolicy/refuse``) left in place and that is not to be undone.
    ///
    /// - Returns: Whether a step was removed (`false` at the oldest version of the scope).
    @discardableResult
    @usableFromInline
    package mutating func dropNextUndo() -> Bool {
        let scope = scopes[top]
        let version = scope.current
        guard let step = scope.steps[version] else { return false }
        let parent = step.parent
        // The dropped step's later steps hang on its parent now, one level less deep.
        var moved = scope.children[version].map(Array.init) ?? []
        scopes[top].removeLeafIgnoringChildren(version)
        for child in moved {
            scopes[top].steps[child]?.parent = parent
            scopes[top].children[parent, default: []].append(child)
        }
        while let next = moved.popLast() {
            scopes[top].steps[next]?.depth -= 1
            moved += scopes[top].children[next].map(Array.init) ?? []
        }
        scopes[top].current = parent
        retag(version, as: parent)
        hasAbsorbedWrites = true
        forgetTagsOfRemovedVersions()
        return true
    }
}

extension HistoryScope {

    /// Removes the step to `version` from the tree, leaving its children to the caller.
    mutating func removeLeafIgnoringChildren(_ version: HistoryVersion) {
        guard let step = steps.removeValue(forKey: version) else { return }
        children[version] = nil
        children[step.parent]?.removeAll { $0 == version }
        if children[step.parent]?.isEmpty == true { children[step.parent] = nil }
    }
}

extension Reversion {

    /// A reversion that changes nothing: a step whose every location another writer changed.
    @usableFromInline
    static var nothing: Reversion {
        Reversion(node: CompositeChange(nodes: []))
    }
}
