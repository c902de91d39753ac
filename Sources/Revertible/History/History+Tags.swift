extension History {

    /// Names the current version `tag`. A tag names one version: tagging another moves it.
    /// A version may have several tags.
    ///
    /// Inside a scope, the first move of a tag remembers the version it named before, so
    /// abandoning the scope puts it back (see ``restoreTagsMoved(by:)``).
    @usableFromInline
    mutating func tag(_ tag: HistoryTag) {
        if let index = tagged.firstIndex(where: { $0.tag == tag }) {
            let previous = tagged.remove(at: index).version
            if top > 0, previous != currentVersionID, !scopes[top].movedTags.contains(where: { $0.tag == tag }) {
                scopes[top].movedTags.append((tag, previous))
            }
        }
        tagged.append((tag, currentVersionID))
    }

    /// Puts the tags `scope`, just abandoned, moved back on the versions they named before
    /// it moved them, if a scope still holds those versions; otherwise they go.
    mutating func restoreTagsMoved(by scope: HistoryScope<Value, Annotation>) {
        for (tag, version) in scope.movedTags {
            tagged.removeAll { $0.tag == tag }
            if scopes.contains(where: { $0.contains(version) }) {
                tagged.append((tag, version))
            }
        }
    }

    /// Hands the tag moves of `scope`, just popped, to the scope below, which now holds its
    /// changes: abandoning that one puts back what either moved, as it was before both.
    mutating func keepTagsMoved(by scope: HistoryScope<Value, Annotation>) {
        // The outermost scope is never abandoned: there the moves simply stand.
        guard top > 0 else { return }
        for moved in scope.movedTags where !scopes[top].movedTags.contains(where: { $0.tag == moved.tag }) {
            scopes[top].movedTags.append(moved)
        }
    }

    /// The tags of `version`, oldest first.
    @usableFromInline
    package func tags(of version: HistoryVersion) -> [HistoryTag] {
        tagged.filter { $0.version == version }.map(\.tag)
    }

    /// The tags of the current version, oldest first.
    @usableFromInline
    package var currentVersionTags: [HistoryTag] {
        tags(of: currentVersionID)
    }

    /// The tags of a scope's versions: `undo` from the oldest version undo reaches up to and
    /// including the current one, `redo` from the next version on; `nil` for an untagged
    /// version, the newest tag for a version with several. `nil` for a level that does not
    /// exist.
    @usableFromInline
    package func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])? {
        guard scopes.indices.contains(level) else { return nil }
        let scope = scopes[level]
        func newestTag(_ version: HistoryVersion) -> HistoryTag? {
            tagged.last { $0.version == version }?.tag
        }
        return ([newestTag(scope.floor)] + scope.undo.map { newestTag($0.version) }, scope.redo.map { newestTag($0.version) })
    }

    /// The steps of a scope, described: `undo` oldest first, `redo` next first; `nil` for a
    /// level that does not exist.
    @usableFromInline
    package func steps(inScopeLevel level: Int) -> (undo: [HistoryStep], redo: [HistoryStep])? {
        guard scopes.indices.contains(level) else { return nil }
        let scope = scopes[level]
        return (scope.undo.map(describe), scope.redo.map(describe))
    }

    /// The `undo` steps nearest the present that undo would take, oldest first, and the
    /// `redo` steps redo would take, next first, described: what a command that moves a few
    /// steps shows, without reading the rest of a long history.
    package func nearestSteps(undo: Int, redo: Int) -> (undo: [HistoryStep], redo: [HistoryStep]) {
        let scope = scopes[top]
        var back: [HistoryStep] = []
        var version = scope.current
        while back.count < undo, let step = scope.steps[version] {
            back.append(describe(step))
            version = step.parent
        }
        var forward: [HistoryStep] = []
        version = scope.current
        while forward.count < redo, let next = scope.children[version]?.last, let step = scope.steps[next] {
            forward.append(describe(step))
            version = next
        }
        return (back.reversed(), forward)
    }

    /// A step, as history views show it.
    func describe(_ step: RecordedStep<Value, Annotation>) -> HistoryStep {
        HistoryStep(
            label: step.annotation.label,
            changeCount: step.changeCount,
            tags: tags(of: step.version),
            time: step.time,
            version: step.version,
            parent: step.parent,
            author: step.author
        )
    }

    /// Where the version tagged `tag` is, seen from the present.
    @usableFromInline
    package func location(of tag: some Hashable & Sendable) -> HistoryTagLocation {
        let tag = HistoryTag(tag)
        guard let version = tagged.last(where: { $0.tag == tag })?.version else { return .unknown }
        let scope = scopes[top]
        if version == scope.current { return .present }
        if version == scope.floor { return .behind(steps: scope.undoCount) }
        if let index = scope.undo.firstIndex(where: { $0.version == version }) {
            return .behind(steps: scope.undoCount - 1 - index)
        }
        if let index = scope.redo.firstIndex(where: { $0.version == version }) {
            return .ahead(steps: index + 1)
        }
        if scope.steps[version] != nil { return .onAnotherBranch }
        for level in scopes.indices.dropLast().reversed() where scopes[level].contains(version) {
            return .outsideCurrentScope(level: level)
        }
        return .unknown
    }

    /// Moves the tags of `old`, a version that is going away, to `new`, an equal one.
    mutating func retag(_ old: HistoryVersion, as new: HistoryVersion) {
        for index in tagged.indices where tagged[index].version == old {
            tagged[index].version = new
        }
    }

    /// Drops the tags of versions no scope holds any more.
    mutating func forgetTagsOfRemovedVersions() {
        guard !tagged.isEmpty else { return }
        tagged.removeAll { entry in !scopes.contains { $0.contains(entry.version) } }
    }
}

extension History {

    /// The steps that leave `version` in the current scope, the one redo follows last.
    @usableFromInline
    package func branches(from version: HistoryVersion) -> [HistoryStep] {
        (scopes[top].children[version] ?? []).compactMap { scopes[top].steps[$0] }.map(describe)
    }

    /// Every step of the current scope, in the order they were made; their `parent`s link
    /// them into the tree rooted at the scope's oldest version.
    @usableFromInline
    package func tree() -> [HistoryStep] {
        scopes[top].steps.values.sorted { $0.version < $1.version }.map(describe)
    }
}
