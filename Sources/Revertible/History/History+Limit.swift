extension History {

    /// Drops steps until at most `limit` remain in all scopes together: first the oldest
    /// versions off the path from each scope's first version to the present (abandoned
    /// branches, the steps redo would take), oldest first; then the oldest steps on the path,
    /// outermost scope first.
    ///
    /// In the outermost scope, the version a dropped path step led to becomes the oldest one
    /// undo reaches, and the versions before it (with their tags) are gone. In an inner scope,
    /// the dropped path steps are folded into the scope's start (see ``ScopeStart``), so
    /// popping the scope still squashes everything it did, and abandoning it still goes back
    /// to where it started, writing only the locations its changes wrote.
    package mutating func trim(to limit: Int?) {
        guard let limit, stepCount > max(limit, 0) else { return }
        var excess = stepCount - max(limit, 0)
        while excess > 0, let (level, leaf) = oldestLeafOffPath() {
            scopes[level].removeLeaf(leaf)
            excess -= 1
        }
        var level = 0
        while excess > 0, level < scopes.count {
            while excess > 0, scopes[level].undoCount > 0 {
                // Untracked changes can conflict with a step; then the scope keeps it.
                if level > 0, !foldOldestStepIntoStart(ofScope: level) { break }
                guard scopes[level].dropOldestPathStep() != nil else { break }
                excess -= 1
                if level == group?.scope, scopes[level].undoCount == 0 { group = nil }
            }
            level += 1
        }
        forgetTagsOfRemovedVersions()
    }

    /// The oldest version, in any scope, off the path to that scope's current version and
    /// followed by no other version.
    private func oldestLeafOffPath() -> (level: Int, version: HistoryVersion)? {
        scopes.indices.compactMap { level in scopes[level].oldestLeafOffPath.map { (level, $0) } }.min { $0.version < $1.version }
    }

    /// Before the limit drops the oldest step of the inner scope at `level`, makes the scope's
    /// start the reversion from the version after that step back to where the scope started.
    ///
    /// - Returns: `false` if the versions involved cannot be rebuilt (an untracked change
    ///   overlaps a step); the step must then stay.
    private mutating func foldOldestStepIntoStart(ofScope level: Int) -> Bool {
        let scope = scopes[level]
        let oldest = scope.undo[0]
        guard let existing = scope.start else {
            // The step itself leads from the new floor back to the start.
            scopes[level].start = ScopeStart(
                version: scope.floor,
                reversion: oldest.reversion,
                annotation: oldest.annotation,
                changeCount: oldest.changeCount,
                time: oldest.time
            )
            return true
        }
        guard var afterOldest = version(ofScope: level) else { return false }
        for step in scope.undo.dropFirst().reversed() {
            guard (try? step.reversion.revert(&afterOldest)) != nil else { return false }
        }
        var start = afterOldest
        do {
            try oldest.reversion.revert(&start)
            try existing.reversion?.revert(&start)
        } catch {
            return false
        }
        scopes[level].start = ScopeStart(
            version: existing.version,
            reversion: afterOldest.reversion(to: start),
            annotation: existing.annotation.merged(with: oldest.annotation),
            changeCount: existing.changeCount + oldest.changeCount,
            time: existing.time
        )
        return true
    }

    /// The version the scope at `level` is at: the current version taken back through every
    /// scope above it to where each started; `nil` if a step no longer applies.
    func version(ofScope level: Int) -> Value? {
        var value = current
        for scope in scopes[(level + 1)...].reversed() {
            guard (try? scope.takeBackToStart(&value)) != nil else { return nil }
        }
        return value
    }
}

extension HistoryScope {

    /// Takes `value`, at this scope's current version, back to the version the scope started
    /// from: every undo step, then the start, if the limit folded steps into it. Not all or
    /// nothing: use it on a copy.
    func takeBackToStart(_ value: inout Value) throws(ReversionError) {
        for step in undo.reversed() {
            try step.reversion.revert(&value)
        }
        try start?.reversion?.revert(&value)
    }
}
