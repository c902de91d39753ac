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
    mutating func popCurrentScope(_ value: inout Value) throws(ReversionError) {
        guard top > 0 else { throw .noScopeToPop }
        let scope = scopes[top]
        var start = value
        try scope.takeBackToStart(&start)
        scopes.removeLast()
        keepTagsMoved(by: scope)
        // The scopes below were recorded against `start`'s exact bytes, which equality cannot
        // tell from a canonically equivalent re-spelling the popped scope made (`"é"` as
        // `"e\u{301}"`): so the value goes back to `start` and takes the squashed change
        // forward, as `record` does, instead of keeping the popped scope's bytes.
        let end = value
        value = start
        guard let squashed = end.reversion(to: start) else {
            // Nothing changed in all: the version the scope ended on is the start.
            retag(scope.current, as: scope.startVersion)
            forgetTagsOfRemovedVersions()
            return
        }
        try squashed.inverted.revert(&value)
        push(RecordedStep(
            reversion: squashed,
            version: scope.current,
            annotation: scope.squashedAnnotation,
            time: scope.start?.time ?? scope.undo.first?.time ?? .zero,
            changeCount: (scope.start?.changeCount ?? 0) + scope.undo.reduce(0) { $0 + $1.changeCount }
        ))
        forgetTagsOfRemovedVersions()
    }

    /// Abandons the current scope: takes `value` back to the version the scope started from
    /// (undoing all of its steps), then removes it with its redo steps, and puts the tags it
    /// moved back where they were. All or nothing.
    ///
    /// - Returns: Whether the value changed.
    mutating func undoAndPopCurrentScope(_ value: inout Value) throws(ReversionError) -> Bool {
        guard top > 0 else { throw .noScopeToPop }
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
