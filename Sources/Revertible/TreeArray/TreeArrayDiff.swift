/// Compares two versions of a ``TreeArray`` of identifiable values, skipping every subtree
/// they share by identity, and collects what differs in the terms of identifiable arrays:
/// per-element edits by id, and the removed, inserted and moved positions.
///
/// The walk goes down both trees level by level. At each level, the nodes both versions
/// share (the same object, or twins: see ``TreeArrayNode/twinID``) are skipped without being
/// read; runs of nodes that differ are
/// compared pairwise when both sides have as many of them, and otherwise through their
/// children one level lower. Only leaves that differ are compared element by element. A
/// one-element edit in a tree of *n* elements therefore visits O(log *n*) nodes (a few dozen
/// pointer comparisons per level) and reads one leaf per side.
///
/// The walk is inlinable, so that it is specialized for the element type where the
/// comparison is requested (see `Reverter.appendReversion(at:)` for trees): it only collects
/// positions, and runs of elements that do not line up by id. ``makeReversion(at:from:to:ignored:)``
/// then matches those runs by id (dictionary, longest increasing subsequence), unspecialized,
/// at the cost of the change.
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
        for window in windows {
            Self.match(window, edits: &edits, oldSide: &oldSide, newSide: &newSide, ignored: &ignored)
        }
        if windows.count > 1 {
            Self.pairAcrossWindows(oldSide: &oldSide, newSide: &newSide, edits: &edits, ignored: &ignored)
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

    /// Takes out of the structure an element that one window removed and another inserted
    /// though it kept its place among the elements around it (it crossed a leaf's boundary
    /// as its neighbours were removed or inserted); one that changed place becomes a move.
    /// Either way it keeps its edit, if it changed.
    ///
    /// Each window is matched on its own, so such an element would otherwise be stored on
    /// both sides under one id: undo among other writers could then not trust identity, and
    /// refused the whole structure as soon as anyone else changed the list's length (issue
    /// 35: `clear` undone after someone's add restored nothing). An id stored more than once
    /// on a side (a window replaced whole) is left as it is.
    @inlinable
    static func pairAcrossWindows(
        oldSide: inout [(index: Int, source: Source)],
        newSide: inout [(index: Int, source: Source)],
        edits: inout [IdentifiedArrayEdit<Element>],
        ignored: inout [IgnoredProperty<TreeArray<Element>>]
    ) {
        var oldStored: [Element.ID: Int] = [:]
        var repeated = Set<Element.ID>()
        for position in oldSide.indices {
            guard case let .stored(element) = oldSide[position].source else { continue }
            if oldStored.updateValue(position, forKey: element.id) != nil { repeated.insert(element.id) }
        }
        guard !oldStored.isEmpty else { return }
        var pairs: [(old: Int, new: Int, id: Element.ID)] = []
        var newStored = Set<Element.ID>()
        for position in newSide.indices {
            guard case let .stored(element) = newSide[position].source, let oldPosition = oldStored[element.id] else { continue }
            if !newStored.insert(element.id).inserted { repeated.insert(element.id) }
            pairs.append((oldPosition, position, element.id))
        }
        pairs.removeAll { repeated.contains($0.id) }
        guard !pairs.isEmpty else { return }
        var dropOld = Set<Int>()
        var dropNew = Set<Int>()
        for pair in pairs {
            guard case let .stored(oldElement) = oldSide[pair.old].source,
                  case let .stored(newElement) = newSide[pair.new].source else { continue }
            let (oldIndex, newIndex) = (oldSide[pair.old].index, newSide[pair.new].index)
            if oldElement != newElement {
                edit(oldElement, oldIndex, newElement, newIndex, into: &edits, ignored: &ignored)
            }
            // Its place among the elements outside the structure, on each side: equal, it did
            // not move, and leaving both entries out pairs it with itself.
            var oldRank = oldIndex
            for position in oldSide.indices where !dropOld.contains(position) && oldSide[position].index < oldIndex {
                oldRank -= 1
            }
            var newRank = newIndex
            for position in newSide.indices where !dropNew.contains(position) && newSide[position].index < newIndex {
                newRank -= 1
            }
            if oldRank == newRank {
                dropOld.insert(pair.old)
                dropNew.insert(pair.new)
            } else {
                oldSide[pair.old].source = .moved(from: newIndex, id: pair.id)
                newSide[pair.new].source = .moved(from: oldIndex, id: pair.id)
            }
        }
        if !dropOld.isEmpty {
            oldSide = oldSide.indices.filter { !dropOld.contains($0) }.map { oldSide[$0] }
            newSide = newSide.indices.filter { !dropNew.contains($0) }.map { newSide[$0] }
        }
    }

    /// Matches a window's elements by id, as identifiable arrays are compared: the longest
    /// increasing subsequence of the matched elements stays put, the others move; unmatched
    /// elements are removed or inserted. An id repeated on one side replaces the window whole.
    @inlinable
    static func match(
        _ window: (oldStart: Int, old: ContiguousArray<Element>, newStart: Int, new: ContiguousArray<Element>),
        edits: inout [IdentifiedArrayEdit<Element>],
        oldSide: inout [(index: Int, source: Source)],
        newSide: inout [(index: Int, source: Source)],
        ignored: inout [IgnoredProperty<TreeArray<Element>>]
    ) {
        let (oldStart, old, newStart, new) = window
        var oldIndexByID: [Element.ID: Int] = [:]
        var unique = true
        for index in old.indices where oldIndexByID.updateValue(index, forKey: old[index].id) != nil {
            unique = false
        }
        var pairs: [(old: Int, new: Int)] = []
        var matchedOld = Set<Int>()
        var windowOld: [(index: Int, source: Source)] = []
        var windowNew: [(index: Int, source: Source)] = []
        if unique {
            for index in new.indices {
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
            oldSide += old.indices.map { (oldStart + $0, .stored(old[$0])) }
            newSide += new.indices.map { (newStart + $0, .stored(new[$0])) }
            return
        }
        for index in old.indices where !matchedOld.contains(index) {
            windowOld.append((oldStart + index, .stored(old[index])))
        }
        let staying = longestIncreasingSubsequence(pairs.map { $0.old })
        for (position, pair) in pairs.enumerated() {
            let id = new[pair.new].id
            if old[pair.old] != new[pair.new] {
                edit(old[pair.old], oldStart + pair.old, new[pair.new], newStart + pair.new, into: &edits, ignored: &ignored)
            }
            if !staying.contains(position) {
                windowOld.append((oldStart + pair.old, .moved(from: newStart + pair.new, id: id)))
                windowNew.append((newStart + pair.new, .moved(from: oldStart + pair.old, id: id)))
            }
        }
        windowOld.sort { $0.index < $1.index }
        windowNew.sort { $0.index < $1.index }
        oldSide += windowOld
        newSide += windowNew
    }
}
