import Synchronization

/// The fixed part of a ``TreeArrayNode``: what a node knows about itself besides its entries.
@usableFromInline
package struct TreeArrayNodeHeader {
    /// The number of elements in the subtree.
    @usableFromInline var count: Int
    /// The number of entries in use: a leaf's elements, a branch's children.
    @usableFromInline var width: Int
    /// The number of entries the node's storage has room for.
    @usableFromInline var slots: Int
    /// `0` for a leaf; a branch's children all have `height - 1`.
    @usableFromInline var height: Int
    /// A branch's stride: the count of each of its children but the last, when they all
    /// hold that many and the last at most as many (as in a tree built in one piece or by
    /// appending); `0` when they do not or it is not known (an insertion or removal in
    /// place forgets it, a rebuild of the ends finds it again), and in a leaf. See
    /// ``TreeArrayNode/element(in:at:)``.
    @usableFromInline var childSize: Int
    /// See ``TreeArrayNode/stamp``.
    @usableFromInline var stamp: UInt64
    /// See ``TreeArrayNode/twinID``.
    @usableFromInline var twinStamp: UInt64
    @usableFromInline var twinID: ObjectIdentifier?
    /// A leaf's order keys, one per element; a branch's last keys, one per child. Apart from
    /// the entries: only lookups by id, insertions and comparisons read them, never a read
    /// by position.
    @usableFromInline var keys: ContiguousArray<UInt64>

    @inlinable
    init(height: Int, slots: Int, keys: ContiguousArray<UInt64>) {
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
/// operation; no pointer outlives the call that made it. Not public, but `@usableFromInline`:
/// the collection's hot paths are inlinable, so that they are specialized for the element
/// type in the client's module. `package` only for the reads Revertible's support for trees
/// makes (listed in TreeArray+RevertibleSeam.swift); the rest of it is internal.
@usableFromInline
package final class TreeArrayNode<Element>: ManagedBuffer<TreeArrayNodeHeader, UInt64> {

    @usableFromInline package typealias Node = TreeArrayNode<Element>
    /// The slot of a root's ``TreeArrayIdentityCell``: the cell's retained address, `0` until
    /// a lookup by id makes one. A plain word, not an `AtomicLazyReference` of the generic
    /// cell: the layout and the teardown of every node then need no generic metadata (the
    /// unspecialized deinit looked it up on each node freed), and a node that never had a
    /// cell, nearly all of them, frees nothing.
    @usableFromInline typealias IdentityReference = Atomic<UInt>

    // MARK: - Layout

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

    /// The room of a full-sized leaf: one more than it holds, for the entry that overflows
    /// it before it splits. A leaf gets it before an insertion or a merge; a copy made to be
    /// written in place has room for its elements alone.
    @inlinable
    static var leafSlots: Int { leafCapacity + 1 }

    /// The room of every branch: one more than it holds, as for a leaf.
    @inlinable
    static var branchSlots: Int { branchCapacity + 1 }

    /// The words of storage a node of `height` with room for `slots` entries needs.
    @inlinable
    static func words(height: Int, slots: Int) -> Int {
        let identity = (MemoryLayout<IdentityReference>.stride + 7) / 8
        if height > 0 { return identity + 1 + 2 * slots }
        let slack = Swift.max(0, MemoryLayout<Element>.alignment - 8)
        return identity + (slots * MemoryLayout<Element>.stride + slack + 7) / 8
    }

    @inlinable @inline(__always)
    static func identity(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<IdentityReference> {
        UnsafeMutableRawPointer(tail).assumingMemoryBound(to: IdentityReference.self)
    }

    @inlinable @inline(__always)
    static func entries(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(tail + (MemoryLayout<IdentityReference>.stride + 7) / 8)
    }

    /// A leaf's elements.
    @inlinable @inline(__always)
    static func elements(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<Element> {
        let raw = entries(in: tail)
        return (MemoryLayout<Element>.alignment <= 8 ? raw : raw.alignedUp(for: Element.self)).assumingMemoryBound(to: Element.self)
    }

    /// A branch's running ends: `ends[i]` is the number of elements in children `0 ... i`;
    /// `ends[-1]` is always `0` and every end past the children `Int.max`, so that a search
    /// reads a fixed number of ends, and a child's start, without a branch.
    @inlinable @inline(__always)
    static func ends(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<Int> {
        entries(in: tail).assumingMemoryBound(to: Int.self) + 1
    }

    /// A branch's children, right after its ends, so that the search and the step down
    /// read the same block.
    @inlinable @inline(__always)
    static func children(in tail: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<Node> {
        (entries(in: tail) + (1 + branchSlots) * MemoryLayout<Int>.stride).assumingMemoryBound(to: Node.self)
    }

    /// An empty node.
    @inlinable
    static func make(height: Int, slots: Int, keys: ContiguousArray<UInt64> = []) -> Node {
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
    static func emptyLeaf(slots: Int = Node.leafSlots) -> Node {
        var keys = ContiguousArray<UInt64>()
        // Room for a full leaf at once: keys are small, and growing them step by step
        // costs an append a reallocation every few elements.
        keys.reserveCapacity(slots)
        return make(height: 0, slots: slots, keys: keys)
    }

    /// A branch of `height` holding `children`, in order.
    @inlinable
    static func branch<C: Collection<Node>>(height: Int, children: C) -> Node {
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
    package internal(set) var count: Int {
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
    var slots: Int {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.slots } }
    }

    /// A stamp no other node and no other state of this node ever had: drawn when the node
    /// is made and again each time it is mutated in place. A node's identifier and stamp
    /// together name one exact content, even after the node is freed and its address reused.
    @inlinable
    var stamp: UInt64 {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.stamp } }
    }

    /// Another node known to hold exactly the same elements as this one (see
    /// ``TreeArrayChange``), named by its identifier and its stamp at the time: a
    /// comparison of the two may skip them as if they were the same node. `twinStamp` is `0`
    /// when there is no twin; the link no longer holds once either node is mutated.
    @inlinable
    var twinID: ObjectIdentifier? {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.twinID } }
        @inline(__always) set { withUnsafeMutablePointerToHeader { $0.pointee.twinID = newValue } }
    }

    @inlinable
    var twinStamp: UInt64 {
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
    func updateKeys<R>(_ body: (inout ContiguousArray<UInt64>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointerToHeader { try body(&$0.pointee.keys) }
    }
}

/// The source of ``TreeArrayNode/stamp``: never repeats within a process.
private let treeArrayStamps = Atomic<UInt64>(1)

@usableFromInline
func nextTreeArrayStamp() -> UInt64 {
    treeArrayStamps.wrappingAdd(1, ordering: .relaxed).newValue
}
