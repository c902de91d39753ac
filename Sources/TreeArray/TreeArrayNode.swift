import Synchronization

/// The fixed part of a ``TreeArrayNode``: what a node knows about itself besides its entries.
@usableFromInline
package struct TreeArrayNodeHeader {
    /// The number of elements in the subtree.
    @usableFromInline package var count: Int
    /// The number of entries in use: a leaf's elements, a branch's children.
    @usableFromInline package var width: Int
    /// The number of entries the node's storage has room for.
    @usableFromInline package var slots: Int
    /// `0` for a leaf; a branch's children all have `height - 1`.
    @usableFromInline package var height: Int
    /// A branch's stride: the count of each of its children but the last, when they all
    /// hold that many and the last at most as many (as in a tree built in one piece or by
    /// appending); `0` when they do not or it is not known (an insertion or removal in
    /// place forgets it, a rebuild of the ends finds it again), and in a leaf. See
    /// ``TreeArrayNode/element(in:at:)``.
    @usableFromInline package var childSize: Int
    /// See ``TreeArrayNode/stamp``.
    @usableFromInline package var stamp: UInt64
    /// See ``TreeArrayNode/twinID``.
    @usableFromInline package var twinStamp: UInt64
    @usableFromInline package var twinID: ObjectIdentifier?
    /// A leaf's order keys, one per element; a branch's last keys, one per child. Apart from
    /// the entries: only lookups by id, insertions and comparisons read them, never a read
    /// by position.
    @usableFromInline package var keys: ContiguousArray<UInt64>

    @inlinable
    package init(height: Int, slots: Int, keys: ContiguousArray<UInt64>) {
        self.count = 0
        self.width = 0
        self.slots = slots
        self.height = height
        self.childSize = 0
        self.stamp = nextTreeArrayStamp()
        self.twinStamp = 0
        self.twinID = nil
        self.keys = keys
    }
}

/// One node of a ``TreeArray``: a leaf holding a short run of elements, or a branch holding
/// child nodes of one lower height.
///
/// One allocation per node: the header, then the entries in the same block (a leaf's
/// elements; a branch's running ends followed by its children), so a read by position costs
/// one cache miss per level, not one for the node and more for each separate array. The
/// block starts with the node's identity index reference (used only by a root).
///
/// Nodes are shared between versions of a tree and never change while shared: a mutation
/// first copies every node on the path it writes that is not uniquely referenced (copy-on-write
/// per node), so two versions share all the nodes that one did not write.
///
/// Every access to the entries goes through `withUnsafeMutablePointers` for the span of one
/// operation; no pointer outlives the call that made it. Internal, but `@usableFromInline`:
/// the collection's hot paths are inlinable, so that they are specialized for the element
/// type in the client's module.
@usableFromInline
package final class TreeArrayNode<Element>: ManagedBuffer<TreeArrayNodeHeader, UInt64> {

    @usableFromInline package typealias Node = TreeArrayNode<Element>
    /// The slot of a root's ``TreeArrayIdentityCell``: the cell's retained address, `0` until
    /// a lookup by id makes one. A plain word, not an `AtomicLazyReference` of the generic
    /// cell: the layout and the teardown of every node then need no generic metadata (the
    /// unspecialized deinit looked it up on each node freed), and a node that never had a
    /// cell, nearly all of them, frees nothing.
    @usableFromInline package typealias IdentityReference = Atomic<UInt>

    // MARK: - Layout

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

    /// The room of a full-sized leaf: one more than it holds, for the entry that overflows
    /// it before it splits. A leaf gets it before an insertion or a merge; a copy made to be
    /// written in place has room for its elements alone.
    @inlinable
    package static var leafSlots: Int { leafCapacity + 1 }

    /// The room of every branch: one more than it holds, as for a leaf.
    @inlinable
    package static var branchSlots: Int { branchCapacity + 1 }

    /// The words of storage a node of `height` with room for `slots` entries needs.
    @inlinable
    package static func words(height: Int, slots: Int) -> Int {
        let identity = (MemoryLayout<IdentityReference>.stride + 7) / 8
        if height > 0 { return identity + 1 + 2 * slots }
        let slack = Swift.max(0, MemoryLayout<Element>.alignment - 8)
        return identity + (slots * MemoryLayout<Element>.stride + slack + 7) / 8
    }

    @inlinable @inline(__always)
    package static func identity(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<IdentityReference> {
        UnsafeMutableRawPointer(tail).assumingMemoryBound(to: IdentityReference.self)
    }

    @inlinable @inline(__always)
    package static func entries(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(tail + (MemoryLayout<IdentityReference>.stride + 7) / 8)
    }

    /// A leaf's elements.
    @inlinable @inline(__always)
    package static func elements(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<Element> {
        let raw = entries(in: tail)
        return (MemoryLayout<Element>.alignment <= 8 ? raw : raw.alignedUp(for: Element.self)).assumingMemoryBound(to: Element.self)
    }

    /// A branch's running ends: `ends[i]` is the number of elements in children `0 ... i`;
    /// `ends[-1]` is always `0` and every end past the children `Int.max`, so that a search
    /// reads a fixed number of ends, and a child's start, without a branch.
    @inlinable @inline(__always)
    package static func ends(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<Int> {
        entries(in: tail).assumingMemoryBound(to: Int.self) + 1
    }

    /// A branch's children, right after its ends, so that the search and the step down
    /// read the same block.
    @inlinable @inline(__always)
    package static func children(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<Node> {
        (entries(in: tail) + (1 + branchSlots) * MemoryLayout<Int>.stride).assumingMemoryBound(to: Node.self)
    }

    /// An empty node.
    @inlinable
    package static func make(height: Int, slots: Int, keys: ContiguousArray<UInt64> = []) -> Node {
        let object = Node.create(minimumCapacity: words(height: height, slots: slots)) { _ in
            TreeArrayNodeHeader(height: height, slots: slots, keys: keys)
        }
        let node = unsafeDowncast(object, to: Node.self)
        node.withUnsafeMutablePointerToElements { tail in
            UnsafeMutableRawPointer(tail).bindMemory(to: IdentityReference.self, capacity: 1).initialize(to: IdentityReference(0))
            let raw = entries(in: tail)
            if height == 0 {
                (MemoryLayout<Element>.alignment <= 8 ? raw : raw.alignedUp(for: Element.self)).bindMemory(to: Element.self, capacity: slots)
            } else {
                raw.bindMemory(to: Int.self, capacity: 1 + slots).initialize(to: 0)
                (raw + MemoryLayout<Int>.stride).assumingMemoryBound(to: Int.self).initialize(repeating: .max, count: slots)
                (raw + (1 + slots) * MemoryLayout<Int>.stride).bindMemory(to: Node.self, capacity: slots)
            }
        }
        return node
    }

    /// An empty leaf with room for `slots` elements (at most ``leafSlots``).
    @inlinable
    package static func emptyLeaf(slots: Int = Node.leafSlots) -> Node {
        var keys = ContiguousArray<UInt64>()
        // Room for a full leaf at once: keys are small, and growing them step by step
        // costs an append a reallocation every few elements.
        keys.reserveCapacity(slots)
        return make(height: 0, slots: slots, keys: keys)
    }

    /// A branch of `height` holding `children`, in order.
    @inlinable
    package static func branch<C: Collection<Node>>(height: Int, children: C) -> Node {
        let node = make(height: height, slots: branchSlots)
        node.withUnsafeMutablePointers { header, tail in
            var target = Node.children(in: tail)
            for child in children {
                target.initialize(to: child)
                target += 1
            }
            header.pointee.width = children.count
        }
        node.recomputeEnds()
        return node
    }

    deinit {
        withUnsafeMutablePointers { header, tail in
            if header.pointee.height == 0 {
                Node.elements(in: tail).deinitialize(count: header.pointee.width)
            } else {
                Node.children(in: tail).deinitialize(count: header.pointee.width)
            }
            let identity = Node.identity(in: tail)
            if let cell = UnsafeRawPointer(bitPattern: identity.pointee.load(ordering: .acquiring)) {
                Unmanaged<TreeArrayIdentityCell<Element>>.fromOpaque(cell).release()
            }
            _ = identity.deinitialize(count: 1)
        }
    }

    // MARK: - Header

    /// The number of elements in this subtree.
    @inlinable
    package var count: Int {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.count } }
        @inline(__always) set { withUnsafeMutablePointerToHeader { $0.pointee.count = newValue } }
    }

    /// `0` for a leaf; a branch's children all have `height - 1`.
    @inlinable
    package var height: Int {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.height } }
    }

    /// The number of entries (elements or children) this node holds.
    @inlinable
    package var width: Int {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.width } }
    }

    /// The number of entries this node has room for.
    @inlinable
    package var slots: Int {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.slots } }
    }

    /// A stamp no other node and no other state of this node ever had: drawn when the node
    /// is made and again each time it is mutated in place. A node's identifier and stamp
    /// together name one exact content, even after the node is freed and its address reused.
    @inlinable
    package var stamp: UInt64 {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.stamp } }
    }

    /// Another node known to hold exactly the same elements as this one (see
    /// ``TreeArrayChange``), named by its identifier and its stamp at the time: a
    /// comparison of the two may skip them as if they were the same node. `twinStamp` is `0`
    /// when there is no twin; the link no longer holds once either node is mutated.
    @inlinable
    package var twinID: ObjectIdentifier? {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.twinID } }
        @inline(__always) set { withUnsafeMutablePointerToHeader { $0.pointee.twinID = newValue } }
    }

    @inlinable
    package var twinStamp: UInt64 {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.twinStamp } }
        @inline(__always) set { withUnsafeMutablePointerToHeader { $0.pointee.twinStamp = newValue } }
    }

    /// A leaf's order keys, one per element: strictly increasing along the whole tree, so an
    /// element is found from its key in O(log *n*) (the identity index maps ids to keys).
    @inlinable
    package var keys: ContiguousArray<UInt64> {
        withUnsafeMutablePointerToHeader { $0.pointee.keys }
    }

    /// A branch's last keys: `lastKeys[i]` is the last key in child `i`.
    @inlinable
    package var lastKeys: ContiguousArray<UInt64> {
        withUnsafeMutablePointerToHeader { $0.pointee.keys }
    }

    /// Calls `body` with the keys (a leaf's) or last keys (a branch's) to change them in
    /// place.
    @inlinable @inline(__always)
    package func updateKeys<R>(_ body: (inout ContiguousArray<UInt64>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointerToHeader { try body(&$0.pointee.keys) }
    }

    // MARK: - Entries

    /// Calls `body` with this leaf's elements.
    @inlinable @inline(__always)
    package func withElements<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { header, tail in
            try body(UnsafeMutableBufferPointer(start: Node.elements(in: tail), count: header.pointee.width))
        }
    }

    /// Calls `body` with this branch's running ends and children.
    @inlinable @inline(__always)
    package func withChildren<R>(_ body: (UnsafeMutableBufferPointer<Int>, UnsafeMutableBufferPointer<Node>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { header, tail in
            let width = header.pointee.width
            return try body(UnsafeMutableBufferPointer(start: Node.ends(in: tail), count: width),
                            UnsafeMutableBufferPointer(start: Node.children(in: tail), count: width))
        }
    }

    /// A copy of a leaf's elements, for checks and tests (reads in place use
    /// ``withElements(_:)``).
    @inlinable
    package var elements: ContiguousArray<Element> {
        isLeaf ? withElements { ContiguousArray($0) } : []
    }

    /// A copy of a branch's children.
    @inlinable
    package var children: ContiguousArray<Node> {
        isLeaf ? [] : withChildren { ContiguousArray($1) }
    }

    /// A copy of a branch's running ends.
    @inlinable
    package var ends: ContiguousArray<Int> {
        isLeaf ? [] : withChildren { ends, _ in ContiguousArray(ends) }
    }

    /// Whether two branches have the same running ends: their children are cut at the same
    /// offsets. Read in place, not copied.
    @inlinable
    package static func sameEnds(_ lhs: Node, _ rhs: Node) -> Bool {
        lhs.withChildren { left, _ in rhs.withChildren { right, _ in left.elementsEqual(right) } }
    }

    /// The child at `position` of a branch.
    @inlinable @inline(__always)
    package func child(_ position: Int) -> Node {
        withUnsafeMutablePointerToElements { Node.children(in: $0)[position] }
    }

    /// Replaces the child at `position` of a branch (its count must not change).
    @inlinable @inline(__always)
    package func setChild(_ position: Int, _ node: Node) {
        withUnsafeMutablePointerToElements { Node.children(in: $0)[position] = node }
    }

    /// Whether this branch holds the only reference to its child at `position`.
    @inlinable @inline(__always)
    package func isChildUnique(_ position: Int) -> Bool {
        withUnsafeMutablePointerToElements { isKnownUniquelyReferenced(&Node.children(in: $0)[position]) }
    }

    /// The running end after the child at `position`.
    @inlinable @inline(__always)
    package func end(_ position: Int) -> Int {
        withUnsafeMutablePointerToElements { Node.ends(in: $0)[position] }
    }

    // MARK: - Identity index

    /// Where this node, as a root, keeps its identity index, if a lookup by id made a place.
    @inlinable @inline(__always)
    package var existingIdentityCell: TreeArrayIdentityCell<Element>? {
        withUnsafeMutablePointerToElements { Node.cell(at: Node.identity(in: $0).pointee.load(ordering: .acquiring)) }
    }

    /// The cell whose retained address is `bits`, `nil` for `0`.
    @inlinable @inline(__always)
    package static func cell(at bits: UInt) -> TreeArrayIdentityCell<Element>? {
        guard let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<TreeArrayIdentityCell<Element>>.fromOpaque(address).takeUnretainedValue()
    }

    /// Where this node, as a root, keeps its identity index, made if it has none.
    @inlinable
    package var identityCellMakingOne: TreeArrayIdentityCell<Element> {
        withUnsafeMutablePointerToElements { tail in
            let reference = Node.identity(in: tail)
            if let cell = Node.cell(at: reference.pointee.load(ordering: .acquiring)) { return cell }
            // Readers may race to make the cell: the first to publish it wins, the others
            // give theirs back and use the winner's.
            let made = Unmanaged.passRetained(TreeArrayIdentityCell<Element>())
            let bits = UInt(bitPattern: made.toOpaque())
            let (exchanged, original) = reference.pointee.compareExchange(
                expected: 0, desired: bits, ordering: .acquiringAndReleasing)
            if exchanged { return made.takeUnretainedValue() }
            made.release()
            return Node.cell(at: original)!
        }
    }

    // MARK: - Copies and twins

    /// A node with the same contents, sharing the children, with room for `slots` entries
    /// (a leaf's as many as it holds, unless given; a branch's always ``branchSlots``). A
    /// leaf's elements are copied at once (a copy is made to be written), byte for byte.
    @inlinable
    package func copy(slots newSlots: Int? = nil) -> Node {
        withUnsafeMutablePointers { header, tail in
            let (height, width) = (header.pointee.height, header.pointee.width)
            let node = Node.make(height: height, slots: height == 0 ? (newSlots ?? width) : Node.branchSlots, keys: header.pointee.keys)
            node.withUnsafeMutablePointers { copyHeader, copyTail in
                copyHeader.pointee.count = header.pointee.count
                copyHeader.pointee.width = width
                copyHeader.pointee.childSize = header.pointee.childSize
                if height == 0 {
                    Node.copyBytes(from: Node.elements(in: tail), to: Node.elements(in: copyTail), count: width)
                } else {
                    Node.ends(in: copyTail).update(from: Node.ends(in: tail), count: width)
                    Node.children(in: copyTail).initialize(from: Node.children(in: tail), count: width)
                }
            }
            return node
        }
    }

    /// Initializes `count` elements at `target` as copies of those at `source` that are byte
    /// for byte the same, padding between stored properties included: an element's copy
    /// writes its properties but not the padding, and a history shares a leaf of the present
    /// only when the bytes of every element it did not record are the same (see
    /// `TreeArrayNode.share(_:with:start:edits:)`), so a copy must not make an element nobody
    /// touched look different.
    @inlinable
    package static func copyBytes(from source: UnsafeMutablePointer<Element>, to target: UnsafeMutablePointer<Element>, count: Int) {
        guard count > 0 else { return }
        target.initialize(from: source, count: count)
        // The properties' bytes are those just written (the references in them retained once
        // more): writing them again changes nothing but the padding.
        UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: count * MemoryLayout<Element>.stride)
    }

    /// Marks this node as about to be mutated in place: a new stamp, and no twin.
    @inlinable @inline(__always)
    package func touch() {
        withUnsafeMutablePointerToHeader {
            $0.pointee.stamp = nextTreeArrayStamp()
            $0.pointee.twinStamp = 0
        }
    }

    /// Whether `other` is known to hold exactly this node's elements.
    @inlinable @inline(__always)
    package func isTwin(of other: Node) -> Bool {
        let (id, stamp) = withUnsafeMutablePointerToHeader { ($0.pointee.twinID, $0.pointee.twinStamp) }
        return stamp != 0 && stamp == other.stamp && id == ObjectIdentifier(other)
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

    @inlinable
    package var isOverfull: Bool {
        width > (isLeaf ? Node.leafCapacity : Node.branchCapacity)
    }

    @inlinable
    package var isUnderfull: Bool {
        width < (isLeaf ? Node.leafCapacity : Node.branchCapacity) / 2
    }

    /// Recomputes the running ends, last keys and count of a branch from child `start` on.
    @inlinable
    package func recomputeEnds(from start: Int = 0) {
        withUnsafeMutablePointers { header, tail in
            let (ends, children) = (Node.ends(in: tail), Node.children(in: tail))
            let width = header.pointee.width
            var total = start > 0 ? ends[start - 1] : 0
            header.pointee.keys.removeSubrange(Swift.min(start, header.pointee.keys.count)...)
            header.pointee.keys.reserveCapacity(Node.branchSlots)
            for position in start ..< width {
                let child = children[position]
                total += child.count
                ends[position] = total
                // An empty child (only ever passing, in a removal) takes the key before it, so
                // the last keys never decrease.
                header.pointee.keys.append(child.count > 0 ? child.lastKey : (header.pointee.keys.last ?? 0))
            }
            (ends + width).update(repeating: .max, count: Node.branchSlots - width)
            header.pointee.count = total
            header.pointee.childSize = Node.childSize(ends: ends, width: width)
        }
    }

    /// The stride of a branch with these running ends (see ``TreeArrayNodeHeader/childSize``).
    @inlinable
    package static func childSize(ends: UnsafeMutablePointer<Int>, width: Int) -> Int {
        guard width > 0 else { return 0 }
        let size = ends[0]
        for position in 1 ..< width where ends[position] - ends[position - 1] != size {
            return position == width - 1 && ends[position] - ends[position - 1] < size ? size : 0
        }
        return size
    }

    /// The key of the last element in this subtree; `0` when it is empty.
    @inlinable
    package var lastKey: UInt64 {
        withUnsafeMutablePointerToHeader { $0.pointee.keys.last } ?? 0
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
            withUnsafeMutablePointers { header, tail in
                let elements = Node.elements(in: tail)
                for position in header.pointee.keys.indices {
                    next += spacing
                    identities?.rekey(elements[position], from: header.pointee.keys[position], to: next)
                    header.pointee.keys[position] = next
                }
            }
            return
        }
        for position in 0 ..< width {
            makeChildUnique(position)
            let child = child(position)
            child.relabel(next: &next, spacing: spacing, identities: &identities)
            updateKeys { $0[position] = child.lastKey }
        }
    }

    /// The position of the element holding `key` in this subtree, if any.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    package func position(ofKey key: UInt64) -> Int? {
        var node = Unmanaged.passUnretained(self)
        var position = 0
        while true {
            let step: (found: Bool, offset: Int, next: Unmanaged<Node>?) = node._withUnsafeGuaranteedRef { node in
                node.withUnsafeMutablePointers { header, tail in
                    let keys = header.pointee.keys
                    var low = 0
                    var high = keys.count
                    while low < high {
                        let middle = (low + high) / 2
                        if keys[middle] < key { low = middle + 1 } else { high = middle }
                    }
                    if header.pointee.height == 0 {
                        return (low < keys.count && keys[low] == key, low, nil)
                    }
                    guard low < header.pointee.width else { return (false, 0, nil) }
                    let next = UnsafeMutableRawPointer(Node.children(in: tail) + low).load(as: Unmanaged<Node>.self)
                    return (false, Node.ends(in: tail)[low - 1], next)
                }
            }
            position += step.offset
            guard let next = step.next else { return step.found ? position : nil }
            node = next
        }
    }

    /// The offset in this subtree where child `child` starts.
    @inlinable @inline(__always)
    package func start(ofChild child: Int) -> Int {
        end(child - 1)
    }

    /// The child holding the element at `index` (`0 ..< count`), and the element's index
    /// within that child.
    @inlinable @inline(__always)
    package func child(containing index: Int) -> (child: Int, offset: Int) {
        withUnsafeMutablePointers { header, tail in
            Node.search(Node.ends(in: tail), count: header.pointee.width, for: index)
        }
    }

    /// The child of a branch whose `count` running ends (at least one) hold the element at
    /// `index`, and the element's index within that child.
    @inlinable @inline(__always)
    package static func search(_ ends: UnsafeMutablePointer<Int>, count: Int, for index: Int) -> (child: Int, offset: Int) {
        // A binary search with a fixed number of steps for a width and no branch on the
        // data (the compiler makes the choice a conditional move): a misprediction would
        // discard the loads the processor has started for the lookups after this one, and a
        // search of few instructions lets it run several lookups ahead.
        var base = 0
        var remaining = count
        while remaining > 1 {
            let half = remaining &>> 1
            // All ones when that end is above `index` (the sign of the difference), else zero:
            // arithmetic, which the compiler cannot turn back into a branch.
            let above = (index &- ends[base &+ half &- 1]) &>> 63
            base &+= half & ~above
            remaining &-= half
        }
        return (base, index &- ends[base &- 1])
    }

    /// The child of a branch holding the element at `index` (`0 ..< count`), and the
    /// element's index within that child: ``search(_:count:for:)`` for the read path.
    ///
    /// Counts the ends at most `index`, the counts added as numbers, never chosen by a
    /// condition: the compiler turns a condition on a loaded value into a branch, whose
    /// misprediction (here, half of the time) discards the loads the processor has started
    /// for the lookups after this one. Ten ends instead of all 32: first the block of 16
    /// holding the child, then the block of 4 within it, then the child; the ends past the
    /// children are `Int.max`, so every node reads the same places.
    @inlinable @inline(__always)
    package static func searchFull(_ ends: UnsafeMutablePointer<Int>, for index: Int) -> (child: Int, offset: Int) {
        // 1 when `ends[position]` is at most `index`: the sign of `end - index - 1`.
        @inline(__always) func atMost(_ position: Int) -> Int {
            Int(bitPattern: UInt(bitPattern: ends[position] &- index &- 1) &>> 63)
        }
        var child = atMost(15) &<< 4
        child &+= atMost(child &+ 7) &<< 3
        child &+= atMost(child &+ 3) &<< 2
        child &+= atMost(child &+ 1) &<< 1
        child &+= atMost(child)
        return (child, index &- ends[child &- 1])
    }

    /// The element at `index` (`0 ..< count`) in the subtree of `root`, found without
    /// retaining any node on the way: the caller keeps `root` alive and unmutated.
    ///
    /// Unmanaged, not a method of the root: a call on a node read from a tree held in
    /// memory the caller may write (a captured variable, a class's property) retains it
    /// for the whole call, and that atomic write, after the element's load, stops the
    /// processor from overlapping the cache misses of consecutive lookups.
    ///
    /// - Complexity: O(log *n*).
    @inlinable @inline(__always)
    package static func element(in root: Unmanaged<Node>, at index: Int) -> Element {
        var index = index
        var node = root
        while let next = node._withUnsafeGuaranteedRef({ branch in
            branch.withUnsafeMutablePointers { header, tail -> Unmanaged<Node>? in
                guard header.pointee.height != 0 else { return nil }
                let stride = header.pointee.childSize
                let child: Int
                if stride != 0 {
                    // One division instead of a search: no end read, and so one cache line
                    // fewer and no dependent loads within the node.
                    // Unsigned: both are positive, and a signed division checks for overflow.
                    let (quotient, remainder) = UInt(bitPattern: index).quotientAndRemainder(dividingBy: UInt(bitPattern: stride))
                    (child, index) = (Int(bitPattern: quotient), Int(bitPattern: remainder))
                } else {
                    (child, index) = Node.searchFull(Node.ends(in: tail), for: index)
                }
                // The bits of the reference, not a strong copy: no retain on the way down.
                return UnsafeMutableRawPointer(Node.children(in: tail) + child).load(as: Unmanaged<Node>.self)
            }
        }) {
            node = next
        }
        return node._withUnsafeGuaranteedRef { leaf in
            leaf.withUnsafeMutablePointerToElements { Node.elements(in: $0)[index] }
        }
    }

    /// The child an insertion at `index` (`0 ... count`) goes into: the one holding the
    /// element now at `index`, or the last child for an append.
    @inlinable @inline(__always)
    package func child(insertingAt index: Int) -> (child: Int, offset: Int) {
        let last = width - 1
        return index >= count ? (last, index - start(ofChild: last)) : child(containing: index)
    }

    /// Makes child `child` uniquely referenced, copying it if it is shared; a leaf child
    /// that is to receive elements (`growing`) gets the full room of ``leafSlots``.
    ///
    /// A copy made only to be written in place has room for its elements alone: a history
    /// keeps the leaves its steps copied, and a full-sized copy of a half-full leaf would cost
    /// it half a leaf of nothing.
    @inlinable @inline(__always)
    package func makeChildUnique(_ child: Int, growing: Bool = false) {
        withUnsafeMutablePointerToElements { tail in
            let slot = Node.children(in: tail) + child
            if !isKnownUniquelyReferenced(&slot.pointee) {
                slot.pointee = slot.pointee.copy(slots: growing ? Node.leafSlots : nil)
            } else if growing, slot.pointee.isLeaf, slot.pointee.slots < Node.leafSlots {
                slot.pointee = slot.pointee.copy(slots: Node.leafSlots)
            }
            slot.pointee.touch()
        }
    }

    /// The element at `index` (`0 ..< count`).
    @inlinable
    package func element(at index: Int) -> Element {
        Node.element(in: Unmanaged.passUnretained(self), at: index)
    }

    // MARK: - Mutation (on a uniquely referenced node)

    /// Inserts `element` at `index` (`0 ... count`), with a key between `lower` and `upper`
    /// (the keys just outside this subtree, exclusive), and tells `identities`. Returns
    /// `false` when no key fits and this subtree could not be relabeled (nothing changed),
    /// and the new right sibling when this node had to split. A leaf must have room for one
    /// more element.
    @inlinable
    package func insert(
        _ element: Element, at index: Int, between lower: UInt64, and upper: UInt64,
        identities: inout TreeArrayIdentities<Element>?
    ) -> (inserted: Bool, sibling: Node?) {
        if isLeaf {
            func key() -> UInt64? {
                withUnsafeMutablePointerToHeader { header in
                    let keys = header.pointee.keys
                    return Node.key(between: index > 0 ? keys[index - 1] : lower, and: index < keys.count ? keys[index] : upper)
                }
            }
            var newKey = key()
            if newKey == nil {
                guard relabel(between: lower, and: upper, minimum: Node.minimumRelabelSpacing(height: 0), identities: &identities) else {
                    return (false, nil)
                }
                newKey = key()
            }
            let inserted = newKey.unsafelyUnwrapped
            let width = withUnsafeMutablePointers { header, tail in
                let elements = Node.elements(in: tail)
                let width = header.pointee.width
                precondition(width < header.pointee.slots, "TreeArray: a leaf without room")
                (elements + index + 1).moveInitialize(from: elements + index, count: width - index)
                (elements + index).initialize(to: element)
                header.pointee.keys.insert(inserted, at: index)
                header.pointee.width = width + 1
                header.pointee.count = width + 1
                return width + 1
            }
            identities?.insert(element, key: inserted)
            return (true, width > Node.leafCapacity ? split(appending: index == width - 1) : nil)
        }
        let (child, offset) = child(insertingAt: index)
        makeChildUnique(child, growing: true)
        let (childLower, childUpper) = withUnsafeMutablePointerToHeader { header in
            // Only an append reaches the end of a child, and only of the last one, so the
            // bound after any other child is its own last key (kept: relabeling stays at or
            // below it).
            let keys = header.pointee.keys
            return (child > 0 ? keys[child - 1] : lower, child + 1 < header.pointee.width ? keys[child] &+ 1 : upper)
        }
        let target = self.child(child)
        let (inserted, sibling) = target.insert(element, at: offset, between: childLower, and: childUpper, identities: &identities)
        if !inserted {
            guard relabel(between: lower, and: upper, minimum: Node.minimumRelabelSpacing(height: height), identities: &identities) else {
                return (false, nil)
            }
            return insert(element, at: index, between: lower, and: upper, identities: &identities)
        }
        if let sibling {
            insertChild(sibling, at: child + 1)
            recomputeEnds(from: child)
            return (true, isOverfull ? split(appending: child + 1 == width - 1) : nil)
        }
        let lastKey = target.lastKey
        withUnsafeMutablePointers { header, tail in
            let ends = Node.ends(in: tail)
            let width = header.pointee.width
            for position in child ..< width { ends[position] += 1 }
            header.pointee.keys[child] = lastKey
            header.pointee.count += 1
            // Only the last child may grow and keep the stride, up to the stride itself.
            let stride = header.pointee.childSize
            if child != width - 1 || ends[child] - ends[child - 1] > stride {
                header.pointee.childSize = 0
            }
        }
        return (true, nil)
    }

    /// Puts `node` among a branch's children at `position`, leaving the ends to the caller.
    @inlinable
    package func insertChild(_ node: Node, at position: Int) {
        withUnsafeMutablePointers { header, tail in
            let (children, ends) = (Node.children(in: tail), Node.ends(in: tail))
            let width = header.pointee.width
            precondition(width < Node.branchSlots, "TreeArray: a branch without room")
            (children + position + 1).moveInitialize(from: children + position, count: width - position)
            (children + position).initialize(to: node)
            (ends + position + 1).moveInitialize(from: ends + position, count: width - position)
            header.pointee.width = width + 1
        }
    }

    /// Takes child `position` out of a branch, leaving the ends to the caller.
    @inlinable @discardableResult
    package func removeChild(at position: Int) -> Node {
        withUnsafeMutablePointers { header, tail in
            let (children, ends) = (Node.children(in: tail), Node.ends(in: tail))
            let width = header.pointee.width
            let removed = (children + position).move()
            (children + position).moveInitialize(from: children + position + 1, count: width - position - 1)
            (ends + position).moveInitialize(from: ends + position + 1, count: width - position - 1)
            ends[width - 1] = .max
            header.pointee.width = width - 1
            return removed
        }
    }

    /// Moves the upper part of an overfull node into a new right sibling: half of it, or,
    /// when the entry that overflowed was appended at the end, only that entry, so a tree
    /// built by appending keeps its nodes full.
    @inlinable
    package func split(appending: Bool) -> Node {
        let width = self.width
        let keep = appending ? width - 1 : width / 2
        let sibling = isLeaf ? Node.emptyLeaf() : Node.make(height: height, slots: Node.branchSlots)
        Node.moveEntries(from: self, range: keep ..< width, to: sibling, at: 0)
        if isLeaf {
            withUnsafeMutablePointerToHeader { $0.pointee.count = keep }
            sibling.withUnsafeMutablePointerToHeader { $0.pointee.count = width - keep }
        } else {
            recomputeEnds()
            sibling.recomputeEnds()
        }
        return sibling
    }

    /// Moves entries `range` of `source` (the last ones, or the first ones) to position
    /// `position` of `target` (its end or its start), with their keys, both nodes of one
    /// height; counts and ends are left to the caller.
    @inlinable
    package static func moveEntries(from source: Node, range: Range<Int>, to target: Node, at position: Int) {
        source.withUnsafeMutablePointers { sourceHeader, sourceTail in
            target.withUnsafeMutablePointers { targetHeader, targetTail in
                let (moved, sourceWidth, targetWidth) = (range.count, sourceHeader.pointee.width, targetHeader.pointee.width)
                func move<T>(_ from: UnsafeMutablePointer<T>, _ to: UnsafeMutablePointer<T>) {
                    (to + position + moved).moveInitialize(from: to + position, count: targetWidth - position)
                    (to + position).moveInitialize(from: from + range.lowerBound, count: moved)
                    (from + range.lowerBound).moveInitialize(from: from + range.upperBound, count: sourceWidth - range.upperBound)
                }
                if sourceHeader.pointee.height == 0 {
                    move(Node.elements(in: sourceTail), Node.elements(in: targetTail))
                } else {
                    move(Node.children(in: sourceTail), Node.children(in: targetTail))
                    move(Node.ends(in: sourceTail), Node.ends(in: targetTail))
                }
                // Keys of a leaf; a branch's last keys are recomputed with its ends, but move
                // them too so that both stay one per entry.
                targetHeader.pointee.keys.insert(contentsOf: sourceHeader.pointee.keys[range], at: position)
                sourceHeader.pointee.keys.removeSubrange(range)
                sourceHeader.pointee.width = sourceWidth - moved
                targetHeader.pointee.width = targetWidth + moved
            }
        }
    }

    /// Removes and returns the element at `index` (`0 ..< count`), with its key. Children may
    /// become underfull; this node merges or rebalances them with a neighbour.
    @inlinable
    package func remove(at index: Int) -> (element: Element, key: UInt64) {
        if isLeaf {
            return withUnsafeMutablePointers { header, tail in
                let elements = Node.elements(in: tail)
                let width = header.pointee.width
                let removed = (elements + index).move()
                (elements + index).moveInitialize(from: elements + index + 1, count: width - index - 1)
                header.pointee.width = width - 1
                header.pointee.count = width - 1
                return (removed, header.pointee.keys.remove(at: index))
            }
        }
        let (child, offset) = child(containing: index)
        makeChildUnique(child)
        let target = self.child(child)
        let removed = target.remove(at: offset)
        withUnsafeMutablePointers { header, tail in
            let ends = Node.ends(in: tail)
            let width = header.pointee.width
            for position in child ..< width { ends[position] -= 1 }
            header.pointee.count -= 1
            // Only the last child may shrink and keep the stride (an emptied one is dropped
            // below, which recomputes it).
            if child != width - 1 {
                header.pointee.childSize = 0
            }
        }
        if target.count == 0, width > 1 {
            // Emptied (a branch left with one child merges nothing): dropped, so no empty
            // node stays below the root.
            updateKeys { _ = $0.remove(at: child) }
            removeChild(at: child)
            recomputeEnds(from: child)
        } else {
            let lastKey = target.count > 0 ? target.lastKey : (child > 0 ? lastKeys[child - 1] : 0)
            updateKeys { $0[child] = lastKey }
            if target.isUnderfull, width > 1 {
                rebalance(child)
            }
        }
        return removed
    }

    /// Merges the underfull child `child` with a neighbour, or, when both do not fit in one
    /// node, shares their entries evenly.
    @inlinable
    package func rebalance(_ child: Int) {
        let left = child + 1 < width ? child : child - 1
        // Both may receive the other's entries.
        makeChildUnique(left, growing: true)
        makeChildUnique(left + 1, growing: true)
        let (first, second) = (self.child(left), self.child(left + 1))
        let (firstWidth, secondWidth) = (first.width, second.width)
        let total = firstWidth + secondWidth
        if total <= (first.isLeaf ? Node.leafCapacity : Node.branchCapacity) {
            Node.moveEntries(from: second, range: 0 ..< secondWidth, to: first, at: firstWidth)
            updateKeys { _ = $0.remove(at: left + 1) }
            removeChild(at: left + 1)
        } else {
            let half = total / 2
            if firstWidth > half {
                Node.moveEntries(from: first, range: half ..< firstWidth, to: second, at: 0)
            } else {
                Node.moveEntries(from: second, range: 0 ..< (half - firstWidth), to: first, at: firstWidth)
            }
        }
        for node in [first, second] {
            if node.isLeaf {
                node.withUnsafeMutablePointerToHeader { $0.pointee.count = $0.pointee.width }
            } else {
                node.recomputeEnds()
            }
        }
        recomputeEnds(from: left)
    }

    // MARK: - Building

    /// A balanced tree of full nodes holding `elements` in order.
    @inlinable
    package static func build<S: Sequence<Element>>(_ elements: S) -> Node {
        var leaves: ContiguousArray<Node> = []
        let capacity = leafCapacity
        let spacing = initialKeySpacing(count: elements.underestimatedCount)
        var key = UInt64(1) << 63
        var iterator = elements.makeIterator()
        var next = iterator.next()
        // A tree smaller than one leaf gets a leaf only as large as it (it grows on insertion).
        let firstSlots = Swift.min(leafSlots, Swift.max(4, elements.underestimatedCount))
        repeat {
            let leaf = emptyLeaf(slots: leaves.isEmpty ? firstSlots : leafSlots)
            leaf.withUnsafeMutablePointers { header, tail in
                let storage = Node.elements(in: tail)
                var width = 0
                let limit = Swift.min(capacity, header.pointee.slots)
                while width < limit, let element = next {
                    (storage + width).initialize(to: element)
                    header.pointee.keys.append(key)
                    width += 1
                    // An underestimated count may leave too little room: the rest goes halfway to the end.
                    key += key < UInt64.max - 2 * spacing ? spacing : (UInt64.max - key) / 2
                    next = iterator.next()
                }
                header.pointee.width = width
                header.pointee.count = width
            }
            if leaves.count == 0, next != nil, leaf.slots < leafSlots {
                // The count was underestimated: the first leaf gets full room.
                leaves.append(leaf.copy(slots: leafSlots))
            } else {
                leaves.append(leaf)
            }
        } while next != nil
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
                parents.append(branch(height: height, children: level[start ..< end]))
                start = end
            }
            level = parents
        }
        return level[0]
    }

    /// Calls `body` with each leaf's elements, in order.
    @inlinable
    package func forEachLeaf(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        if isLeaf {
            try withElements { try body(UnsafeBufferPointer($0)) }
        } else {
            for position in 0 ..< width {
                try child(position).forEachLeaf(body)
            }
        }
    }
}

/// The source of ``TreeArrayNode/stamp``: never repeats within a process.
private let treeArrayStamps = Atomic<UInt64>(1)

@usableFromInline
package func nextTreeArrayStamp() -> UInt64 {
    treeArrayStamps.wrappingAdd(1, ordering: .relaxed).newValue
}
