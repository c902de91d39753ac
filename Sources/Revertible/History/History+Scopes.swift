extension History {

    /// Starts a new scope on the current version, which is the new scope's start (and keeps
    /// its tags there). Undo and redo stay inside the scope until it is popped.
    @usableFromInline
    mutating func pushNewScope() {
        scopes.append(HistoryScope(floor: currentVersionID, time: scopes[top].time(of: currentVersionID)))
    }

    /// Ends the current scope, squashing what it did into one step on the scope below, undone
    /// by a single undo. The squashed step is one fresh comparison between the version the
    /// scope started from (even if the limit dropped its first steps) and `value`, the current
    /// version, so changes that cancelled out take no space. It leads to the version the
    /// scope ended on, which keeps its tags.
    ///
    /// No step can keep the scope from ending. The version the scope started from is found by
    /// taking its steps back selectively: where another writer changed a location a step
    /// wrote (a change absorbed with ``absorb(_:)``), that location keeps the other writer's
    /// value in the start too, so the squashed step holds only what the scope itself did.
    @usableFromInline
    mutating func popCurrentScope(_ value: inout Value) throws(HistoryError) {
        guard top > 0 else { throw .noScopeToPop }
        let scope = scopes[top]
        var start = value
        takeBack(scope, &start)
        _ = removeTopScope()
        keepTagsMoved(by: scope)
        defer { forgetTagsOfRemovedVersions() }
        // The scopes below were recorded against `start`'s exact bytes, which equality cannot
        // tell from a canonically equivalent re-spelling the popped scope made (`"é"` as
        // `"e\u{301}"`): so the value goes back to `start` and takes the squashed change
        // forward, as `record` does, instead of keeping the popped scope's bytes.
        let end = value
        value = start
        if let squashed = end.reversion(to: start) {
            // `squashed` was made from `start` to `end`: applied to `start` it cannot fail.
            if !squashed.inverted.revertUnchecked(&value) { value = end }
            appendStep(
                squashed,
                version: scope.current,
                annotation: scope.squashedAnnotation,
                time: scope.start?.time ?? scope.undo.first?.time ?? .zero,
                changeCount: (scope.start?.changeCount ?? 0) + scope.undo.reduce(0) { $0 + $1.changeCount },
                authorship: scope.squashedAuthorship
            )
        } else {
            // Nothing changed in all: the version the scope ended on is the start.
            retag(scope.current, as: scope.startVersion)
        }
    }

    /// Abandons the current scope: takes `value` back to the version the scope started from
    /// (undoing all of its steps), then removes it with its redo steps, and puts the tags it
    /// moved back where they were.
    ///
    /// The steps are undone as undo takes them, by ``conflictPolicy``: with the default,
    /// ``ConflictPolicy/skip``, a location another writer changed keeps its value and the
    /// scope always ends. With ``ConflictPolicy/refuse``, a conflict throws
    /// ``HistoryError/stepRefused(_:step:)`` with ``ReversionError/conflict(_:)`` and nothing changes: the scope stays.
    ///
    /// - Returns: Whether the value changed.
    @usableFromInline
    mutating func undoAndPopCurrentScope(_ value: inout Value) throws(HistoryError) -> Bool {
        guard top > 0 else { throw .noScopeToPop }
        let steps = try undo(&value, to: .steps(undoCount))
        if let start = scopes[top].start?.reversion,
           !(mayRevertStrictly(start, value) && start.revertUnchecked(&value)) {
            if stepsMustApplyExactly {
                let error = refuse(scopes[top].startVersion, start, in: value, level: top, doing: "taking the scope back to its start")
                _ = try? redo(&value, to: .steps(steps))
                throw error
            }
            var taken = value
            let conflicts = start.revertSelectively(&taken, onConflict: conflictPolicy)
            if conflictPolicy == .refuse, !conflicts.isEmpty {
                _ = try? redo(&value, to: .steps(steps))
                throw .stepRefused(.conflict(conflicts), step: steps + 1)
            }
            lastConflicts += conflicts
            value = taken
        }
        let changed = steps > 0 || scopes[top].start?.reversion != nil
        let abandoned = removeTopScope()
        restoreTagsMoved(by: abandoned)
        forgetTagsOfRemovedVersions()
        return changed
    }
}

extension History {

    /// Takes `value`, at `scope`'s current version, back to the version the scope started
    /// from: every undo step, then the start, each where it still applies. Never fails.
    func takeBack(_ scope: HistoryScope<Value, Annotation>, _ value: inout Value) {
        for step in scope.undo.reversed() {
            revertSkippingConflicts(step.reversion, &value, step: step.version)
        }
        if let start = scope.start, let reversion = start.reversion {
            revertSkippingConflicts(reversion, &value, step: start.version)
        }
    }
}

extension HistoryScope where Annotation: HistoryAnnotation {

    /// The annotation of the step this scope is squashed into: its dropped beginning's, then
    /// each step's.
    var squashedAnnotation: Annotation {
        var annotations = undo.map(\.annotation)
        if let start { annotations.insert(start.annotation, at: 0) }
        return annotations.dropFirst().reduce(annotations[0]) { $0.merged(with: $1) }
    }
}
