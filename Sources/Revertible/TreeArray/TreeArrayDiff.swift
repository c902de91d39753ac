/// Compares two versions of a ``TreeArray`` of identifiable values, skipping every subtree
/// they share by identity, and collects what differs in the terms of identifiable arrays:
/// per-element edits by id, and the removed, inserted and moved positions.
///
/// The walk goes down both trees level by level. At each level, the nodes both versions
/// share (the same object, or twins: see ``TreeArrayNode/twinID``) are skipped without being
/// read at the ends of a run and where nodes pair up; inside runs of different lengths only
/// the same objects split the run (a twin there is skipped only where it ends a gap
/// or pairs with its twin). Runs of nodes that differ are
/// compared pairwise when both sides have as many of them, and otherwise through their
/// children one level lower. Only leaves that differ are compared element by element. A
/// one-element edit in a tree of *n* elements therefore visits O(log *n*) nodes (a few dozen
/// pointer comparisons per level) and reads one leaf per side.
///
/// The walk is inlinable, so that it is specialized for the element type where the
/// comparison is requested (see `Reverter.appendReversion(at:)` for trees): it only collects
/// positions, and runs of elements that do not line up by id. ``makeReversion(at:from:to:ignored:)``
/// then matches those runs by id, all at once, at the cost of the change: the elements that
/// stay put are the canonical staying set (``canonicalStaying(_:)``), which depends only on
/// the two sequences of ids, so the step does not depend on how the walk went (which nodes
/// the versions share, where their leaves are cut).
@usableFromInline
struct TreeArrayDiffer<Element: Identifiable & Equatable> {

    @usableFromInline typealias Node = TreeArrayNode<Element>

    /// Positions, in the old and the new tree, of elements with the same id that differ.
    @usableFromInline var changed: [(old: Int, new: Int)] = []
    /// The elements at `changed`'s positions, read by the walk (specialized), so that
    /// ``makeReversion(at:from:to:ignored:)`` (unspecialized) does not descend both trees again for them.
    @usableFromInline var changedElements: ContiguousArray<(old: Element, new: Element)> = []
    /// Runs of elements that do not line up by id, with where they start in each tree.
    @usableFromInline var windows: [(oldStart: Int, old: ContiguousArray<Element>, newStart: Int, new: ContiguousArray<Element>)] = []
    /// The nodes visited: the walk's cost, which tests assert is O(log n) for a small change.
    @usableFromInline var visitedNodes = 0

    @inlinable
    init() {}

    /// Whether the walk found no difference.
    @inlinable
    var isEmpty: Bool {
        changed.isEmpty && windows.isEmpty
    }

    /// Compares `old` with `new`, two whole trees.
    @inlinable
    mutating func compare(old: Node, new: Node) {
        var oldLevel: [Node] = [old]
        var newLevel: [Node] = [new]
        // Bring both to the same height: a root that split or collapsed adds or drops a level.
        while oldLevel[0].height > newLevel[0].height {
            oldLevel = oldLevel.flatMap { $0.children }
            visitedNodes += 1
        }
        while newLevel[0].height > oldLevel[0].height {
            newLevel = newLevel.flatMap { $0.children }
            visitedNodes += 1
        }
        compare(oldLevel[...], newLevel[...], oldStart: 0, newStart: 0, height: oldLevel[0].height)
    }

    /// Compares two runs of sibling-level nodes of `height`, starting at `oldStart` and
    /// `newStart` in their trees.
    @inlinable
    mutating func compare(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) {
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
    @inlinable
    mutating func comparePairs(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) {
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
    @inlinable
    mutating func compareRun(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) {
        if old.count == 1, new.count == 1 {
            // One node each (an insert or a remove below, the usual case): no index of shared
            // nodes to build, and its entries compared in place, not gathered into new arrays.
            let (oldNode, newNode) = (old[old.startIndex], new[new.startIndex])
            visitedNodes += 2
            if !Node.known(oldNode, equalTo: newNode) {
                compare(oldNode, newNode, oldStart: oldStart, newStart: newStart)
            }
            return
        }
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
            // Closures, not `\.children`: a key path into a generic class is instantiated at run
            // time on every call, which cost more than the whole walk.
            compare(Array(old.lazy.flatMap { $0.children })[...], Array(new.lazy.flatMap { $0.children })[...],
                    oldStart: oldStart, newStart: newStart, height: height - 1)
        }
    }

    /// Two nodes at the same place in their trees that are not the same object.
    @inlinable
    mutating func compare(_ old: Node, _ new: Node, oldStart: Int, newStart: Int) {
        if old.isLeaf {
            // Read in place: the two leaves stay alive and unchanged for the comparison.
            old.withElements { oldElements in
                new.withElements { newElements in
                    compareElements(UnsafeBufferPointer(oldElements)[...], UnsafeBufferPointer(newElements)[...], oldStart: oldStart, newStart: newStart)
                }
            }
        } else if old.width == new.width, Node.sameEnds(old, new) {
            // Cut alike (one version made from the other by edits in place, the usual case):
            // each child pairs with the one at its place, read in place rather than gathered
            // into arrays.
            old.withChildren { _, oldChildren in
                new.withChildren { _, newChildren in
                    for position in oldChildren.indices {
                        visitedNodes += 1
                        if !Node.known(oldChildren[position], equalTo: newChildren[position]) {
                            let start = old.start(ofChild: position)
                            compare(oldChildren[position], newChildren[position], oldStart: oldStart + start, newStart: newStart + start)
                        }
                    }
                }
            }
        } else {
            compare(old.children[...], new.children[...], oldStart: oldStart, newStart: newStart, height: old.height - 1)
        }
    }

    /// Splits two runs of nodes at the nodes they share in the same order, if any, and
    /// compares the gaps between them. Returns `false` when they share none.
    ///
    /// Anchors are the same objects only, not twins: a twin in a gap is still skipped where
    /// it meets its twin as a pair, else read. Which nodes anchor changes only the walk's
    /// cost, not the step (see ``match(in:edits:oldSide:newSide:ignored:)``).
    @inlinable
    mutating func splitAtSharedNodes(_ old: ArraySlice<Node>, _ new: ArraySlice<Node>, oldStart: Int, newStart: Int, height: Int) -> Bool {
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
    @inlinable
    mutating func compareElements<Elements: RandomAccessCollection<Element>>(_ old: Elements, _ new: Elements, oldStart: Int, newStart: Int) where Elements.Index == Int {
        let (oldBase, newBase) = (old.startIndex, new.startIndex)
        let shorter = Swift.min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[oldBase + prefix].id == new[newBase + prefix].id {
            if old[oldBase + prefix] != new[newBase + prefix] {
                changed.append((oldStart + prefix, newStart + prefix))
                changedElements.append((old[oldBase + prefix], new[newBase + prefix]))
            }
            prefix += 1
        }
        var suffix = 0
        while suffix < shorter - prefix, old[old.endIndex - 1 - suffix].id == new[new.endIndex - 1 - suffix].id {
            if old[old.endIndex - 1 - suffix] != new[new.endIndex - 1 - suffix] {
                changed.append((oldStart + old.count - 1 - suffix, newStart + new.count - 1 - suffix))
                changedElements.append((old[old.endIndex - 1 - suffix], new[new.endIndex - 1 - suffix]))
            }
            suffix += 1
        }
        guard prefix < old.count - suffix || prefix < new.count - suffix else { return }
        windows.append((
            oldStart + prefix, ContiguousArray(old[(oldBase + prefix) ..< (old.endIndex - suffix)]),
            newStart + prefix, ContiguousArray(new[(newBase + prefix) ..< (new.endIndex - suffix)])
        ))
    }
}

extension TreeArrayDiffer where Element: Versionable {

    @usableFromInline typealias Source = IdentifiedArraySource<Element>

    /// The reversion of `Root`, whose tree is at `keyPath` (`nil`: `Root` is the tree), for
    /// what the walk found between the trees rooted at `old` and `new`, or `nil` when they are
    /// equal.
    ///
    /// Inlinable too, though it runs once per comparison: unspecialized, its arrays of
    /// tuples, dictionary and sorts of generic values cost a metadata lookup per operation,
    /// more than the work itself for a change of one element.
    @inlinable
    func makeReversion<Root>(
        at keyPath: WritableKeyPath<Root, TreeArray<Element>>?,
        from old: Node, to new: Node, ignored: inout [IgnoredProperty<TreeArray<Element>>]
    ) -> Reversion<Root>? {
        guard !isEmpty else { return nil }
        // An element that differs only in properties its type ignores makes no edit, only
        // ignored places. A plain loop: a closure or `zip` costs metadata lookups here,
        // unspecialized.
        var edits: [IdentifiedArrayEdit<Element>] = []
        edits.reserveCapacity(changed.count)
        for position in changed.indices {
            let (pair, elements) = (changed[position], changedElements[position])
            Self.edit(elements.old, pair.old, elements.new, pair.new, into: &edits, ignored: &ignored)
        }
        var oldSide: [(index: Int, source: Source)] = []
        var newSide: [(index: Int, source: Source)] = []
        if !windows.isEmpty {
            match(in: old, edits: &edits, oldSide: &oldSide, newSide: &newSide, ignored: &ignored)
        }
        Self.sortByNewIndex(&edits)
        let structure = oldSide.isEmpty && newSide.isEmpty ? nil : IdentifiedArrayStructure(old: oldSide, new: newSide)
        guard structure != nil || !edits.isEmpty else { return nil }
        return treeArrayReversion(at: keyPath, edits: edits, structure: structure, oldCount: old.count, newCount: new.count)
    }

    /// Puts `edits` in the order of their elements in the newer tree, whatever order the walk
    /// found them in: the walk skips only the nodes the two trees share, so the same two
    /// versions cut into other nodes, or sharing other ones, are walked otherwise (a run of
    /// leaves compared as one lists its edits after an insertion from its end backwards,
    /// leaves compared in pairs from their starts), and a history whose copy of the present is
    /// so cut (a tree the journal rebuilt: `TreeArrayJournalRecord.versionBefore`) would save
    /// the same step in other bytes (issue 39, seed 1428). Edits name distinct elements, so
    /// their order changes nothing they do; a saved step keeps the order it was saved in.
    @inlinable
    static func sortByNewIndex(_ edits: inout [IdentifiedArrayEdit<Element>]) {
        // Nearly always in order already (one edit, or a walk that met them left to right).
        var position = 1
        while position < edits.count, edits[position - 1].newIndex < edits[position].newIndex {
            position += 1
        }
        guard position < edits.count else { return }
        edits.sort { $0.newIndex < $1.newIndex }
    }

    /// Compares an element that kept its identity (and differs), at `oldIndex` and
    /// `newIndex` of the trees: its edit, if anything versioned changed, and the ignored
    /// places inside it.
    @inlinable
    static func edit(
        _ old: Element, _ oldIndex: Int,
        _ new: Element, _ newIndex: Int,
        into edits: inout [IdentifiedArrayEdit<Element>],
        ignored: inout [IgnoredProperty<TreeArray<Element>>]
    ) {
        let difference = new.difference(fromSameIdentity: old)
        if !difference.ignored.isEmpty {
            ignored += difference.ignored.atElement(newIndex, id: new.id, of: TreeArray<Element>.self)
        }
        if let node = difference.node {
            edits.append(IdentifiedArrayEdit(oldIndex: oldIndex, newIndex: newIndex, id: new.id, node: node))
        }
    }

    /// Matches the windows' elements by id, all windows at once, and finds which stay put:
    /// the canonical staying set (see ``canonicalStaying(_:)``) of the sequence of common
    /// elements, so that the step depends only on the two sequences of ids (and the values),
    /// never on how the trees are cut into nodes or which nodes they share (issue 39: the
    /// same two versions walked through other nodes gave other windows, and each window's
    /// own longest increasing subsequence then other moves).
    ///
    /// Every element outside the windows lines up by id with one on the other side, in
    /// order: a run of them between two windows is one block, which stays or moves whole
    /// (any longest increasing subsequence that takes one of its elements takes all of them),
    /// and the runs before the first window and after the last always stay. So the matching
    /// reads the windows' elements and one entry per window, not the trees; only a block
    /// that moves is read, to name its elements' ids.
    ///
    /// An id found twice among the windows' elements on one side (identity cannot be trusted)
    /// replaces every window whole, as the comparison of identifiable arrays does.
    @inlinable
    func match(
        in oldRoot: Node,
        edits: inout [IdentifiedArrayEdit<Element>],
        oldSide: inout [(index: Int, source: Source)],
        newSide: inout [(index: Int, source: Source)],
        ignored: inout [IgnoredProperty<TreeArray<Element>>]
    ) {
        var oldByID: [Element.ID: (window: Int, offset: Int)] = [:]
        var unique = true
        for window in windows.indices {
            let old = windows[window].old
            for offset in old.indices where oldByID.updateValue((window, offset), forKey: old[offset].id) != nil {
                unique = false
            }
        }
        // The common elements and runs between windows in the newer order, with their old
        // position; an element's windows on each side and its offsets there (`-1` for a run).
        var items: [(old: Int, new: Int, weight: Int, oldWindow: Int, oldOffset: Int, newWindow: Int, newOffset: Int)] = []
        var matchedOld = Set<Int>()
        var inserted: [(index: Int, source: Source)] = []
        if unique {
            outer: for window in windows.indices {
                let (_, _, newStart, new) = windows[window]
                for offset in new.indices {
                    guard let match = oldByID[new[offset].id] else {
                        inserted.append((newStart + offset, .stored(new[offset])))
                        continue
                    }
                    let oldIndex = windows[match.window].oldStart + match.offset
                    guard matchedOld.insert(oldIndex).inserted else {
                        unique = false
                        break outer
                    }
                    items.append((oldIndex, newStart + offset, 1, match.window, match.offset, window, offset))
                }
                if window + 1 < windows.count {
                    let oldGap = windows[window].oldStart + windows[window].old.count
                    let newGap = newStart + new.count
                    let length = windows[window + 1].oldStart - oldGap
                    assert(length == windows[window + 1].newStart - newGap, "the runs between windows line up")
                    if length > 0 {
                        items.append((oldGap, newGap, length, -1, 0, -1, 0))
                    }
                }
            }
        }
        guard unique else {
            for window in windows {
                oldSide += window.old.indices.map { (window.oldStart + $0, .stored(window.old[$0])) }
                newSide += window.new.indices.map { (window.newStart + $0, .stored(window.new[$0])) }
            }
            return
        }
        for window in windows {
            for offset in window.old.indices where !matchedOld.contains(window.oldStart + offset) {
                oldSide.append((window.oldStart + offset, .stored(window.old[offset])))
            }
        }
        newSide = inserted
        var positions: [(old: Int, weight: Int)] = []
        positions.reserveCapacity(items.count)
        for item in items {
            positions.append((item.old, item.weight))
            if item.newWindow >= 0 {
                let (oldElement, newElement) = (windows[item.oldWindow].old[item.oldOffset], windows[item.newWindow].new[item.newOffset])
                if oldElement != newElement {
                    Self.edit(oldElement, item.old, newElement, item.new, into: &edits, ignored: &ignored)
                }
            }
        }
        let staying = canonicalStaying(positions)
        for position in items.indices where !staying[position] {
            let item = items[position]
            if item.newWindow >= 0 {
                let id = windows[item.newWindow].new[item.newOffset].id
                oldSide.append((item.old, .moved(from: item.new, id: id)))
                newSide.append((item.new, .moved(from: item.old, id: id)))
            } else {
                var offset = 0
                Self.forEachElement(of: oldRoot, in: item.old ..< item.old + item.weight) { element in
                    oldSide.append((item.old + offset, .moved(from: item.new + offset, id: element.id)))
                    newSide.append((item.new + offset, .moved(from: item.old + offset, id: element.id)))
                    offset += 1
                }
            }
        }
        oldSide.sort { $0.index < $1.index }
        newSide.sort { $0.index < $1.index }
    }

    /// Calls `body` with the elements at `range` of the tree under `node`, in order.
    @inlinable
    static func forEachElement(of node: Node, in range: Range<Int>, _ body: (Element) -> Void) {
        guard !range.isEmpty else { return }
        if node.isLeaf {
            node.withElements { elements in
                for index in range { body(elements[index]) }
            }
            return
        }
        var start = 0
        for child in node.children {
            let end = start + child.count
            if end > range.lowerBound, start < range.upperBound {
                forEachElement(of: child, in: (Swift.max(range.lowerBound, start) - start) ..< (Swift.min(range.upperBound, end) - start), body)
            }
            if end >= range.upperBound { return }
            start = end
        }
    }
}

/// Which of `items` stay put in a tree's step: the canonical staying set.
///
/// `items` are the elements both versions hold, in the newer version's order, each with its
/// position in the older one; a run of such elements that lines up on both sides may come as
/// one item of that `weight`, starting at `old`. The staying set is defined on single
/// elements: of the longest subsequences of the common elements whose old positions
/// increase, the one whose old positions, read in order, are lexicographically smallest.
/// Every other common element moves. It depends only on the two sequences of ids, so the same
/// two versions give the same step however their trees are cut and whatever nodes they
/// share. A run that lines up stays or moves whole (a longest subsequence that takes one of
/// its elements takes all of them), so the set is the same computed on runs or on elements.
///
/// O(*k* log *k*) for *k* items: the longest subsequence starting at each item (by weight,
/// with a Fenwick tree over old positions), then the smallest next item greedily (the items
/// that start longest subsequences of one length have decreasing old positions in the newer
/// order, so the next is found by a binary search).
@usableFromInline
func canonicalStaying(_ items: [(old: Int, weight: Int)]) -> [Bool] {
    let count = items.count
    var isIncreasing = true
    for position in items.indices.dropFirst() where items[position - 1].old >= items[position].old {
        isIncreasing = false
        break
    }
    if isIncreasing {
        return [Bool](repeating: true, count: count)
    }
    let byOld = items.indices.sorted { items[$0].old < items[$1].old }
    var rank = [Int](repeating: 0, count: count)
    for (position, item) in byOld.enumerated() {
        rank[item] = position
    }
    // longest[i]: the weight of the longest increasing subsequence that starts at item i. The
    // Fenwick tree is indexed by reversed rank, so a prefix holds the items of larger old
    // positions met so far (those later in the newer order).
    var fenwick = [Int](repeating: 0, count: count + 1)
    var longest = [Int](repeating: 0, count: count)
    for item in items.indices.reversed() {
        let slot = count - 1 - rank[item]
        var best = 0
        var index = slot
        while index > 0 {
            best = Swift.max(best, fenwick[index])
            index -= index & -index
        }
        longest[item] = items[item].weight + best
        index = slot + 1
        while index <= count {
            fenwick[index] = Swift.max(fenwick[index], longest[item])
            index += index & -index
        }
    }
    var startingWith: [Int: [Int]] = [:]
    for item in items.indices {
        startingWith[longest[item], default: []].append(item)
    }
    var staying = [Bool](repeating: false, count: count)
    var remaining = longest.max() ?? 0
    var (lastOld, lastItem) = (Int.min, -1)
    while remaining > 0 {
        // Old positions decrease along `candidates`: the last one above `lastOld` is the
        // smallest, and it comes after `lastItem` (some candidate does).
        let candidates = startingWith[remaining]!
        var (low, high) = (0, candidates.count)
        while low < high {
            let middle = (low + high) / 2
            if items[candidates[middle]].old > lastOld { low = middle + 1 } else { high = middle }
        }
        let chosen = candidates[low - 1]
        assert(chosen > lastItem, "the next item of the subsequence comes later in the newer order")
        staying[chosen] = true
        remaining -= items[chosen].weight
        (lastOld, lastItem) = (items[chosen].old, chosen)
    }
    return staying
}
