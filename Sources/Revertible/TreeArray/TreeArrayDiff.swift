/// Compares two versions of a ``TreeArray`` of identifiable values, skipping every subtree
/// they share by identity, and collects what differs in the terms of identifiable arrays:
/// per-element edits by id, and the removed, inserted and moved positions.
///
/// The walk goes down both trees level by level. At each level, the nodes both versions
/// share (the same object, or twins: see ``TreeArrayNode/twin``) are skipped without being
/// read; runs of nodes that differ are
/// compared pairwise when both sides have as many of them, and otherwise through their
/// children one level lower. Only leaves that differ are compared element by element. A
/// one-element edit in a tree of *n* elements therefore visits O(log *n*) nodes (a few dozen
/// pointer comparisons per level) and reads one leaf per side.
struct TreeArrayDiffer<Element: Identifiable & Versionable> {

    typealias Node = TreeArrayNode<Element>
    typealias Source = IdentifiedArraySource<Element>

    private(set) var edits: [IdentifiedArrayEdit<Element>] = []
    private(set) var oldSide: [(index: Int, source: Source)] = []
    private(set) var newSide: [(index: Int, source: Source)] = []
    /// The nodes visited: the walk's cost, which tests assert is O(log n) for a small change.
    private(set) var visitedNodes = 0

    /// Compares `old` with `new`, two whole trees.
    mutating func compare(old: Node, new: Node) {
        var oldLevel: [Node] = [old]
        var newLevel: [Node] = [new]
        // Bring both to the same height: a root that split or collapsed adds or drops a level.
        while oldLevel[0].height > newLevel[0].height {
            oldLevel = oldLevel.flatMap(\.children)
            visitedNodes += 1
        }
        while newLevel[0].height > oldLevel[0].height {
            newLevel = newLevel.flatMap(\.children)
            visitedNodes += 1
        }
        compare(oldLevel[...], newLevel[...], oldStart: 0, newStart: 0, height: oldLevel[0].height)
    }

    /// The reversion node for what was found between the trees rooted at `old` and `new`, or
    /// `nil` when they are equal.
    func makeNode(from old: Node, to new: Node) -> TreeArrayReversion<Element>? {
        let structure = oldSide.isEmpty && newSide.isEmpty ? nil : IdentifiedArrayStructure(old: oldSide, new: newSide)
        guard structure != nil || !edits.isEmpty else { return nil }
        return TreeArrayReversion(edits: edits, structure: structure, from: old, to: new)
    }

    /// Compares two runs of sibling-level nodes of `height`, starting at `oldStart` and
    /// `newStart` in their trees.
    private mutating func compare(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) {
        var (oldLow, newLow) = (old.startIndex, new.startIndex)
        var (oldStart, newStart) = (oldStart, newStart)
        while oldLow < old.endIndex, newLow < new.endIndex, Node.known(old[oldLow], equalTo: new[newLow]) {
            visitedNodes += 1
            oldStart += old[oldLow].count
            newStart += new[newLow].count
            oldLow += 1
            newLow += 1
        }
        var (oldHigh, newHigh) = (old.endIndex, new.endIndex)
        while oldHigh > oldLow, newHigh > newLow, Node.known(old[oldHigh - 1], equalTo: new[newHigh - 1]) {
            visitedNodes += 1
            oldHigh -= 1
            newHigh -= 1
        }
        let (oldMiddle, newMiddle) = (old[oldLow ..< oldHigh], new[newLow ..< newHigh])
        if oldMiddle.isEmpty, newMiddle.isEmpty { return }

        if oldMiddle.count == newMiddle.count {
            comparePairs(oldMiddle, newMiddle, oldStart: oldStart, newStart: newStart, height: height)
        } else {
            compareRun(oldMiddle, newMiddle, oldStart: oldStart, newStart: newStart, height: height)
        }
    }

    /// Two runs of as many nodes each. A pair is compared on its own only where both runs
    /// are cut at the same offset before and after it; where the cuts differ (elements moved
    /// between neighbours by a split or a rebalance), the pairs up to the next common cut are
    /// compared as one run, so that equal contents in differently cut nodes compare equal.
    private mutating func comparePairs(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) {
        let shift = new.startIndex - old.startIndex
        var groupStart = old.startIndex
        var (groupOldStart, groupNewStart) = (oldStart, newStart)
        var (oldRun, newRun) = (0, 0)
        for position in old.indices {
            oldRun += old[position].count
            newRun += new[position + shift].count
            guard oldRun == newRun else { continue }
            if position == groupStart {
                visitedNodes += 1
                let (oldNode, newNode) = (old[position], new[position + shift])
                if !Node.known(oldNode, equalTo: newNode) {
                    compare(oldNode, newNode, oldStart: groupOldStart, newStart: groupNewStart)
                }
            } else {
                compareRun(old[groupStart ... position], new[groupStart + shift ... position + shift],
                           oldStart: groupOldStart, newStart: groupNewStart, height: height)
            }
            groupOldStart += oldRun
            groupNewStart += newRun
            (oldRun, newRun) = (0, 0)
            groupStart = position + 1
        }
        if groupStart < old.endIndex {
            compareRun(old[groupStart...], new[(groupStart + shift)...], oldStart: groupOldStart, newStart: groupNewStart, height: height)
        }
    }

    /// Two runs of nodes cut differently: split at the nodes they share, else compared through
    /// their children, or element by element at the leaves.
    private mutating func compareRun(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) {
        if splitAtSharedNodes(old, new, oldStart: oldStart, newStart: newStart, height: height) {
            return
        }
        if height == 0 {
            var oldElements = ContiguousArray<Element>()
            var newElements = ContiguousArray<Element>()
            for node in old { visitedNodes += 1; oldElements.append(contentsOf: node.elements) }
            for node in new { visitedNodes += 1; newElements.append(contentsOf: node.elements) }
            compareElements(oldElements[...], newElements[...], oldStart: oldStart, newStart: newStart)
        } else {
            visitedNodes += old.count + new.count
            compare(Array(old.lazy.flatMap(\.children))[...], Array(new.lazy.flatMap(\.children))[...],
                    oldStart: oldStart, newStart: newStart, height: height - 1)
        }
    }

    /// Two nodes at the same place in their trees that are not the same object.
    private mutating func compare(_ old: Node, _ new: Node, oldStart: Int, newStart: Int) {
        if old.isLeaf {
            compareElements(old.elements[...], new.elements[...], oldStart: oldStart, newStart: newStart)
        } else {
            compare(old.children[...], new.children[...], oldStart: oldStart, newStart: newStart, height: old.height - 1)
        }
    }

    /// Splits two runs of nodes at the nodes they share in the same order, if any, and
    /// compares the gaps between them. Returns `false` when they share none.
    private mutating func splitAtSharedNodes(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) -> Bool {
        var newPositions: [ObjectIdentifier: Int] = [:]
        newPositions.reserveCapacity(new.count)
        for position in new.indices {
            newPositions[ObjectIdentifier(new[position])] = position
        }
        var anchors: [(old: Int, new: Int)] = []
        var lastNew = new.startIndex - 1
        for position in old.indices {
            if let match = newPositions[ObjectIdentifier(old[position])], match > lastNew {
                anchors.append((position, match))
                lastNew = match
            }
        }
        guard !anchors.isEmpty else { return false }
        var (oldFrom, newFrom) = (old.startIndex, new.startIndex)
        var (oldOffset, newOffset) = (oldStart, newStart)
        for anchor in anchors + [(old.endIndex, new.endIndex)] {
            let (oldGap, newGap) = (old[oldFrom ..< anchor.old], new[newFrom ..< anchor.new])
            if !oldGap.isEmpty || !newGap.isEmpty {
                compare(oldGap, newGap, oldStart: oldOffset, newStart: newOffset, height: height)
            }
            oldOffset += oldGap.reduce(0) { $0 + $1.count }
            newOffset += newGap.reduce(0) { $0 + $1.count }
            if anchor.old < old.endIndex {
                visitedNodes += 1
                oldOffset += old[anchor.old].count
                newOffset += new[anchor.new].count
            }
            (oldFrom, newFrom) = (anchor.old + 1, anchor.new + 1)
        }
        return true
    }

    /// Compares two runs of elements, which start at `oldStart` and `newStart` in their
    /// trees, as identifiable arrays are compared: the common ends by id (recording edits),
    /// then the rest matched by id, with the longest increasing subsequence of the matched
    /// elements staying put and the others moving.
    private mutating func compareElements(_ old: ArraySlice<Element>, _ new: ArraySlice<Element>, oldStart: Int, newStart: Int) {
        let old = ContiguousArray(old)
        let new = ContiguousArray(new)
        let shorter = Swift.min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix].id == new[prefix].id {
            recordEdit(old, prefix, new, prefix, oldStart: oldStart, newStart: newStart)
            prefix += 1
        }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix].id == new[new.count - 1 - suffix].id {
            recordEdit(old, old.count - 1 - suffix, new, new.count - 1 - suffix, oldStart: oldStart, newStart: newStart)
            suffix += 1
        }
        let oldWindow = prefix ..< old.count - suffix
        let newWindow = prefix ..< new.count - suffix
        guard !oldWindow.isEmpty || !newWindow.isEmpty else { return }

        var oldIndexByID: [Element.ID: Int] = [:]
        var unique = true
        for index in oldWindow where oldIndexByID.updateValue(index, forKey: old[index].id) != nil {
            unique = false
        }
        var pairs: [(old: Int, new: Int)] = []
        var matchedOld = Set<Int>()
        var windowOld: [(index: Int, source: Source)] = []
        var windowNew: [(index: Int, source: Source)] = []
        if unique {
            for index in newWindow {
                if let oldIndex = oldIndexByID[new[index].id] {
                    guard matchedOld.insert(oldIndex).inserted else { unique = false; break }
                    pairs.append((oldIndex, index))
                } else {
                    windowNew.append((newStart + index, .stored(new[index])))
                }
            }
        }
        guard unique else {
            // An id occurs twice on one side: identity cannot be trusted, replace the window.
            oldSide += oldWindow.map { (oldStart + $0, .stored(old[$0])) }
            newSide += newWindow.map { (newStart + $0, .stored(new[$0])) }
            return
        }
        for index in oldWindow where !matchedOld.contains(index) {
            windowOld.append((oldStart + index, .stored(old[index])))
        }
        let staying = longestIncreasingSubsequence(pairs.map(\.old))
        for (position, pair) in pairs.enumerated() {
            recordEdit(old, pair.old, new, pair.new, oldStart: oldStart, newStart: newStart)
            if !staying.contains(position) {
                let id = new[pair.new].id
                windowOld.append((oldStart + pair.old, .moved(from: newStart + pair.new, id: id)))
                windowNew.append((newStart + pair.new, .moved(from: oldStart + pair.old, id: id)))
            }
        }
        windowOld.sort { $0.index < $1.index }
        windowNew.sort { $0.index < $1.index }
        oldSide += windowOld
        newSide += windowNew
    }

    /// Records the edit inside an element that kept its id, if it changed.
    @inline(__always)
    private mutating func recordEdit(
        _ old: ContiguousArray<Element>, _ oldIndex: Int,
        _ new: ContiguousArray<Element>, _ newIndex: Int,
        oldStart: Int, newStart: Int
    ) {
        guard old[oldIndex] != new[newIndex] else { return }
        edits.append(IdentifiedArrayEdit(
            oldIndex: oldStart + oldIndex,
            newIndex: newStart + newIndex,
            id: new[newIndex].id,
            node: new[newIndex].differingNode(from: old[oldIndex])
        ))
    }
}
