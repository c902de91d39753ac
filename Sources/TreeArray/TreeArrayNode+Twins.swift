// Copies and twins of a tree node; the node's layout and header are in TreeArrayNode.swift.

extension TreeArrayNode {

    /// A node with the same contents, sharing the children, with room for `slots` entries
    /// (a leaf's as many as it holds, unless given; a branch's always ``branchSlots``). A
    /// leaf's elements are copied at once (a copy is made to be written), byte for byte.
    @inlinable
    func copy(slots newSlots: Int? = nil) -> Node {
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
    static func copyBytes(from source: UnsafeMutablePointer<Element>, to target: UnsafeMutablePointer<Element>, count: Int) {
        guard count > 0 else { return }
        target.initialize(from: source, count: count)
        // The properties' bytes are those just written (the references in them retained once
        // more): writing them again changes nothing but the padding.
        UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: count * MemoryLayout<Element>.stride)
    }

    /// Marks this node as about to be mutated in place: a new stamp, and no twin.
    @inlinable @inline(__always)
    func touch() {
        withUnsafeMutablePointerToHeader {
            $0.pointee.stamp = nextTreeArrayStamp()
            $0.pointee.twinStamp = 0
        }
    }

    /// Whether `other` is known to hold exactly this node's elements.
    @inlinable @inline(__always)
    func isTwin(of other: Node) -> Bool {
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
    var isOverfull: Bool {
        width > (isLeaf ? Node.leafCapacity : Node.branchCapacity)
    }

    @inlinable
    var isUnderfull: Bool {
        width < (isLeaf ? Node.leafCapacity : Node.branchCapacity) / 2
    }

    /// Recomputes the running ends, last keys and count of a branch from child `start` on.
    @inlinable
    func recomputeEnds(from start: Int = 0) {
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
    static func childSize(ends: UnsafeMutablePointer<Int>, width: Int) -> Int {
        guard width > 0 else { return 0 }
        let size = ends[0]
        for position in 1 ..< width where ends[position] - ends[position - 1] != size {
            return position == width - 1 && ends[position] - ends[position - 1] < size ? size : 0
        }
        return size
    }

    /// The key of the last element in this subtree; `0` when it is empty.
    @inlinable
    var lastKey: UInt64 {
        withUnsafeMutablePointerToHeader { $0.pointee.keys.last } ?? 0
    }
}
