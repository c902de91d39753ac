extension History {

    /// Traps unless every structural fact the engine relies on holds (see
    /// ``invariantViolations()``).
    ///
    /// Debug builds run it after every recorded change and every command on histories small
    /// enough for it to cost little (``checkInvariantsInDebugBuilds()``); the package's
    /// randomized suites run it after every operation whatever the size.
    package func _invariantCheck() {
        let violations = invariantViolations()
        precondition(violations.isEmpty, "History invariant broken: \(violations.joined(separator: "; "))")
    }

    /// The structural facts of this history that do not hold, each said in a sentence; empty
    /// when the history is sound.
    ///
    /// The facts: there is a present and at least one scope; in every scope the present is
    /// one of its versions, every step's parent is one of its versions and older than the
    /// step, a step is one deeper than its parent, the branch lists and the steps name the
    /// same parent-child pairs, each once, and the floor is no step; the branch lists' runs are
    /// in order, apart, and joined wherever one chain continues another; an inner scope starts
    /// where the scope below stands; no step is in two scopes; every version is older than
    /// ``nextVersion``; tags are named once and name versions some scope holds; an open
    /// group belongs to an existing scope; a per-author move reverts an older step.
    ///
    /// - Complexity: O(*n*) for *n* steps in all scopes.
    package func invariantViolations() -> [String] {
        var violations: [String] = []
        if reference == nil { violations.append("the history holds no present") }
        if scopes.isEmpty { return violations + ["there is no scope"] }
        var seenSteps = Set<HistoryVersion>()
        for (level, scope) in scopes.enumerated() {
            violations += Self.violations(of: scope, level: level, nextVersion: nextVersion)
            violations += scope.children.layoutViolations().map { "in scope \(level), \($0)" }
            for version in scope.steps.keys where !seenSteps.insert(version).inserted {
                violations.append("step \(version) is in two scopes")
            }
            if level > 0, scope.startVersion != scopes[level - 1].current {
                violations.append("scope \(level) starts at \(scope.startVersion), but scope \(level - 1) stands at \(scopes[level - 1].current)")
            }
            if level == 0, scope.start != nil {
                violations.append("the outermost scope has a dropped start")
            }
            if Set(scope.movedTags.map(\.tag)).count != scope.movedTags.count {
                violations.append("scope \(level) remembers a moved tag twice")
            }
        }
        if Set(tagged.map(\.tag)).count != tagged.count {
            violations.append("a tag names two versions")
        }
        for (tag, version) in tagged where !scopes.contains(where: { $0.contains(version) }) {
            violations.append("tag \(tag) names \(version), which no scope holds")
        }
        if let group, !scopes.indices.contains(group.scope) {
            violations.append("the open group belongs to scope \(group.scope), which does not exist")
        }
        return violations
    }

    private static func violations(
        of scope: HistoryScope<Value, Annotation>, level: Int, nextVersion: HistoryVersion
    ) -> [String] {
        var violations: [String] = []
        let place = "in scope \(level)"
        if scope.steps[scope.floor] != nil {
            violations.append("the floor \(scope.floor) \(place) is also a step")
        }
        if !(scope.floor < nextVersion) {
            violations.append("the floor \(scope.floor) \(place) is not older than the next version \(nextVersion)")
        }
        if scope.current != scope.floor, scope.steps[scope.current] == nil {
            violations.append("the present \(scope.current) \(place) is not one of its versions")
        }
        var previous: HistoryVersion?
        for step in scope.steps.values {
            let version = step.version
            if let previous, !(previous < version) {
                violations.append("the steps \(place) are not in order of version at \(version)")
            }
            previous = version
            if !(version < nextVersion) {
                violations.append("step \(version) \(place) is not older than the next version \(nextVersion)")
            }
            guard step.parent == scope.floor || scope.steps[step.parent] != nil else {
                violations.append("the parent \(step.parent) of step \(version) is not \(place)")
                continue
            }
            if !(step.parent < version) {
                violations.append("step \(version) \(place) is not newer than its parent \(step.parent)")
            }
            if step.depth != scope.depth(of: step.parent) + 1 {
                violations.append("step \(version) \(place) has depth \(step.depth), its parent \(scope.depth(of: step.parent))")
            }
            let siblings = scope.children[step.parent] ?? []
            if siblings.filter({ $0 == version }).count != 1 {
                violations.append("the branches of \(step.parent) \(place) do not list step \(version) once")
            }
            if step.changeCount < 0 {
                violations.append("step \(version) \(place) has a negative change count")
            }
            if let target = step.authorship?.move?.target, !(target < version) {
                violations.append("step \(version) \(place) reverts step \(target), which is not older")
            }
        }
        guard scope.steps.sourceIsNil else {
            // Over a store, the branch lists in memory are only those that changed: each
            // version's list is read instead.
            let versions = [scope.floor] + scope.steps.keys
            if versions.count - 1 != scope.steps.count {
                violations.append("scope \(level) says it holds \(scope.steps.count) steps, and holds \(versions.count - 1)")
            }
            for parent in versions {
                for child in scope.children[parent] ?? [] where scope.steps[child]?.parent != parent {
                    violations.append("the branches of \(parent) \(place) list \(child), whose parent is another")
                }
            }
            return violations
        }
        var links = 0
        for (parent, children) in scope.children {
            if parent != scope.floor, scope.steps[parent] == nil {
                violations.append("the branches \(place) name \(parent), which is not one of its versions")
            }
            for child in children {
                links += 1
                if scope.steps[child]?.parent != parent {
                    violations.append("the branches of \(parent) \(place) list \(child), whose parent is another")
                }
            }
        }
        if links != scope.steps.count {
            violations.append("the branches \(place) list \(links) steps, the scope holds \(scope.steps.count)")
        }
        return violations
    }

    /// ``_invariantCheck()`` in debug builds, on histories small enough for it to cost little
    /// (as `TreeArray` checks itself): a client's debug build would otherwise pay O(*n*) per
    /// keystroke on a long history. Called from the record and command paths that clients
    /// inline, hence `@usableFromInline`; marking it `@inlinable` too measured no gain (see
    /// the Internals article, "Which marks stay").
    @usableFromInline
    func checkInvariantsInDebugBuilds() {
        #if DEBUG
        // Over a store, checking would read every step, and so change what a command reads;
        // the randomized suites check such histories themselves (`_invariantCheck()`).
        guard !isStored else { return }
        var count = 0
        for scope in scopes { count += scope.steps.count }
        if count <= 1_024 { _invariantCheck() }
        #endif
    }
}
