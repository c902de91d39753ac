extension History {

    /// Drops steps of the current scope until at most `limit` remain in it: first the oldest
    /// versions off the path from the scope's first version to the present (abandoned
    /// branches, the steps redo would take), oldest first; then the oldest steps on the path.
    ///
    /// Only the current scope is trimmed: a scope never costs anything older than its own
    /// start, so the steps of the scopes below stay as they were until it ends, and the limit
    /// applies to the scope below once it is popped or abandoned (every command trims).
    ///
    /// In the outermost scope, the version a dropped path step led to becomes the oldest one
    /// undo reaches, and the versions before it (with their tags) are gone. In an inner scope,
    /// the dropped path steps are folded into the scope's start (see ``ScopeStart``), so
    /// popping the scope still squashes everything it did, and abandoning it still goes back
    /// to where it started, writing only the locations its changes wrote.
    ///
    /// Every command and every recorded step trims, from paths clients inline, hence
    /// `@usableFromInline`; marking it `@inlinable` for its first test (nearly always
    /// nothing to drop) measured no gain (see the Internals article, "Which marks stay").
    @usableFromInline
    package mutating func trim(to limit: Int?) {
        guard let limit, scopes[top].steps.count > max(limit, 0) else { return }
        dropOldestSteps(toLeave: limit)
    }

    /// The work of ``trim(to:)`` once the current scope holds more than `limit` steps.
    @usableFromInline
    mutating func dropOldestSteps(toLeave limit: Int) {
        var excess = scopes[top].steps.count - max(limit, 0)
        excess -= scopes[top].removeOldestLeavesOffPath(upTo: excess)
        while excess > 0, scopes[top].undoCount > 0 {
            var dropped = 1
            if top > 0 {
                // Absorbed changes can conflict with a step: then the fold is made selectively.
                guard let folded = foldOldestStepsIntoStart(atLeast: excess) ?? foldOldestStepsSelectively(excess) else { break }
                dropped = folded
            }
            for _ in 0..<dropped {
                guard scopes[top].dropOldestPathStep() != nil else { break }
            }
            excess -= dropped
            if top == group?.scope, scopes[top].undoCount == 0 { group = nil }
        }
        forgetTagsOfRemovedVersions()
    }

    /// Folds every step of the current scope, an inner one, into the scope's start, as the
    /// limit folds the steps it drops: undo no longer reaches them, while popping and
    /// abandoning the scope still take them into account. A replayed history (the undoable
    /// reducer's `restore`) rebuilds a start the limit made as the scope's first steps and
    /// folds them here, before the scope's other steps are made: trimming to the limit would
    /// instead drop the oldest branches first.
    package mutating func foldPathIntoStart() {
        var remaining = scopes[top].undoCount
        while top > 0, remaining > 0 {
            guard let folded = foldOldestStepsIntoStart(atLeast: remaining) ?? foldOldestStepsSelectively(remaining) else { break }
            for _ in 0..<folded {
                guard scopes[top].dropOldestPathStep() != nil else { break }
            }
            remaining -= folded
        }
        if top == group?.scope, scopes[top].undoCount == 0 { group = nil }
        forgetTagsOfRemovedVersions()
    }

    /// Before the limit drops the oldest steps on the path of the current scope, an inner
    /// one, folds at least `count` of them into the scope's start: the start becomes one
    /// reversion from the version after them back to where the scope started.
    ///
    /// The folded reversion is one fresh comparison, which cannot see a location that the
    /// folded steps left equal to the start but spelled differently (`"é"` as `"e\u{301}"`):
    /// abandoning the scope would leave it spelled the new way, and the scope below, whose
    /// steps check exact bytes, could then no longer undo or pop. So a fold is checked by
    /// replaying the steps it replaces over its result, and where that fails, the versions
    /// the scope keeps take the start's spelling there (see ``respellKeptVersions(after:start:reversion:kept:)``).
    ///
    /// - Returns: How many steps were folded (the caller drops as many), or `nil` if the
    ///   versions involved cannot be rebuilt (an untracked change overlaps a step); the steps
    ///   must then stay.
    private mutating func foldOldestStepsIntoStart(atLeast count: Int) -> Int? {
        let path = scopes[top].undo
        guard top > 0, count > 0, count <= path.count else { return nil }
        // The version after the `folded` oldest steps: the current version taken back.
        var after = current
        var folded = path.count
        do {
            while folded > count {
                folded -= 1
                try path[folded].reversion.revert(&after)
            }
            while true {
                if foldIntoStart(path[..<folded], after: after, keeping: path[folded...]) { return folded }
                // Only an untracked change in the way gets here: try with one more step.
                guard folded < path.count else { return nil }
                try path[folded].reversion.inverted.revert(&after)
                folded += 1
            }
        } catch {
            return nil
        }
    }

    /// Folds the `count` oldest steps on the path of the current scope, an inner one, into
    /// its start where an absorbed change keeps them from being folded exactly: the versions
    /// involved are rebuilt by taking the steps back selectively, so a location another
    /// writer changed keeps that writer's value in them, and the start holds only what the
    /// folded steps did elsewhere.
    ///
    /// - Returns: `count`, or `nil` if the scope holds fewer steps on its path.
    private mutating func foldOldestStepsSelectively(_ count: Int) -> Int? {
        let path = scopes[top].undo
        guard top > 0, count > 0, count <= path.count else { return nil }
        var after = current
        for step in path[count...].reversed() {
            revertSkippingConflicts(step.reversion, &after, step: step.version)
        }
        var started = after
        for step in path[..<count].reversed() {
            revertSkippingConflicts(step.reversion, &started, step: step.version)
        }
        let existing = scopes[top].start
        if let existing, let start = existing.reversion {
            revertSkippingConflicts(start, &started, step: existing.version)
        }
        let annotations = (existing.map { [$0.annotation] } ?? []) + path[..<count].map(\.annotation)
        scopes[top].start = ScopeStart(
            version: existing?.version ?? scopes[top].floor,
            reversion: after.reversion(to: started),
            annotation: annotations.dropFirst().reduce(annotations[0]) { $0.merged(with: $1) },
            changeCount: (existing?.changeCount ?? 0) + path[..<count].reduce(0) { $0 + $1.changeCount },
            time: existing?.time ?? path.first!.time
        )
        return count
    }

    /// Makes the start of the current scope the reversion from `after`, the version `steps`
    /// (the scope's oldest) lead to, back to where the scope started, if it can be made
    /// exact; `kept` are the steps that stay.
    private mutating func foldIntoStart(
        _ steps: ArraySlice<RecordedStep<Value, Annotation>>,
        after: Value,
        keeping kept: ArraySlice<RecordedStep<Value, Annotation>>
    ) -> Bool {
        let scope = scopes[top]
        let existing = scope.start
        let annotations = (existing.map { [$0.annotation] } ?? []) + steps.map(\.annotation)
        func start(_ reversion: Reversion<Value>?) -> ScopeStart<Value, Annotation> {
            ScopeStart(
                version: existing?.version ?? scope.floor,
                reversion: reversion,
                annotation: annotations.dropFirst().reduce(annotations[0]) { $0.merged(with: $1) },
                changeCount: (existing?.changeCount ?? 0) + steps.reduce(0) { $0 + $1.changeCount },
                time: existing?.time ?? steps.first!.time,
                author: commonAuthor((existing.map { [$0.author] } ?? []) + steps.map(\.author))
            )
        }
        if existing == nil, steps.count == 1 {
            // The step itself leads from the new floor back to the start, exactly.
            scopes[top].start = start(steps.first!.reversion)
            return true
        }
        var started = after
        var check = after
        do {
            for step in steps.reversed() {
                try step.reversion.revert(&started)
            }
            try existing?.reversion?.revert(&started)
        } catch {
            return false
        }
        let reversion = after.reversion(to: started)
        // Replayed over the fold's result, the steps it replaces must find the very bytes
        // they were made from.
        var isExact = true
        do {
            try reversion?.revert(&check)
            try existing?.reversion?.inverted.revert(&check)
            for step in steps {
                try step.reversion.inverted.revert(&check)
            }
        } catch {
            isExact = false
        }
        guard isExact || respellKeptVersions(after: after, start: started, reversion: reversion, kept: kept) else { return false }
        scopes[top].start = start(reversion)
        return true
    }

    /// Gives the versions the current scope keeps (from `after`, its new oldest, to the
    /// current version) the spelling of `start` wherever `reversion`, the fold from `after`
    /// back to `start`, leaves a location equal but spelled differently: the new oldest version
    /// becomes `start` taken forward by the fold, and each kept step is replayed from there
    /// (made again by one comparison where it no longer applies). The history's copy of the
    /// present then spells those locations as `start` does, as after popping a scope; the
    /// present itself is equal to it.
    ///
    /// - Returns: `false`, changing nothing, if the kept versions cannot be rebuilt.
    private mutating func respellKeptVersions(
        after: Value,
        start: Value,
        reversion: Reversion<Value>?,
        kept: ArraySlice<RecordedStep<Value, Annotation>>
    ) -> Bool {
        var respelled = start
        if let reversion, (try? reversion.inverted.revert(&respelled)) == nil { return false }
        var original = after
        var remade: [RecordedStep<Value, Annotation>] = []
        var beforeLast = respelled
        for step in kept {
            var next = original
            guard (try? step.reversion.inverted.revert(&next)) != nil else { return false }
            beforeLast = respelled
            if (try? step.reversion.inverted.revert(&respelled)) == nil {
                guard let fresh = next.reversion(to: respelled),
                      (try? fresh.inverted.revert(&respelled)) != nil else { return false }
                var step = step
                step.reversion = fresh
                remade.append(step)
            }
            original = next
        }
        for step in remade {
            scopes[top].steps[step.version] = step
        }
        reference = respelled
        // The open group diffs against the version before its step, which now has the new
        // spelling too.
        if var open = group, open.scope == top, !kept.isEmpty {
            open.base = beforeLast
            group = open
        }
        return true
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
