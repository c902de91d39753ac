import TreeArrayPrefetch

/// An ordered, random-access collection for large lists, stored as a balanced tree of small
/// chunks that versions of the list share.
///
/// `TreeArray` has `Array`'s value semantics and most of its API, with different costs:
/// reading an element is O(log *n*) (a few pointer hops), inserting or removing anywhere is
/// O(log *n*) instead of O(*n*), and copying is O(1). A copy shares all of its storage with
/// the original; a mutation then copies only the path of chunks from the root to the
/// element it writes (copy-on-write per node), so two versions that differ in a few
/// elements share everything else.
///
/// That sharing is what makes it the collection for undo histories of large lists: when the
/// elements are `Identifiable` and `Versionable` (with the `Revertible` module), comparing two
/// versions (to record an undo step) skips every chunk the versions share, by identity, so it
/// costs O(log *n*) plus the size of the change, not a walk of the list.
///
/// ```swift
/// struct Board: Versionable {
///     var cards: TreeArray<Card>
///
///     func addReversions(into reverter: inout some Reverter<Board>) {
///         reverter.appendReversion(at: \.cards)
///     }
/// }
/// ```
public struct TreeArray<Element> {

    @usableFromInline package typealias Node = TreeArrayNode<Element>

    /// Never empty of nodes: an empty tree is one empty leaf.
    @usableFromInline package var root: Node

    @inlinable
    init(root: Node) {
        self.root = root
    }

    /// An empty tree.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init() {
        root = Node.emptyLeaf(slots: 0)
    }

    /// A tree holding the elements of `elements`, in order.
    ///
    /// - Complexity: O(*n*), where *n* is the number of elements.
    @inlinable
    public init<S: Sequence<Element>>(_ elements: S) {
        root = Node.build(elements)
    }

    /// Makes the root uniquely referenced, copying it if another version shares it; a root
    /// leaf that is full gets more room when `growing` (it is about to receive an element).
    @inlinable @inline(__always)
    mutating func makeRootUnique(growing: Bool = false) {
        let unique = isKnownUniquelyReferenced(&root)
        if growing, root.isLeaf, !unique || root.width == root.slots {
            root = root.copy(slots: Swift.min(Node.leafSlots, Swift.max(4, 2 * root.width)))
        } else if !unique {
            root = root.copy()
        }
        root.touch()
    }

    /// The identity index of this version, if a lookup by id made one, for a mutation to keep
    /// up to date: taken out of the root when this tree alone holds it (it is written in
    /// place), copied when versions share it. Call before ``makeRootUnique()``.
    @inlinable @inline(__always)
    mutating func takeIdentities() -> TreeArrayIdentities<Element>? {
        guard let cell = root.existingIdentityCell else { return nil }
        let unique = isKnownUniquelyReferenced(&root)
        return cell.identities(validFor: root.stamp, take: unique)
    }

    /// Gives the root, after a mutation, the index that `takeIdentities()` returned and the
    /// mutation kept up to date.
    @inlinable @inline(__always)
    mutating func putIdentities(_ identities: TreeArrayIdentities<Element>?) {
        guard var identities else { return }
        identities.stamp = root.stamp
        let cell = root.identityCellMakingOne
        cell.store(identities)
    }

    /// Restores the tree's shape after a removal: a branch root with one child is replaced by
    /// that child.
    @inlinable
    mutating func collapseRoot() {
        while !root.isLeaf, root.width == 1 {
            root = root.child(0)
        }
    }

    /// Calls `body` with each run of elements stored together, in order: the fastest way to
    /// visit every element.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public func forEachChunk(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        try root.forEachLeaf(body)
    }
}

extension TreeArray: RandomAccessCollection, MutableCollection {

    /// Positions are offsets from the start, as in `Array`.
    public typealias Index = Int
    /// The indices of a tree, `0 ..< count`.
    public typealias Indices = Range<Int>
    /// A tree's slices share its storage; making one is O(1).
    public typealias SubSequence = Slice<TreeArray<Element>>

    /// The position of the first element: always `0`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var startIndex: Int { 0 }

    /// The position one past the last element: the number of elements.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var endIndex: Int { root.count }

    /// The number of elements.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var count: Int { root.count }

    /// Whether the tree holds no elements.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { root.count == 0 }

    /// The indices of the elements, `0 ..< count`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var indices: Range<Int> { 0 ..< root.count }

    /// The position after `i`.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public func index(after i: Int) -> Int { i + 1 }

    /// The position before `i`.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public func index(before i: Int) -> Int { i - 1 }

    /// The element at `position`; writing it copies only the chunks on its path that another
    /// version shares.
    ///
    /// - Complexity: Reading and writing are O(log *n*). A read walks down without retaining
    ///   the nodes it passes: the tree keeps them alive for the whole access.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < root.count, "TreeArray index out of range")
            return Node.element(in: Unmanaged.passUnretained(root), at: position)
        }
        _modify {
            precondition(position >= 0 && position < root.count, "TreeArray index out of range")
            let journaled = journal(.replaced(at: position, old: self[position]))
            defer { journaled?.retake(self) }
            journaled?.keepIfShared(&self)
            var identities = takeIdentities()
            makeRootUnique()
            var node = root
            var index = position
            while !node.isLeaf {
                let (child, offset) = node.child(containing: index)
                node.makeChildUnique(child)
                node = node.child(child)
                index = offset
            }
            // Moved out for the access and back after it: the storage is reached only inside
            // the node's own calls, never through a pointer kept across the yield.
            var element = node.withElements { ($0.baseAddress.unsafelyUnwrapped + index).move() }
            defer { node.withElements { ($0.baseAddress.unsafelyUnwrapped + index).initialize(to: element) } }
            if identities == nil {
                yield &element
            } else {
                // The element may get another id: out of the index while it is written.
                let key = node.keys[index]
                identities?.remove(element, key: key)
                defer {
                    identities?.insert(element, key: key)
                    putIdentities(identities)
                }
                yield &element
            }
        }
    }

    /// The elements in `bounds`, as a slice of this tree.
    ///
    /// - Complexity: O(1) to read; writing costs O(log *n*) per element written.
    @inlinable
    public subscript(bounds: Range<Int>) -> Slice<TreeArray<Element>> {
        get {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= root.count, "TreeArray range out of bounds")
            return Slice(base: self, bounds: bounds)
        }
        set {
            precondition(bounds == newValue.startIndex ..< newValue.endIndex, "TreeArray slice assignment must keep the bounds")
            if newValue.base.root === root { return }
            for (offset, element) in newValue.enumerated() {
                self[bounds.lowerBound + offset] = element
            }
        }
    }

    /// An iterator over the elements, which walks the chunks in order.
    ///
    /// - Complexity: O(1) to make; O(*n*) to iterate all elements.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(root: root)
    }

    /// Iterates a ``TreeArray``'s elements in order, one chunk at a time.
    ///
    /// A cursor into the current chunk: `next()` is a comparison, an increment and a load at a
    /// fixed offset from the chunk's node, with no reference counting; the tree is walked
    /// only between chunks, one chunk ahead, and the chunk ahead is prefetched, so that the
    /// cache misses of finding and loading the next chunk overlap with the reading of the
    /// current one.
    ///
    /// - Complexity: O(1) amortized per element.
    public struct Iterator: IteratorProtocol {
        /// The root, held strongly. While the iterator holds it, every node below it is
        /// shared, so no mutation of any tree writes them in place (copy-on-write per node):
        /// the unmanaged references below stay valid for the iterator's whole life.
        @usableFromInline let root: Node
        /// The branches above the leaf after the current one, each with the index of the
        /// next child to visit.
        @usableFromInline var path: [(node: Unmanaged<Node>, next: Int)] = []
        /// The current leaf, the position of its next element, and its number of elements.
        @usableFromInline var leaf: Unmanaged<Node>
        @usableFromInline var position = 0
        @usableFromInline var end = 0
        /// The next non-empty leaf, found while the current one is read; `nil` when the
        /// current leaf is the last.
        @usableFromInline var lookahead: Unmanaged<Node>?
        /// Asks the processor to load every cache line of `leaf`'s elements, so that they
        /// arrive while the leaf before it is read: the tree's leaves are separate blocks,
        /// which the processor's own prefetcher does not foresee as it does an array's
        /// elements. A hint: no load waits for it.
        @inlinable
        static func prefetch(_ leaf: Unmanaged<Node>) {
            leaf._withUnsafeGuaranteedRef { leaf in
                leaf.withUnsafeMutablePointers { header, tail in
                    let start = UnsafeRawPointer(Node.elements(in: tail))
                    let end = header.pointee.width * MemoryLayout<Element>.stride
                    var offset = 0
                    while offset < end {
                        treeArrayPrefetch(start + offset)
                        offset &+= 64
                    }
                }
            }
        }

        @inlinable
        init(root: Node) {
            self.root = root
            leaf = Unmanaged.passUnretained(root)
            path.reserveCapacity(8)
            var first: Unmanaged<Node>? = Self.descend(to: Unmanaged.passUnretained(root), path: &path)
            if first.map({ Self.width(of: $0) == 0 }) == true { first = Self.followingLeaf(path: &path) }
            if let first {
                leaf = first
                end = Self.width(of: first)
            }
            lookahead = Self.followingLeaf(path: &path)
        }

        @inlinable @inline(__always)
        static func width(of node: Unmanaged<Node>) -> Int {
            node._withUnsafeGuaranteedRef { $0.width }
        }

        /// Pushes the branches from `node` down to its first leaf on `path`, and returns
        /// that leaf.
        ///
        /// Unmanaged all the way: a retain or release (an atomic operation) after the loads
        /// of the next leaf would make the processor wait for them here, instead of letting
        /// them complete while the current leaf is read.
        @inlinable
        static func descend(to node: Unmanaged<Node>, path: inout [(node: Unmanaged<Node>, next: Int)]) -> Unmanaged<Node> {
            var node = node
            while node._withUnsafeGuaranteedRef({ $0.height }) != 0 {
                path.append((node, 1))
                node = node._withUnsafeGuaranteedRef { branch in
                    branch.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer(Node.children(in: $0)).load(as: Unmanaged<Node>.self) }
                }
            }
            return node
        }

        /// The next non-empty leaf after those `path` has passed, or `nil` after the last;
        /// moves the path there.
        @inlinable
        static func followingLeaf(path: inout [(node: Unmanaged<Node>, next: Int)]) -> Unmanaged<Node>? {
            while let (node, next) = path.last {
                let child: Unmanaged<Node>? = node._withUnsafeGuaranteedRef { branch in
                    branch.withUnsafeMutablePointers { header, tail in
                        next < header.pointee.width ? UnsafeMutableRawPointer(Node.children(in: tail) + next).load(as: Unmanaged<Node>.self) : nil
                    }
                }
                guard let child else {
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next = next + 1
                let leaf = descend(to: child, path: &path)
                if width(of: leaf) > 0 { return leaf }
            }
            return nil
        }

        /// The leaf after the next one (see ``followingLeaf(path:)``), its elements on their
        /// way to the cache.
        ///
        /// Out of line, and given the path alone: were the iterator itself passed, it would
        /// live in memory for the whole loop, and each element would pay a store and a
        /// reload of its position.
        @inlinable @inline(never)
        static func advance(path: inout [(node: Unmanaged<Node>, next: Int)]) -> Unmanaged<Node>? {
            let leaf = followingLeaf(path: &path)
            if let leaf { prefetch(leaf) }
            return leaf
        }

        /// The next element, or `nil` after the last.
        ///
        /// One read site, after the move to the next leaf: a copy out of the leaf that the
        /// loop body only reads then needs no retain and release in a specialized loop, as
        /// with `Array` (a second read site in the slow path would force them on both).
        ///
        /// - Complexity: O(1) amortized.
        @inlinable @inline(__always)
        public mutating func next() -> Element? {
            if position == end {
                guard let next = lookahead else { return nil }
                leaf = next
                position = 0
                end = Self.width(of: next)
                lookahead = Self.advance(path: &path)
            }
            let current = position
            position = current &+ 1
            return leaf._withUnsafeGuaranteedRef { leaf in
                leaf.withUnsafeMutablePointerToElements { Node.elements(in: $0)[current] }
            }
        }
    }
}

extension TreeArray: ExpressibleByArrayLiteral {

    /// A tree holding the literal's elements.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension TreeArray: CustomStringConvertible, CustomDebugStringConvertible {

    /// The elements, written as an array literal.
    ///
    /// - Complexity: O(*n*).
    public var description: String {
        "[" + map { String(describing: $0) }.joined(separator: ", ") + "]"
    }

    /// The elements, written as an array literal, prefixed with the type.
    ///
    /// - Complexity: O(*n*).
    public var debugDescription: String {
        "TreeArray(" + description + ")"
    }
}
