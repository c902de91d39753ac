/// A decoded ``HistoryArchive``, whole in memory, as the ``HistoryStepStore`` that a history
/// loaded from it reads its steps through (see Archive/History+Archive.swift): a whole archive
/// and a store are then read, and checked, by the same ``HistoryStepSource``, and loading
/// costs one pass over the steps' places in the tree, never over their content.
///
/// Making one checks the structure, which a history needs before it can read any step: the
/// outline has a scope; the steps are as many as it says; each version is saved once, is
/// older than the next version, and lies in a scope that exists; each step's parent is older
/// and is the scope's floor or a step of the same scope (so the parents form one tree per
/// scope, without a cycle); a saved depth is the one the tree gives (a step saved before
/// depths were kept gets it); and each branch list names exactly the branches its version
/// has in its scope, and every version with two branches or more is listed. The rest of a
/// step (its checksum, its change count) is checked where a history first reads it, and
/// whether it applies where the history applies it.
///
/// `@unchecked Sendable`, where `Value` need not be: nothing changes after `init`, and the
/// steps are values whose reversions' nodes are immutable, so reading them from several
/// threads is sound (as in ``HistoryStepSource``'s cache). Internal: only the history loaded
/// from the archive holds one, and it never writes to it (``write(_:)`` refuses; saving goes
/// to a store the caller gives).
final class WholeArchiveStepStore<Value>: HistoryStepStore, @unchecked Sendable {

    typealias Step = HistoryArchive<Value>.Step

    /// The archive's outline, with each scope's step count and the newest time, as the steps
    /// give them.
    let checkedOutline: HistoryArchive<Value>.Outline
    /// The steps, oldest first.
    private let steps: ContiguousArray<Step>
    /// The versions of `steps`, in the same order, and their scope levels: a lookup reads
    /// these alone (in this code, generic over the value, reading a step's field costs about
    /// a copy of the step).
    private let versions: ContiguousArray<HistoryVersion>
    private let levels: ContiguousArray<Int>
    /// Every step's parent and version, sorted by parent: what ``versions(after:)`` searches.
    private let links: ContiguousArray<ArchiveLink>

    /// The store of `archive`, once its structure is checked (see the type's description).
    /// The outline's own facts (versions older than the next one, floor depths in range) are
    /// checked by `History.scopes(of:)` first.
    ///
    /// - Complexity: O(*n*) for *n* steps saved oldest first (as archives are), O(*n* log *n*)
    ///   otherwise; reads no step's content.
    /// - Throws: ``HistoryArchiveError`` naming the first problem, and the step at fault.
    init(_ archive: HistoryArchive<Value>) throws(HistoryArchiveError) {
        let outline = archive.outline
        guard !outline.scopes.isEmpty else { throw HistoryArchiveError("the archive has no scope") }
        if let count = outline.stepCount, count != archive.steps.count {
            throw HistoryArchiveError("the archive says it holds \(count) steps, and holds \(archive.steps.count)")
        }
        var steps = ContiguousArray(archive.steps)
        if !steps.indices.dropFirst().allSatisfy({ steps[$0 - 1].version <= steps[$0].version }) {
            steps.sort { $0.version < $1.version }
        }
        var versions = ContiguousArray<HistoryVersion>()
        var levels = ContiguousArray<Int>()
        var depths = ContiguousArray<Int>()
        var links = ContiguousArray<ArchiveLink>()
        versions.reserveCapacity(steps.count)
        levels.reserveCapacity(steps.count)
        depths.reserveCapacity(steps.count)
        links.reserveCapacity(steps.count)
        var counts = [Int](repeating: 0, count: outline.scopes.count)
        var newest = outline.scopes.reduce(Duration.zero) { max($0, $1.floorTime, $1.start?.time ?? .zero) }
        // Oldest first, so that a step's parent, always older, is placed before it.
        for index in steps.indices {
            let version = steps[index].version
            let parent = steps[index].parent
            let level = steps[index].scopeLevel
            guard outline.scopes.indices.contains(level) else {
                throw HistoryArchiveError("step \(version) is in scope \(level), which does not exist")
            }
            // Parents strictly older: the parents form a tree, never a cycle.
            guard parent < version, version < outline.nextVersion else {
                throw HistoryArchiveError("step \(version) is not newer than its parent \(parent) and older than \(outline.nextVersion)")
            }
            guard versions.last != version else { throw HistoryArchiveError("step \(version) is saved twice") }
            let parentDepth: Int
            if let place = Self.index(of: parent, in: versions), levels[place] == level {
                parentDepth = depths[place]
            } else if parent == outline.scopes[level].floor {
                parentDepth = outline.scopes[level].floorDepth
            } else {
                throw HistoryArchiveError("the parent \(parent) of step \(version) is not in scope \(level)")
            }
            let depth = parentDepth + 1
            if !steps[index].depthIsSaved {
                steps[index] = steps[index].placed(atDepth: depth)
            } else if steps[index].recorded.depth != depth {
                throw HistoryArchiveError("step \(version) says it is at depth \(steps[index].recorded.depth), and its place in scope \(level) puts it at \(depth)")
            }
            versions.append(version)
            levels.append(level)
            depths.append(depth)
            links.append(ArchiveLink(parent: parent, child: version))
            counts[level] += 1
            newest = max(newest, steps[index].time)
        }
        // Already in order for a history without branches, which the sort then only reads.
        links.sort { ($0.parent, $0.child) < ($1.parent, $1.child) }
        self.steps = steps
        self.versions = versions
        self.levels = levels
        self.links = links
        var scopes = outline.scopes
        for level in scopes.indices {
            scopes[level].stepCount = counts[level]
        }
        checkedOutline = HistoryArchive<Value>.Outline(
            nextVersion: outline.nextVersion, scopes: scopes, tags: outline.tags, stepCount: steps.count,
            absorbedWrites: outline.absorbedWrites, newestTime: newest
        )
        try checkBranchLists()
    }

    /// Throws unless each version with two branches or more in a scope is listed there, and
    /// each scope's branch lists name each version once, and exactly the branches that
    /// version has in the scope.
    private func checkBranchLists() throws(HistoryArchiveError) {
        let listed = checkedOutline.scopes.map { Set($0.branchOrder.map(\.parent)) }
        // `links` is sorted by parent: each run of one parent is its branches, in any scope.
        var start = 0
        while start < links.count {
            let parent = links[start].parent
            var end = start + 1
            while end < links.count, links[end].parent == parent { end += 1 }
            if end - start > 1 {
                var counts: [Int: Int] = [:]
                for link in links[start..<end] {
                    counts[levels[Self.index(of: link.child, in: versions)!], default: 0] += 1
                }
                for (level, count) in counts where count > 1 && !listed[level].contains(parent) {
                    throw HistoryArchiveError("version \(parent) leads to \(count) steps in scope \(level), and the outline lists no branches for it")
                }
            }
            start = end
        }
        for (level, scope) in checkedOutline.scopes.enumerated() {
            guard listed[level].count == scope.branchOrder.count else {
                throw HistoryArchiveError("the branches of a version in scope \(level) are saved twice")
            }
            for (parent, listed) in scope.branchOrder {
                let kept = children(of: parent).filter { level == Self.index(of: $0, in: versions).map { levels[$0] } }
                guard Set(kept) == Set(listed), kept.count == listed.count else {
                    throw HistoryArchiveError("the branches of \(parent) in scope \(level) do not match its steps")
                }
            }
        }
    }

    /// The index of `version` in `versions`, which is sorted: the last slot first (a step's
    /// parent is most often the step before it), then the slot at the version's offset from
    /// the first (right for versions made in a row), then by bisection.
    private static func index(of version: HistoryVersion, in versions: ContiguousArray<HistoryVersion>) -> Int? {
        guard let first = versions.first, let last = versions.last, first <= version, version <= last else { return nil }
        if last == version { return versions.count - 1 }
        let offset = version.rawValue - first.rawValue
        if offset < UInt64(versions.count), versions[Int(offset)] == version { return Int(offset) }
        var low = 0
        var high = versions.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            if versions[middle] < version { low = middle + 1 } else { high = middle }
        }
        return versions[low] == version ? low : nil
    }

    /// The versions of the steps whose parent is `parent`, oldest first, whatever their scope.
    private func children(of parent: HistoryVersion) -> [HistoryVersion] {
        var low = 0
        var high = links.count
        while low < high {
            let middle = low + (high - low) / 2
            if links[middle].parent < parent { low = middle + 1 } else { high = middle }
        }
        var children: [HistoryVersion] = []
        while low < links.count, links[low].parent == parent {
            children.append(links[low].child)
            low += 1
        }
        return children
    }

    func outline() -> HistoryArchive<Value>.Outline? {
        checkedOutline
    }

    func step(leadingTo version: HistoryVersion) -> Step? {
        Self.index(of: version, in: versions).map { steps[$0] }
    }

    func versions(after parent: HistoryVersion) -> [HistoryVersion] {
        children(of: parent)
    }

    func versions(inScope level: Int) -> [HistoryVersion] {
        levels.indices.filter { levels[$0] == level }.map { versions[$0] }
    }

    /// Refuses: a history loaded from a whole archive saves to a store the caller gives, and
    /// never to this one, which nothing else can reach.
    func write(_ changes: HistoryArchive<Value>.Changes) throws {
        throw HistoryArchiveError("a history loaded from a whole archive is saved to a store of its own, not to the archive")
    }
}

/// A step's place in the tree, as ``WholeArchiveStepStore`` looks children up: outside the
/// generic store, so that sorting these is compiled for them alone.
private struct ArchiveLink {
    var parent: HistoryVersion
    var child: HistoryVersion
}
