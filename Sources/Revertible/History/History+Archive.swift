extension History {

    /// This history without its current version, for saving. Encodes nothing.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    package var archive: HistoryArchive<Value> {
        var steps: [HistoryArchive<Value>.Step] = []
        var outlines: [HistoryArchive<Value>.Outline.Scope] = []
        for (level, scope) in scopes.enumerated() {
            for step in scope.steps.values {
                steps.append(.init(
                    version: step.version,
                    parent: step.parent,
                    scopeLevel: level,
                    label: step.annotation.label,
                    time: step.time,
                    changeCount: step.changeCount,
                    reversion: step.reversion
                ))
            }
            outlines.append(.init(
                floor: scope.floor,
                floorDepth: scope.floorDepth,
                floorTime: scope.floorTime,
                current: scope.current,
                start: scope.start.map {
                    .init(version: $0.version, reversion: $0.reversion, label: $0.annotation.label, changeCount: $0.changeCount, time: $0.time)
                },
                branchOrder: scope.children.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value)) },
                movedTags: scope.movedTags
            ))
        }
        steps.sort { $0.version < $1.version }
        return HistoryArchive(outline: .init(nextVersion: nextVersion, scopes: outlines, tags: tagged), steps: steps)
    }

    /// The history `archive` describes, at `present`.
    ///
    /// Checks what costs little: the tree's structure (every step's parent is in its scope,
    /// versions are unique and older than their steps, scopes stand on versions they hold,
    /// tags name kept versions, tags moved in a scope name versions made before) and that `present` is the version the archive stands at, as
    /// far as the steps next to it can tell (the step undo would take, and each branch redo
    /// could take, applies to it).
    ///
    /// - Throws: ``HistoryArchiveError`` naming the first problem found.
    package init(present: Value, archive: HistoryArchive<Value>) throws(HistoryArchiveError) {
        let outline = archive.outline
        guard !outline.scopes.isEmpty else { throw HistoryArchiveError("the archive has no scope") }
        var scopes = outline.scopes.map { saved -> HistoryScope<Value, Annotation> in
            var scope = HistoryScope<Value, Annotation>(floor: saved.floor, time: saved.floorTime)
            scope.floorDepth = saved.floorDepth
            scope.current = saved.current
            scope.start = saved.start.map {
                ScopeStart(version: $0.version, reversion: $0.reversion, annotation: Annotation(savedLabel: $0.label), changeCount: $0.changeCount, time: $0.time)
            }
            scope.movedTags = saved.movedTags
            return scope
        }
        var seen = Set<HistoryVersion>()
        for (level, scope) in scopes.enumerated() {
            for version in [scope.floor, scope.start?.version].compactMap({ $0 }) where version >= outline.nextVersion {
                throw HistoryArchiveError("version \(version) of scope \(level) is not older than the next version, \(outline.nextVersion)")
            }
            // A moved tag's earlier version may be gone (the limit): it is then not given back.
            for (tag, version) in scope.movedTags where version >= outline.nextVersion {
                throw HistoryArchiveError("tag \(tag), moved in scope \(level), names \(version), which is not older than the next version, \(outline.nextVersion)")
            }
            guard level > 0 || scope.movedTags.isEmpty else { throw HistoryArchiveError("the outermost scope cannot have moved tags") }
            guard Set(scope.movedTags.map(\.tag)).count == scope.movedTags.count else {
                throw HistoryArchiveError("a tag moved in scope \(level) is saved twice")
            }
            // Bounded, so depths computed from it cannot overflow.
            guard (0..<(1 << 48)).contains(scope.floorDepth) else { throw HistoryArchiveError("scope \(level) has an impossible depth, \(scope.floorDepth)") }
        }
        // Oldest first, so a step's parent is in place before it.
        for step in archive.steps.sorted(by: { $0.version < $1.version }) {
            guard scopes.indices.contains(step.scopeLevel) else {
                throw HistoryArchiveError("step \(step.version) is in scope \(step.scopeLevel), which does not exist")
            }
            guard step.parent < step.version, step.version < outline.nextVersion else {
                throw HistoryArchiveError("step \(step.version) is not newer than its parent \(step.parent) and older than \(outline.nextVersion)")
            }
            guard seen.insert(step.version).inserted else { throw HistoryArchiveError("step \(step.version) is saved twice") }
            guard step.changeCount >= 0 else { throw HistoryArchiveError("step \(step.version) has a negative change count") }
            // In place: a copy of the scope would copy its tables on every step.
            let level = step.scopeLevel
            guard step.parent == scopes[level].floor || scopes[level].steps[step.parent] != nil else {
                throw HistoryArchiveError("the parent \(step.parent) of step \(step.version) is not in scope \(level)")
            }
            scopes[level].insert(RecordedStep(
                reversion: step.reversion,
                version: step.version,
                annotation: Annotation(savedLabel: step.label),
                time: step.time,
                changeCount: step.changeCount
            ), after: step.parent)
        }
        for (level, saved) in outline.scopes.enumerated() {
            for (parent, children) in saved.branchOrder {
                guard let kept = scopes[level].children[parent], Set(kept) == Set(children), kept.count == children.count else {
                    throw HistoryArchiveError("the branches of \(parent) in scope \(level) do not match its steps")
                }
                scopes[level].children[parent] = HistoryVersionList(children)
            }
            let scope = scopes[level]
            guard scope.current == scope.floor || scope.steps[scope.current] != nil else {
                throw HistoryArchiveError("scope \(level) stands at \(scope.current), which it does not hold")
            }
            if level > 0 {
                guard scope.startVersion == scopes[level - 1].current else {
                    throw HistoryArchiveError("scope \(level) does not start where scope \(level - 1) stands")
                }
            }
        }
        self.init(present)
        self.scopes = scopes
        nextVersion = outline.nextVersion
        tagged = outline.tags
        guard Set(tagged.map(\.tag)).count == tagged.count else { throw HistoryArchiveError("a tag is saved twice") }
        for (tag, version) in tagged where !scopes.contains(where: { $0.contains(version) }) {
            throw HistoryArchiveError("tag \(tag) names \(version), which the archive does not hold")
        }
        try checkPresent()
    }

    /// Whether the steps next to the current version apply to the present: a cheap sign
    /// that the archive was saved with this present.
    private func checkPresent() throws(HistoryArchiveError) {
        let scope = scopes[top]
        var neighbours: [(Reversion<Value>, String)] = []
        if let step = scope.steps[scope.current] {
            neighbours.append((step.reversion, "the step to \(step.version)"))
        }
        for child in scope.children[scope.current] ?? [] {
            if let step = scope.steps[child] {
                neighbours.append((step.reversion.inverted, "the step to \(step.version)"))
            }
        }
        for (reversion, name) in neighbours where !reversion.canRevert(current) {
            let place = reversion.refusedKeyPath(in: current).map { " at \($0)" } ?? ""
            throw HistoryArchiveError("the present is not the version the history stands at: \(name) does not apply\(place)")
        }
    }
}
