extension History {

    /// Starts a new scope on the current version. Undo and redo stay inside it until it is
    /// popped.
    package mutating func pushScope() {
        endGroup()
        scopes.append(HistoryScope())
    }

    /// Ends the current scope, squashing its steps into one step on the scope below, undone
    /// by a single undo. The squashed step is one fresh comparison between the version the
    /// scope started from (even if the limit dropped its first steps) and the current one, so
    /// changes that cancelled out take no space. Its tag is the tag of the version the scope
    /// ended on.
    ///
    /// - Returns: `false`, changing nothing, at the outermost scope.
    @discardableResult
    package mutating func popScope() throws(ReversionError) -> Bool {
        endGroup()
        guard top > 0 else { return false }
        let scope = scopes[top]
        var base = current
        if let start = scope.trimmed?.start {
            base = start
        } else {
            for step in scope.undo.reversed() {
                try step.reversion.revert(&base)
            }
        }
        scopes.removeLast()
        // The tag of the version the scope ended on: its newest step's, or, with no steps, its
        // base's. Never the base's when a step follows it: that tag names an earlier version.
        let endTag = scope.undo.isEmpty ? scope.baseTagBox : scope.undo[scope.undo.count - 1].tagBox
        // The scopes below were recorded against `base`'s exact bytes, which equality cannot
        // tell from a canonically equivalent re-spelling the popped scope made (`"é"` as
        // `"e\u{301}"`): so the history's copy goes back to `base` and takes the squashed
        // change forward, as `record` does, instead of keeping the popped scope's bytes.
        let end = current
        let squashed = end.reversion(to: base)
        reference = base
        guard let reversion = squashed else {
            if let endTag { tagCurrentVersion(box: endTag) }
            return true
        }
        advanceReference(to: end, by: reversion)
        let annotations = (scope.trimmed.map { [$0.annotation] } ?? []) + scope.undo.map(\.annotation)
        let annotation = annotations.dropFirst().reduce(annotations[0]) { $0.merged(with: $1) }
        var step = HistoryStep(reversion: reversion, annotation: annotation)
        step.tagBox = endTag
        push(step)
        return true
    }

    /// Undoes every step of the current scope, staying in it.
    ///
    /// - Returns: How many steps were undone.
    @discardableResult
    package mutating func undoScope(_ value: inout Value) throws(ReversionError) -> Int {
        try undo(&value, steps: undoCount)
    }

    /// Redoes every step of the current scope.
    ///
    /// - Returns: How many steps were redone.
    @discardableResult
    package mutating func redoScope(_ value: inout Value) throws(ReversionError) -> Int {
        try redo(&value, steps: redoCount)
    }

    /// Abandons the current scope: goes back to the version it started from (undoing all of its
    /// steps), then removes it with its redo steps.
    ///
    /// - Returns: Whether the value changed; `false`, changing nothing, at the outermost scope.
    @discardableResult
    package mutating func discardScope(_ value: inout Value) throws(ReversionError) -> Bool {
        endGroup()
        guard top > 0 else { return false }
        var changed = try undoScope(&value) > 0
        if let start = scopes[top].trimmed?.start {
            value = start
            reference = start
            changed = true
        }
        scopes.removeLast()
        return changed
    }
}
