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
package final class TreeArrayNode<Element> {

    @usableFromInline package typealias Node = TreeArrayNode<Element>

    /// The number of elements in this subtree.
    @exclusivity(unchecked) @usableFromInline package var count: Int
    /// `0` for a leaf; a branch's children all have `height - 1`.
    @usableFromInline package let height: Int
    /// A leaf's elements, in order. Empty in a branch.
    @exclusivity(unchecked) @usableFromInline package var elements: ContiguousArray<Element>
    /// A branch's children, in order. Empty in a leaf.
    @exclusivity(unchecked) @usableFromInline package var children: ContiguousArray<Node>
    /// `ends[i]` is the number of elements in `children[0...i]`. Empty in a leaf.
    @exclusivity(unchecked) @usableFromInline package var ends: ContiguousArray<Int>
    /// A leaf's order keys, one per element: strictly increasing along the whole tree, so an
    /// element is found from its key in O(log *n*) (the identity index maps ids to keys).
    /// Empty in a branch.
    @exclusivity(unchecked) @usableFromInline package var keys: ContiguousArray<UInt64>
    /// `lastKeys[i]` is the last key in `children[i]`. Empty in a leaf.
    @exclusivity(unchecked) @usableFromInline package var lastKeys: ContiguousArray<UInt64>
    /// The identity index of the tree this node is the root of, made on the first lookup by id.
    @usableFromInline package let identityCell = AtomicLazyReference<TreeArrayIdentityCell<Element>>()

    /// A stamp no other node and no other state of this node ever had: drawn when the node
    /// is made and again each time it is mutated in place. A node's identifier and stamp
    /// together name one exact content, even after the node is freed and its address reused.
    @exclusivity(unchecked) @usableFromInline package var stamp: UInt64 = nextTreeArrayStamp()
    /// Another node known to hold exactly the same elements as this one (see
    /// ``TreeArrayChange``), named by its identifier and its stamp at the time: a
    /// comparison of the two may skip them as if they were the same node. `twinStamp` is `0`
    /// when there is no twin; the link no longer holds once either node is mutated.
    @exclusivity(unchecked) @usableFromInline package var twinID: ObjectIdentifier?
    @exclusivity(unchecked) @usableFromInline package var twinStamp: UInt64 = 0

    @inlinable
    package init(leaf elements: ContiguousArray<Element>, keys: ContiguousArray<UInt64>) {
        self.count = elements.count
        self.height = 0
        self.elements = elements
        self.keys = keys
        self.children = []
        self.ends = []
        self.lastKeys = []
    }

    @inlinable
    package init(height: Int, children: ContiguousArray<Node>) {
        self.height = height
        self.elements = []
        self.keys = []
        self.children = children
        self.ends = []
        self.lastKeys = []
        self.count = 0
        recomputeEnds()
    }

    @inlinable
    package init(copying node: Node) {
        count = node.count
        height = node.height
        elements = node.isLeaf ? Node.copyBytes(of: node.elements) : []
        keys = node.keys
        children = node.children
        ends = node.ends
        lastKeys = node.lastKeys
    }

    /// Where this node, as a root, keeps its identity index, if a lookup by id made a place.
    @inlinable @inline(__always)
    package var existingIdentityCell: TreeArrayIdentityCell<Element>? {
        identityCell.load()
    }

    /// Where this node, as a root, keeps its identity index, made if it has none.
    @inlinable
    package var identityCellMakingOne: TreeArrayIdentityCell<Element> {
        identityCell.load() ?? identityCell.storeIfNil(TreeArrayIdentityCell())
    }

    /// A node with the same contents, sharing the children; a leaf's elements are copied
    /// at once (a copy is made to be written).
    @inlinable
    package func copy() -> Node {
        Node(copying: self)
    }

    /// A copy of `source` that is byte for byte the same, padding between stored properties
    /// included: an element's copy writes its properties but not the padding, and a history
    /// shares a leaf of the present only when the bytes of every element it did not record
    /// are the same (see `TreeArrayNode.share(_:with:start:edits:)`), so a copy must not make an element
    /// nobody touched look different.
    @inlinable
    package static func copyBytes(of source: ContiguousArray<Element>) -> ContiguousArray<Element> {
        // Made with no capacity, an array is the shared empty singleton, and the initializer
        // still writes its count there: a write to one global from every thread that copies
        // an empty leaf (ThreadSanitizer reports it).
        guard !source.isEmpty else { return [] }
        return source.withUnsafeBufferPointer { source in
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
    package func touch() {
        stamp = nextTreeArrayStamp()
        twinStamp = 0
    }

    /// Whether `other` is known to hold exactly this node's elements.
    @inlinable @inline(__always)
    package func isTwin(of other: Node) -> Bool {
        twinStamp != 0 && twinStamp == other.stamp && twinID == ObjectIdentifier(other)
    }

    /// Whether the two nodes are known to hold the same elements without reading them: they
    /// are the same node, or twins.
    @inlinable @inline(__always)
    package static func known(_ lhs: Node, equalTo rhs: Node) -> Bool {
        lhs === rhs || lhs.isTwin(of: rhs) || rhs.isTwin(of: lhs)
    }

    @inlinable
    package var isLeaf: Bool {
        height == 0
    }

    /// The most elements a leaf holds: about 3 KiB of elements, between 8 and 96.
    ///
    /// A trade between scans and edits, measured at a million items: leaves of 1 KiB made
    /// iteration 3.7 × and appends 3.3 × slower than `Array`'s (a leaf change costs cache
    /// misses on a new node and its storage); 3 KiB brings them to 1.6 × and 2.7 ×, while an
    /// edit, which copies one leaf the history shares, stays under 20 µs (4 KiB did not).
    @inlinable
    package static var leafCapacity: Int {
        Swift.max(8, Swift.min(96, 3072 / Swift.max(1, MemoryLayout<Element>.stride)))
    }

    /// The most children a branch holds.
    @inlinable
    package static var branchCapacity: Int {
        32
    }

    /// The number of entries (elements or children) this node holds.
    @inlinable
    package var width: Int {
        isLeaf ? elements.count : children.count
    }

    @inlinable
    package var isOverfull: Bool {
        isLeaf ? elements.count > Node.leafCapacity : children.count > Node.branchCapacity
    }

    @inlinable
    package var isUnderfull: Bool {
        isLeaf ? elements.count < Node.leafCapacity / 2 : children.count < Node.branchCapacity / 2
    }

    @inlinable
    package func recomputeEnds(from start: Int = 0) {
        var total = start > 0 ? ends[start - 1] : 0
        ends.removeSubrange(start...)
        ends.reserveCapacity(children.count)
        lastKeys.removeSubrange(start...)
        lastKeys.reserveCapacity(children.count)
        for child in children[start...] {
            total += child.count
            ends.append(total)
            // An empty child (only ever passing, in a removal) takes the key before it, so
            // the last keys never decrease.
            lastKeys.append(child.count > 0 ? child.lastKey : (lastKeys.last ?? 0))
        }
        count = total
    }

    /// The key of the last element in this subtree; `0` when it is empty.
    @inlinable
    package var lastKey: UInt64 {
        (isLeaf ? keys.last : lastKeys.last) ?? 0
    }

    // MARK: - Order keys

    /// Keys run from 1 to `UInt64.max - 1`; `0` and `UInt64.max` stand for "before the first"
    /// and "after the last".
    @inlinable
    package static var keyGap: UInt64 { 1 << 32 }

    /// A key strictly between `lower` and `upper`, or `nil` when none is left. At either end
    /// of the tree the key steps by a fixed gap, so appending or prepending keeps room for
    /// billions more; between two keys it takes the middle.
    @inlinable @inline(__always)
    package static func key(between lower: UInt64, and upper: UInt64) -> UInt64? {
        let room = upper &- lower
        guard room >= 2 else { return nil }
        if upper == .max { return lower + Swift.min(keyGap, room / 2) }
        if lower == 0 { return upper - Swift.min(keyGap, room / 2) }
        return lower + room / 2
    }

    /// The keys a tree built from `count` elements gives them: evenly spaced, starting from
    /// the middle of the key space.
    @inlinable
    package static func initialKeySpacing(count: Int) -> UInt64 {
        count < (1 << 30) ? keyGap : (UInt64(1) << 63) / UInt64(count + 1)
    }

    /// The spacing a subtree of `height` must get to be relabeled in place; a subtree that
    /// cannot leaves the relabeling to its parent. Growing with height, so that the work of
    /// relabeling a subtree pays for many insertions before it runs out again (the root
    /// always relabels).
    @inlinable
    package static func minimumRelabelSpacing(height: Int) -> UInt64 {
        UInt64(1) << UInt64(Swift.min(40, 8 * (height + 1)))
    }

    /// Spreads the keys of this subtree evenly between `lower` and `upper` (exclusive), when
    /// that leaves at least `minimum` between neighbours; `identities` learns each new key.
    /// Returns whether it did.
    @inlinable
    package func relabel(between lower: UInt64, and upper: UInt64, minimum: UInt64, identities: inout TreeArrayIdentities<Element>?) -> Bool {
        let spacing = (upper - lower) / UInt64(count + 2)
        guard spacing >= Swift.max(minimum, 2) else { return false }
        var next = lower
        relabel(next: &next, spacing: spacing, identities: &identities)
        return true
    }

    @inlinable
    package func relabel(next: inout UInt64, spacing: UInt64, identities: inout TreeArrayIdentities<Element>?) {
        if isLeaf {
            for position in keys.indices {
                next += spacing
                identities?.rekey(elements[position], from: keys[position], to: next)
                keys[position] = next
            }
            return
        }
        for child in children.indices {
            makeChildUnique(child)
            children[child].relabel(next: &next, spacing: spacing, identities: &identities)
            lastKeys[child] = children[child].lastKey
        }
    }

    /// The position of the element holding `key` in this subtree, if any.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    package func position(ofKey key: UInt64) -> Int? {
        unowned(unsafe) var node = self
        var position = 0
        while node.height != 0 {
            let child = node.lastKeys.withUnsafeBufferPointer { lastKeys in
                var low = 0
                var high = lastKeys.count
                while low < high {
                    let middle = (low + high) / 2
                    if lastKeys[middle] < key { low = middle + 1 } else { high = middle }
                }
                return low
            }
            guard child < node.children.count else { return nil }
            position += node.start(ofChild: child)
            node = node.children.withUnsafeBufferPointer { $0[child] }
        }
        let offset = node.keys.withUnsafeBufferPointer { keys in
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low
        }
        guard offset < node.keys.count, node.keys[offset] == key else { return nil }
        return position + offset
    }

    /// The offset in this subtree where `children[child]` starts.
    @inlinable @inline(__always)
    package func start(ofChild child: Int) -> Int {
        child == 0 ? 0 : ends[child - 1]
    }

    /// The child holding the element at `index` (`0 ..< count`), and the element's index
    /// within that child.
    @inlinable @inline(__always)
    package func child(containing index: Int) -> (child: Int, offset: Int) {
        // The buffer's address is taken out of the closure, so that the search runs without
        // the array retained: this node keeps `ends` alive and unchanged for the call, and a
        // retain (an atomic write) per level would also stop the processor from overlapping
        // the cache misses of consecutive lookups.
        let ends = ends.withUnsafeBufferPointer { $0 }
        return Node.search(ends, for: index)
    }

    /// The child of a branch whose running `ends` (never empty) hold the element at
    /// `index`, and the element's index within that child.
    @inlinable @inline(__always)
    package static func search(_ ends: UnsafeBufferPointer<Int>, for index: Int) -> (child: Int, offset: Int) {
        // A count of the ends at most `index` instead of a binary search: the loop has no
        // branch on the data, so the compiler vectorizes it, and nothing is mispredicted (a
        // binary search's outcomes are random, and the compiler turns its selects into
        // branches); a misprediction would also discard the loads the processor has started
        // for the lookups after this one.
        let base = ends.baseAddress.unsafelyUnwrapped
        let last = ends.count &- 1
        var above = 0
        for position in 0 ..< last {
            // 1 when the end is above `index`: the sign of the difference, as arithmetic.
            above &+= Int(bitPattern: UInt(bitPattern: index &- base[position]) &>> 63)
        }
        let child = last &- above
        return (child, child == 0 ? index : index &- base[child &- 1])
    }

    /// The address of the element at `index` (`0 ..< count`) in the subtree of `root`, found
    /// without retaining any node or buffer on the way: valid as long as the caller keeps
    /// `root` alive and unmutated.
    ///
    /// Unmanaged, not a method of the root: a call on a node read from a tree held in
    /// memory the caller may write (a captured variable, a class's property) retains it
    /// for the whole call, and that atomic write, after the element's load, stops the
    /// processor from overlapping the cache misses of consecutive lookups.
    ///
    /// - Complexity: O(log *n*).
    @inlinable @inline(__always)
    package static func address(in root: Unmanaged<Node>, at index: Int) -> UnsafePointer<Element> {
        var index = index
        var node = root
        while node._withUnsafeGuaranteedRef({ $0.height }) != 0 {
            node = node._withUnsafeGuaranteedRef { branch in
                let (child, offset) = Node.search(branch.ends.withUnsafeBufferPointer { $0 }, for: index)
                index = offset
                return Unmanaged.passUnretained(branch.children.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped[child] })
            }
        }
        return node._withUnsafeGuaranteedRef { leaf in
            leaf.elements.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped + index }
        }
    }

    /// The child an insertion at `index` (`0 ... count`) goes into: the one holding the
    /// element now at `index`, or the last child for an append.
    @inlinable @inline(__always)
    package func child(insertingAt index: Int) -> (child: Int, offset: Int) {
        index >= count ? (children.count - 1, index - start(ofChild: children.count - 1)) : child(containing: index)
    }

    /// Makes `children[child]` uniquely referenced, copying it if it is shared.
    @inlinable @inline(__always)
    package func makeChildUnique(_ child: Int) {
        if !isKnownUniquelyReferenced(&children[child]) {
            children[child] = children[child].copy()
        }
        children[child].touch()
    }

    /// The element at `index` (`0 ..< count`).
    @inlinable
    package func element(at index: Int) -> Element {
        Node.address(in: Unmanaged.passUnretained(self), at: index).pointee
    }

    // MARK: - Mutation (on a uniquely referenced node)

    /// Inserts `element` at `index` (`0 ... count`), with a key between `lower` and `upper`
    /// (the keys just outside this subtree, exclusive), and tells `identities`. Returns
    /// `false` when no key fits and this subtree could not be relabeled (nothing changed),
    /// and the new right sibling when this node had to split.
    @inlinable
    package func insert(
        _ element: Element, at index: Int, between lower: UInt64, and upper: UInt64,
        identities: inout TreeArrayIdentities<Element>?
    ) -> (inserted: Bool, sibling: Node?) {
        if isLeaf {
            var key = Node.key(between: index > 0 ? keys[index - 1] : lower, and: index < keys.count ? keys[index] : upper)
            if key == nil {
                guard relabel(between: lower, and: upper, minimum: Node.minimumRelabelSpacing(height: 0), identities: &identities) else {
                    return (false, nil)
                }
                key = Node.key(between: index > 0 ? keys[index - 1] : lower, and: index < keys.count ? keys[index] : upper)
            }
            let newKey = key.unsafelyUnwrapped
            elements.insert(element, at: index)
            keys.insert(newKey, at: index)
            count += 1
            identities?.insert(element, key: newKey)
            return (true, isOverfull ? split(appending: index == elements.count - 1) : nil)
        }
        let (child, offset) = child(insertingAt: index)
        makeChildUnique(child)
        // Only an append reaches the end of a child, and only of the last one, so the bound
        // after any other child is its own last key (kept: relabeling stays at or below it).
        let childLower = child > 0 ? lastKeys[child - 1] : lower
        let childUpper = child + 1 < children.count ? lastKeys[child] &+ 1 : upper
        let (inserted, sibling) = children[child].insert(element, at: offset, between: childLower, and: childUpper, identities: &identities)
        if !inserted {
            guard relabel(between: lower, and: upper, minimum: Node.minimumRelabelSpacing(height: height), identities: &identities) else {
                return (false, nil)
            }
            return insert(element, at: index, between: lower, and: upper, identities: &identities)
        }
        if let sibling {
            children.insert(sibling, at: child + 1)
            recomputeEnds(from: child)
            return (true, isOverfull ? split(appending: child + 1 == children.count - 1) : nil)
        }
        for position in child ..< ends.count { ends[position] += 1 }
        lastKeys[child] = children[child].lastKey
        count += 1
        return (true, nil)
    }

    /// Moves the upper part of an overfull node into a new right sibling: half of it, or,
    /// when the entry that overflowed was appended at the end, only that entry, so a tree
    /// built by appending keeps its nodes full.
    @inlinable
    package func split(appending: Bool) -> Node {
        if isLeaf {
            let keep = appending ? elements.count - 1 : elements.count / 2
            let moved = ContiguousArray(elements[keep...])
            var movedKeys = ContiguousArray<UInt64>()
            // Room for a full leaf at once: keys are small, and growing them step by step
            // costs an append a reallocation every few elements.
            movedKeys.reserveCapacity(Node.leafCapacity + 1)
            movedKeys.append(contentsOf: keys[keep...])
            elements.removeSubrange(keep...)
            keys.removeSubrange(keep...)
            count = elements.count
            return Node(leaf: moved, keys: movedKeys)
        }
        let keep = appending ? children.count - 1 : children.count / 2
        let moved = ContiguousArray(children[keep...])
        children.removeSubrange(keep...)
        recomputeEnds()
        return Node(height: height, children: moved)
    }

    /// Removes and returns the element at `index` (`0 ..< count`), with its key. Children may
    /// become underfull; this node merges or rebalances them with a neighbour.
    @inlinable
    package func remove(at index: Int) -> (element: Element, key: UInt64) {
        if isLeaf {
            count -= 1
            return (elements.remove(at: index), keys.remove(at: index))
        }
        let (child, offset) = child(containing: index)
        makeChildUnique(child)
        let removed = children[child].remove(at: offset)
        for position in child ..< ends.count { ends[position] -= 1 }
        count -= 1
        if children[child].count == 0, children.count > 1 {
            // Emptied (a branch left with one child merges nothing): dropped, so no empty
            // node stays below the root.
            children.remove(at: child)
            recomputeEnds(from: child)
        } else {
            lastKeys[child] = children[child].count > 0 ? children[child].lastKey : (child > 0 ? lastKeys[child - 1] : 0)
            if children[child].isUnderfull, children.count > 1 {
                rebalance(child)
            }
        }
        return removed
    }

    /// Merges the underfull `children[child]` with a neighbour, or, when both do not fit in
    /// one node, shares their entries evenly.
    @inlinable
    package func rebalance(_ child: Int) {
        let left = child + 1 < children.count ? child : child - 1
        makeChildUnique(left)
        makeChildUnique(left + 1)
        let (first, second) = (children[left], children[left + 1])
        if first.isLeaf {
            var all = first.elements
            all.append(contentsOf: second.elements)
            var allKeys = first.keys
            allKeys.append(contentsOf: second.keys)
            if all.count <= Node.leafCapacity {
                first.elements = all
                first.keys = allKeys
                first.count = all.count
                children.remove(at: left + 1)
            } else {
                let half = all.count / 2
                first.elements = ContiguousArray(all[..<half])
                second.elements = ContiguousArray(all[half...])
                first.keys = ContiguousArray(allKeys[..<half])
                second.keys = ContiguousArray(allKeys[half...])
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
    package static func build<S: Sequence<Element>>(_ elements: S) -> Node {
        var leaves: ContiguousArray<Node> = []
        var run = ContiguousArray<Element>()
        var runKeys = ContiguousArray<UInt64>()
        let capacity = leafCapacity
        run.reserveCapacity(capacity)
        runKeys.reserveCapacity(capacity)
        let spacing = initialKeySpacing(count: elements.underestimatedCount)
        var key = UInt64(1) << 63
        for element in elements {
            run.append(element)
            runKeys.append(key)
            // An underestimated count may leave too little room: the rest goes halfway to the end.
            key += key < UInt64.max - 2 * spacing ? spacing : (UInt64.max - key) / 2
            if run.count == capacity {
                leaves.append(Node(leaf: run, keys: runKeys))
                run = []
                runKeys = []
                run.reserveCapacity(capacity)
                runKeys.reserveCapacity(capacity)
            }
        }
        if !run.isEmpty || leaves.isEmpty {
            leaves.append(Node(leaf: run, keys: runKeys))
        }
        var level = leaves
        var height = 0
        defer {
            if key >= UInt64.max - 1, let root = level.first {
                // More elements than their count promised used up the keys: spread them out.
                var none: TreeArrayIdentities<Element>?
                _ = root.relabel(between: 0, and: .max, minimum: 2, identities: &none)
            }
        }
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
    package func forEachLeaf(_ body: (ContiguousArray<Element>) throws -> Void) rethrows {
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
package func nextTreeArrayStamp() -> UInt64 {
    treeArrayStamps.wrappingAdd(1, ordering: .relaxed).newValue
}
