import Synchronization

/// One node of a ``TreeArray``: a leaf holding a short run of elements, or a branch holding
/// child nodes of one lower height.
///
/// Nodes are shared between versions of a tree and never change while shared: a mutation
/// first copies every node on the path it writes that is not uniquely referenced (copy-on-write
/// per node), so two versions share all the nodes that one did not write.
///
/// Internal, but `@usableFromInline`: the collection's hot paths are inlinable, so that they
/// are specialized for the element type in the client's module. The stored properties opt
/// out of dynamic exclusivity checks (a check per access would cost more than the access):
/// a node is only written through the one tree that references it uniquely, inside that
/// tree's own mutating, hence already exclusive, access.
@usableFromInline
final class TreeArrayNode<Element> {

    @usableFromInline typealias Node = TreeArrayNode<Element>

    /// The number of elements in this subtree.
    @exclusivity(unchecked) @usableFromInline var count: Int
    /// `0` for a leaf; a branch's children all have `height - 1`.
    @usableFromInline let height: Int
    /// A leaf's elements, in order. Empty in a branch.
    @exclusivity(unchecked) @usableFromInline var elements: ContiguousArray<Element>
    /// A branch's children, in order. Empty in a leaf.
    @exclusivity(unchecked) @usableFromInline var children: ContiguousArray<Node>
    /// `ends[i]` is the number of elements in `children[0...i]`. Empty in a leaf.
    @exclusivity(unchecked) @usableFromInline var ends: ContiguousArray<Int>

    /// A stamp no other node and no other state of this node ever had: drawn when the node
    /// is made and again each time it is mutated in place. A node's identifier and stamp
    /// together name one exact content, even after the node is freed and its address reused.
    @exclusivity(unchecked) @usableFromInline var stamp: UInt64 = nextTreeArrayStamp()
    /// Another node known to hold exactly the same elements as this one (see
    /// ``TreeArrayChange``), named by its identifier and its stamp at the time: a
    /// comparison of the two may skip them as if they were the same node. `twinStamp` is `0`
    /// when there is no twin; the link no longer holds once either node is mutated.
    @exclusivity(unchecked) @usableFromInline var twinID: ObjectIdentifier?
    @exclusivity(unchecked) @usableFromInline var twinStamp: UInt64 = 0

    @inlinable
    init(leaf elements: ContiguousArray<Element>) {
        self.count = elements.count
        self.height = 0
        self.elements = elements
        self.children = []
        self.ends = []
    }

    @inlinable
    init(height: Int, children: ContiguousArray<Node>) {
        self.height = height
        self.elements = []
        self.children = children
        self.ends = []
        self.count = 0
        recomputeEnds()
    }

    @inlinable
    init(copying node: Node) {
        count = node.count
        height = node.height
        elements = node.isLeaf ? Node.copyBytes(of: node.elements) : []
        children = node.children
        ends = node.ends
    }

    /// A node with the same contents, sharing the children; a leaf's elements are copied
    /// at once (a copy is made to be written).
    @inlinable
    func copy() -> Node {
        Node(copying: self)
    }

    /// A copy of `source` that is byte for byte the same, padding between stored properties
    /// included: an element's copy writes its properties but not the padding, and a history
    /// shares a leaf of the present only when the bytes of every element it did not record
    /// are the same (see `TreeArrayNode.share(_:with:start:edits:)`), so a copy must not make an element
    /// nobody touched look different.
    @inlinable
    static func copyBytes(of source: ContiguousArray<Element>) -> ContiguousArray<Element> {
        source.withUnsafeBufferPointer { source in
            ContiguousArray(unsafeUninitializedCapacity: source.count) { buffer, count in
                guard let from = source.baseAddress, let to = buffer.baseAddress else {
                    count = 0
                    return
                }
                to.initialize(from: from, count: source.count)
                // The properties' bytes are those just written (the references in them
                // retained once more): writing them again changes nothing but the padding.
                UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: source.count * MemoryLayout<Element>.stride)
                count = source.count
            }
        }
    }

    /// Marks this node as about to be mutated in place: a new stamp, and no twin.
    @inlinable @inline(__always)
    func touch() {
        stamp = nextTreeArrayStamp()
        twinStamp = 0
    }

    /// Whether `other` is known to hold exactly this node's elements.
    @inlinable @inline(__always)
    func isTwin(of other: Node) -> Bool {
        twinStamp != 0 && twinStamp == other.stamp && twinID == ObjectIdentifier(other)
    }

    /// Whether the two nodes are known to hold the same elements without reading them: they
    /// are the same node, or twins.
    @inlinable @inline(__always)
    static func known(_ lhs: Node, equalTo rhs: Node) -> Bool {
        lhs === rhs || lhs.isTwin(of: rhs) || rhs.isTwin(of: lhs)
    }

    @inlinable
    var isLeaf: Bool {
        height == 0
    }

    /// The most elements a leaf holds: about 3 KiB of elements, between 8 and 96.
    ///
    /// A trade between scans and edits, measured at a million items: leaves of 1 KiB made
    /// iteration 3.7 × and appends 3.3 × slower than `Array`'s (a leaf change costs cache
    /// misses on a new node and its storage); 3 KiB brings them to 1.6 × and 2.7 ×, while an
    /// edit, which copies one leaf the history shares, stays under 20 µs (4 KiB did not).
    @inlinable
    static var leafCapacity: Int {
        Swift.max(8, Swift.min(96, 3072 / Swift.max(1, MemoryLayout<Element>.stride)))
    }

    /// The most children a branch holds.
    @inlinable
    static var branchCapacity: Int {
        32
    }

    /// The number of entries (elements or children) this node holds.
    @inlinable
    var width: Int {
        isLeaf ? elements.count : children.count
    }

    @inlinable
    var isOverfull: Bool {
        isLeaf ? elements.count > Node.leafCapacity : children.count > Node.branchCapacity
    }

    @inlinable
    var isUnderfull: Bool {
        isLeaf ? elements.count < Node.leafCapacity / 2 : children.count < Node.branchCapacity / 2
    }

    @inlinable
    func recomputeEnds(from start: Int = 0) {
        var total = start > 0 ? ends[start - 1] : 0
        ends.removeSubrange(start...)
        ends.reserveCapacity(children.count)
        for child in children[start...] {
            total += child.count
            ends.append(total)
        }
        count = total
    }

    /// The offset in this subtree where `children[child]` starts.
    @inlinable @inline(__always)
    func start(ofChild child: Int) -> Int {
        child == 0 ? 0 : ends[child - 1]
    }

    /// The child holding the element at `index` (`0 ..< count`), and the element's index
    /// within that child.
    @inlinable @inline(__always)
    func child(containing index: Int) -> (child: Int, offset: Int) {
        // A branch-free binary search with unchecked reads (`ends` is never empty in a
        // branch): the comparisons' outcomes are random, so branches on them would be
        // mispredicted about half the time, which costs more than the reads.
        ends.withUnsafeBufferPointer { ends in
            var base = 0
            var length = ends.count
            while length > 1 {
                let half = length >> 1
                base = ends[base &+ half &- 1] <= index ? base &+ half : base
                length &-= half
            }
            return (base, base == 0 ? index : index &- ends[base &- 1])
        }
    }

    /// The child an insertion at `index` (`0 ... count`) goes into: the one holding the
    /// element now at `index`, or the last child for an append.
    @inlinable @inline(__always)
    func child(insertingAt index: Int) -> (child: Int, offset: Int) {
        index >= count ? (children.count - 1, index - start(ofChild: children.count - 1)) : child(containing: index)
    }

    /// Makes `children[child]` uniquely referenced, copying it if it is shared.
    @inlinable @inline(__always)
    func makeChildUnique(_ child: Int) {
        if !isKnownUniquelyReferenced(&children[child]) {
            children[child] = children[child].copy()
        }
        children[child].touch()
    }

    /// The element at `index` (`0 ..< count`).
    @inlinable
    func element(at index: Int) -> Element {
        var node = self
        var index = index
        while !node.isLeaf {
            let (child, offset) = node.child(containing: index)
            node = node.children[child]
            index = offset
        }
        return node.elements[index]
    }

    // MARK: - Mutation (on a uniquely referenced node)

    /// Inserts `element` at `index` (`0 ... count`). Returns the new right sibling when this
    /// node had to split.
    @inlinable
    func insert(_ element: Element, at index: Int) -> Node? {
        if isLeaf {
            elements.insert(element, at: index)
            count += 1
            return isOverfull ? split(appending: index == elements.count - 1) : nil
        }
        let (child, offset) = child(insertingAt: index)
        makeChildUnique(child)
        if let sibling = children[child].insert(element, at: offset) {
            children.insert(sibling, at: child + 1)
            recomputeEnds(from: child)
            return isOverfull ? split(appending: child + 1 == children.count - 1) : nil
        }
        for position in child ..< ends.count { ends[position] += 1 }
        count += 1
        return nil
    }

    /// Moves the upper part of an overfull node into a new right sibling: half of it, or,
    /// when the entry that overflowed was appended at the end, only that entry, so a tree
    /// built by appending keeps its nodes full.
    @inlinable
    func split(appending: Bool) -> Node {
        if isLeaf {
            let keep = appending ? elements.count - 1 : elements.count / 2
            let moved = ContiguousArray(elements[keep...])
            elements.removeSubrange(keep...)
            count = elements.count
            return Node(leaf: moved)
        }
        let keep = appending ? children.count - 1 : children.count / 2
        let moved = ContiguousArray(children[keep...])
        children.removeSubrange(keep...)
        recomputeEnds()
        return Node(height: height, children: moved)
    }

    /// Removes and returns the element at `index` (`0 ..< count`). Children may become
    /// underfull; this node merges or rebalances them with a neighbour.
    @inlinable
    func remove(at index: Int) -> Element {
        if isLeaf {
            count -= 1
            return elements.remove(at: index)
        }
        let (child, offset) = child(containing: index)
        makeChildUnique(child)
        let removed = children[child].remove(at: offset)
        for position in child ..< ends.count { ends[position] -= 1 }
        count -= 1
        if children[child].isUnderfull, children.count > 1 {
            rebalance(child)
        }
        return removed
    }

    /// Merges the underfull `children[child]` with a neighbour, or, when both do not fit in
    /// one node, shares their entries evenly.
    @inlinable
    func rebalance(_ child: Int) {
        let left = child + 1 < children.count ? child : child - 1
        makeChildUnique(left)
        makeChildUnique(left + 1)
        let (first, second) = (children[left], children[left + 1])
        if first.isLeaf {
            var all = first.elements
            all.append(contentsOf: second.elements)
            if all.count <= Node.leafCapacity {
                first.elements = all
                first.count = all.count
                children.remove(at: left + 1)
            } else {
                let half = all.count / 2
                first.elements = ContiguousArray(all[..<half])
                second.elements = ContiguousArray(all[half...])
                first.count = first.elements.count
                second.count = second.elements.count
            }
        } else {
            var all = first.children
            all.append(contentsOf: second.children)
            if all.count <= Node.branchCapacity {
                first.children = all
                first.recomputeEnds()
                children.remove(at: left + 1)
            } else {
                let half = all.count / 2
                first.children = ContiguousArray(all[..<half])
                second.children = ContiguousArray(all[half...])
                first.recomputeEnds()
                second.recomputeEnds()
            }
        }
        recomputeEnds(from: left)
    }

    // MARK: - Building

    /// A balanced tree of full nodes holding `elements` in order.
    @inlinable
    static func build<S: Sequence<Element>>(_ elements: S) -> Node {
        var leaves: ContiguousArray<Node> = []
        var run = ContiguousArray<Element>()
        let capacity = leafCapacity
        run.reserveCapacity(capacity)
        for element in elements {
            run.append(element)
            if run.count == capacity {
                leaves.append(Node(leaf: run))
                run = []
                run.reserveCapacity(capacity)
            }
        }
        if !run.isEmpty || leaves.isEmpty {
            leaves.append(Node(leaf: run))
        }
        var level = leaves
        var height = 0
        while level.count > 1 {
            height += 1
            var parents: ContiguousArray<Node> = []
            parents.reserveCapacity(level.count / branchCapacity + 1)
            var start = 0
            while start < level.count {
                let end = Swift.min(start + branchCapacity, level.count)
                parents.append(Node(height: height, children: ContiguousArray(level[start ..< end])))
                start = end
            }
            level = parents
        }
        return level[0]
    }

    /// Calls `body` with each leaf's elements, in order.
    @inlinable
    func forEachLeaf(_ body: (ContiguousArray<Element>) throws -> Void) rethrows {
        if isLeaf {
            try body(elements)
        } else {
            for child in children {
                try child.forEachLeaf(body)
            }
        }
    }

    /// Appends the elements of this subtree to `result`.
    func appendElements(to result: inout ContiguousArray<Element>) {
        forEachLeaf { result.append(contentsOf: $0) }
    }
}

/// The source of ``TreeArrayNode/stamp``: never repeats within a process.
private let treeArrayStamps = Atomic<UInt64>(1)

@usableFromInline
func nextTreeArrayStamp() -> UInt64 {
    treeArrayStamps.wrappingAdd(1, ordering: .relaxed).newValue
}
