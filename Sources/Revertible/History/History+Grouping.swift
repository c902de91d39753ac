extension History {

    /// Consecutive changes kept as one step (a debounced burst of typing, actions sharing a
    /// grouping key), while the caller keeps saying they belong together.
    struct OpenGroup {
        /// The version before the group's first change: each change of the group is diffed
        /// against it, so the step stays one reversion, not a chain.
        var base: Value
        /// The scope whose top step is the group's step.
        var scope: Int
    }

    /// Folds `value` into the open group, replacing the group's step with the change from the
    /// group's base (or removing it, if the group's changes cancelled out).
    ///
    /// - Returns: `false`, changing nothing, when no group is open in the current scope.
    mutating func extendGroup(with value: Value, annotation: Annotation) -> Bool {
        guard let open = group, open.scope == top, let step = scopes[top].undo.last else { return false }
        if let change = value.reversion(to: current) {
            advanceReference(to: value, by: change)
        }
        // From the history's own version, not `value`: the step must check exactly the bytes
        // the history holds (see `advanceReference(to:by:)`).
        if let reversion = current.reversion(to: open.base) {
            var replacement = HistoryStep(reversion: reversion, annotation: step.annotation.merged(with: annotation))
            replacement.tagBox = step.tagBox
            scopes[top].undo[scopes[top].undo.count - 1] = replacement
        } else {
            scopes[top].undo.removeLast()
            group = nil
        }
        return true
    }

    /// Closes the open group: the next change starts a new step. Every operation other than
    /// recording does this first, even one that changes nothing, so an undo during a burst
    /// undoes the whole burst, and a tagged version is never amended by later changes.
    package mutating func endGroup() {
        group = nil
    }
}

extension History.OpenGroup: Sendable where Value: Sendable {}
