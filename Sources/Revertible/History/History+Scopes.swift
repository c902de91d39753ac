extension History {

    /// Starts a new scope on the current version, which is the new scope's start (and keeps
    /// its tags there). Undo and redo stay inside the scope until it is popped.
    mutating func pushNewScope() {
        scopes.append(HistoryScope(floor: currentVersion, time: scopes[top].time(of: currentVersion)))
    }

    /// Ends the current scope, squashing what it did into one step on the scope below, undone
    /// by a single undo. The squashed step is one fresh comparison between the version the
    /// scope started from (even if the limit dropped its first steps) and `value`, the current
    /// version, so changes that cancelled out take no space. It leads to the version the
    /// scope ended on, which keeps its tags.
    ///
    /// No step can keep the scope from ending. If one no longer applies (a change made
    /// without a step overlaps it), the squashed step starts from the version that step led
    /// to: what the steps above it changed is squashed, what it and the steps before it
    /// changed stays in the value with no step to take it back, as a change made without a
    /// step would. The scope is then ended all the same, and the error
    /// ``ReversionError/Reason/stepNotSquashed(_:)`` names the step.
    mutating func popCurrentScope(_ value: inout Value) throws(ReversionError) {
        guard top > 0 else { throw .noScopeToPop }
        let scope = scopes[top]
        var start = value
        let refusal = scope.takeBackAsFarAsPossible(&start)
        scopes.removeLast()
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
            push(RecordedStep(
                reversion: squashed,
                version: scope.current,
                annotation: scope.squashedAnnotation,
                time: scope.start?.time ?? scope.undo.first?.time ?? .zero,
                changeCount: (scope.start?.changeCount ?? 0) + scope.undo.reduce(0) { $0 + $1.changeCount },
                authorship: scope.squashedAuthorship
            ))
        } else {
            // Nothing changed in all: the version the scope ended on is the start.
            retag(scope.current, as: scope.startVersion)
        }
        if let refusal {
            throw ReversionError(.stepNotSquashed(refusal.version), keyPath: refusal.error.keyPath)
        }
    }

    /// Abandons the current scope: takes `value` back to the version the scope started from
    /// (undoing all of its steps), then removes it with its redo steps, and puts the tags it
    /// moved back where they were. All or nothing, as long as every step applies.
    ///
    /// If one does not (a change made without a step overlaps it), the scope cannot be taken
    /// back: it is ended as ``popCurrentScope(_:)`` ends it, squashing what can be squashed,
    /// and ``ReversionError/Reason/stepNotSquashed(_:)`` names the step. So a loop that ends
    /// scopes always ends.
    ///
    /// - Returns: Whether the value changed.
    mutating func undoAndPopCurrentScope(_ value: inout Value) throws(ReversionError) -> Bool {
        guard top > 0 else { throw .noScopeToPop }
        do throws(ReversionError) {
            let steps = try undo(&value, to: .steps(undoCount))
            if let start = scopes[top].start?.reversion {
                do {
                    try start.revert(&value)
                } catch {
                    _ = try? redo(&value, to: .steps(steps))
                    throw error.at(step: steps + 1)
                }
            }
            let changed = steps > 0 || scopes[top].start?.reversion != nil
            let abandoned = scopes.removeLast()
            restoreTagsMoved(by: abandoned)
            forgetTagsOfRemovedVersions()
            return changed
        } catch {
            // The attempt changed nothing (undo is all or nothing, and the start's failure
            // redid what it undid): end the scope the one way that always works.
            let current = scopes[top].current
            try popCurrentScope(&value)
            // Not reached unless the two disagree about which step fails: report it anyway,
            // since the scope has ended.
            throw ReversionError(.stepNotSquashed(current), keyPath: error.keyPath)
        }
    }
}

extension HistoryScope {

    /// Takes `value`, at this scope's current version, back toward the version the scope
    /// started from: every undo step, then the start, stopping at the first that does not
    /// apply.
    ///
    /// - Returns: The step that did not apply (its version, or the start's for the start)
    ///   and why; `nil` when `value` reached the start.
    func takeBackAsFarAsPossible(_ value: inout Value) -> (version: HistoryVersion, error: ReversionError)? {
        for step in undo.reversed() {
            do {
                try step.reversion.revert(&value)
            } catch {
                return (step.version, error)
            }
        }
        do {
            try start?.reversion?.revert(&value)
        } catch {
            return (floor, error)
        }
        return nil
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
