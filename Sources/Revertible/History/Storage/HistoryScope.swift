/// One level of scopes: a tree of versions, rooted at the oldest version undo reaches.
///
/// Each step leads from its parent version to a new one. Undo walks up towards the root; redo
/// walks down the branch visited or made last. A change after an undo adds a branch and keeps
/// the one it left, so nothing is lost.
@usableFromInline
package struct HistoryScope<Value, Annotation> {
    /// The oldest version undo reaches in this scope: its start, unless the history limit
    /// dropped its oldest steps.
    package internal(set) var floor: HistoryVersion
    /// ``RecordedStep/depth`` of the floor.
    @usableFromInline
    var floorDepth = 0
    /// When the floor version was made.
    @usableFromInline
    var floorTime: Duration = .zero
    /// Once the limit has dropped an inner scope's oldest steps: how to get from ``floor``
    /// back to the version the scope started from.
    var start: ScopeStart<Value, Annotation>?
    /// The version the scope is at.
    @usableFromInline
    var current: HistoryVersion
    /// Every step of the scope, by the version it leads to.
    @usableFromInline
    var steps = HistoryStepTable<Value, Annotation>()
    /// The versions each version leads to; redo follows the last.
    @usableFromInline
    var children = HistoryChildren()
    /// The tags this scope moved, each with the version it named before the scope first
    /// moved it, in the order they were first moved: abandoning the scope puts them back.
    package internal(set) var movedTags: [(tag: HistoryTag, version: HistoryVersion)] = []

    init(floor: HistoryVersion, time: Duration = .zero) {
        self.floor = floor
        floorTime = time
        current = floor
    }

    /// The version the scope started from: the version the scope below was at when it was
    /// pushed.
    package var startVersion: HistoryVersion { start?.version ?? floor }

    /// The version the scope is at, for readers outside this module.
    package var currentVersionID: HistoryVersion { current }

    /// The steps the limit folded into the scope's start, if it did: their annotation, and
    /// whether together they changed anything. A replay makes them again.
    package var foldedStart: (annotation: Annotation, changesValue: Bool)? {
        start.map { ($0.annotation, $0.reversion != nil) }
    }

    /// The step that leads to `version`, if it is one of the scope's steps.
    package func step(to version: HistoryVersion) -> RecordedStep<Value, Annotation>? {
        steps[version]
    }

    /// The version `version`'s step starts from; `nil` for the floor or a version not in
    /// the scope.
    package func parent(of version: HistoryVersion) -> HistoryVersion? {
        steps[version]?.parent
    }

    /// The versions `version` leads to; redo follows the last.
    package func children(of version: HistoryVersion) -> [HistoryVersion] {
        children[version].map(Array.init) ?? []
    }

    /// The step that led to the current version; `nil` at the floor.
    @inlinable
    var currentStep: RecordedStep<Value, Annotation>? { steps[current] }

    @inlinable
    func depth(of version: HistoryVersion) -> Int {
        steps.depth(of: version) ?? floorDepth
    }

    @inlinable
    var undoCount: Int { depth(of: current) - floorDepth }

    @inlinable
    var redoCount: Int { redoCount(upTo: .max) }

    /// How many steps redo can take, counting no further than `limit`: a move of `n` steps
    /// checks the branch only that far.
    @inlinable
    func redoCount(upTo limit: Int) -> Int {
        var count = 0
        var version = current
        while count < limit, let next = children[version]?.last {
            count += 1
            version = next
        }
        return count
    }

    /// The steps from the floor to the current version, oldest first.
    package var undo: [RecordedStep<Value, Annotation>] {
        var path: [RecordedStep<Value, Annotation>] = []
        var version = current
        while let step = steps[version] {
            path.append(step)
            version = step.parent
        }
        return path.reversed()
    }

    /// The steps redo would take, along the branch visited or made last, next first.
    package var redo: [RecordedStep<Value, Annotation>] {
        var chain: [RecordedStep<Value, Annotation>] = []
        var version = current
        while let next = children[version]?.last, let step = steps[next] {
            chain.append(step)
            version = next
        }
        return chain
    }

    /// The step a move in `direction` takes: the current version's own going backward, the
    /// last visited child's going forward.
    @inlinable
    func nextStep(_ direction: ReversionDirection) -> RecordedStep<Value, Annotation>? {
        switch direction {
        case .backward: steps[current]
        case .forward: children[current]?.last.flatMap { steps[$0] }
        }
    }

    /// Whether `version` is one of this scope's versions.
    package func contains(_ version: HistoryVersion) -> Bool {
        floor == version || start?.version == version || steps[version] != nil
    }

    /// Adds `step` after the current version and moves there.
    @inlinable
    mutating func append(_ step: RecordedStep<Value, Annotation>) {
        insert(step, after: current)
        current = step.version
    }

    /// Adds `step` as the newest branch of `parent`, a version of this scope, without moving.
    @inlinable
    mutating func insert(_ step: RecordedStep<Value, Annotation>, after parent: HistoryVersion) {
        var step = step
        // One placement, not a setter each: each setter packs all three fields again.
        step.place(parent: parent, depth: depth(of: parent) + 1, authorship: step.authorship)
        let version = step.version
        steps.insert(step)
        children[parent, default: []].append(version)
    }

    /// Moves the current version one step in `direction`, after its reversion was applied.
    /// Going back, the branch left is marked the one redo follows.
    @inlinable
    mutating func passNextStep(_ direction: ReversionDirection) {
        switch direction {
        case .backward:
            guard let step = steps[current] else { return }
            markVisited(current, from: step.parent)
            current = step.parent
        case .forward:
            guard let next = children[current]?.last else { return }
            current = next
        }
    }

    /// Makes `child` the branch of `parent` that redo follows.
    @inlinable
    mutating func markVisited(_ child: HistoryVersion, from parent: HistoryVersion) {
        guard var siblings = children[parent], siblings.last != child,
              let index = siblings.firstIndex(of: child) else { return }
        siblings.remove(at: index)
        siblings.append(child)
        children[parent] = siblings
    }

    /// Replaces the current version's step (a group growing).
    @inlinable
    mutating func replaceCurrentStep(_ step: RecordedStep<Value, Annotation>) {
        steps[current] = step
    }

    /// Removes the current version, a leaf, and moves to its parent (a group that came back
    /// to where it started).
    @usableFromInline
    mutating func removeCurrentLeaf() {
        guard let parent = steps[current]?.parent else { return }
        removeLeaf(current)
        current = parent
    }

    /// The versions on the path from the floor to the current version, the floor included.
    var pathVersions: Set<HistoryVersion> {
        Set(undo.map(\.version) + [floor])
    }

    /// Removes up to `count` versions off the path from the floor to the current version
    /// (abandoned branches, the steps redo would take), each time the oldest that no other
    /// version follows, and returns how many it removed.
    ///
    /// - Complexity: In memory, O(n + k log n) for n steps in the scope and k removed: the path
    ///   is found once, the leaves are taken from a heap (a removed leaf's parent may become
    ///   one), and the table is compacted once. One leaf at a time cost O(n) each (a search for
    ///   the oldest leaf, then a shift of the sorted table), so lowering the limit of a branchy
    ///   history of 10,000 steps took tens of seconds. Over a store, the steps read are those
    ///   off the path and those of the path back to the oldest version that branches (see
    ///   ``offPathLeavesOverStore()``), not every saved step.
    mutating func removeOldestLeavesOffPath(upTo count: Int) -> Int {
        guard count > 0 else { return 0 }
        let (path, initialLeaves) = steps.sourceIsNil ? offPathLeavesInMemory() : offPathLeavesOverStore()
        var leaves = initialLeaves
        var removed: Set<HistoryVersion> = []
        while removed.count < count, let leaf = leaves.popMin() {
            guard let parent = steps[leaf]?.parent else { continue }
            removed.insert(leaf)
            children[parent]?.removeAll { $0 == leaf }
            if children[parent]?.isEmpty == true {
                children[parent] = nil
                // A version of the path other than the current one keeps its child on the
                // path, so only the current version among them gets here: `path` holds it.
                if !path.contains(parent), steps[parent] != nil { leaves.insert(parent) }
            }
        }
        steps.removeAll(removed)
        return removed.count
    }

    /// The whole path, and the leaves off it, from every step.
    private func offPathLeavesInMemory() -> (path: Set<HistoryVersion>, leaves: VersionHeap) {
        let path = pathVersions
        var leaves = VersionHeap()
        for version in steps.keys where !path.contains(version) && children[version]?.isEmpty ?? true {
            leaves.insert(version)
        }
        return (path, leaves)
    }

    /// The path from the current version back to the oldest version that branches, and the
    /// leaves off the path, reading only those steps and the ones off the path.
    ///
    /// The history holds the children of every version that branches (the outline lists
    /// them). Everything off the path hangs from the current version or from a version of the
    /// path that branches; so the part of the path at or after the oldest such version tells
    /// every branch's child on the path from the others, and the leaves are found by walking
    /// down from the others. A version of the path before that part has one child, on the path,
    /// and is never asked about.
    private func offPathLeavesOverStore() -> (path: Set<HistoryVersion>, leaves: VersionHeap) {
        let branching = children.branchPoints
        let oldestBranchDepth = branching.map { depth(of: $0) }.min() ?? depth(of: current)
        var path: Set<HistoryVersion> = [current]
        var version = current
        while let step = steps[version], step.depth > oldestBranchDepth {
            version = step.parent
            path.insert(version)
        }
        var unvisited = children(of: current)
        for branch in branching where branch != current && path.contains(branch) {
            unvisited += children(of: branch).filter { !path.contains($0) }
        }
        var leaves = VersionHeap()
        while let version = unvisited.popLast() {
            let next = children(of: version)
            if next.isEmpty { leaves.insert(version) } else { unvisited += next }
        }
        return (path, leaves)
    }

    /// Removes a version no other version follows.
    mutating func removeLeaf(_ version: HistoryVersion) {
        guard let step = steps.removeValue(forKey: version) else { return }
        children[step.parent]?.removeAll { $0 == version }
        if children[step.parent]?.isEmpty == true { children[step.parent] = nil }
    }

    /// Drops the oldest step on the path, when nothing else branches off the floor: its
    /// version becomes the floor.
    mutating func dropOldestPathStep() -> RecordedStep<Value, Annotation>? {
        guard let next = children[floor], next.count == 1, let step = steps.removeValue(forKey: next[0]) else { return nil }
        children[floor] = nil
        floor = step.version
        floorDepth = step.depth
        floorTime = step.time
        return step
    }
}

extension HistoryScope: Sendable where Value: Sendable, Annotation: Sendable {}
