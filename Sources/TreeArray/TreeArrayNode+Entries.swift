// Entries of a tree node; the node's layout and header are in TreeArrayNode.swift.

extension TreeArrayNode {

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
    var ends: ContiguousArray<Int> {
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
    func end(_ position: Int) -> Int {
        withUnsafeMutablePointerToElements { Node.ends(in: $0)[position] }
    }
}
