// Building of a tree node; the node's layout and header are in TreeArrayNode.swift.

extension TreeArrayNode {

    /// A balanced tree of full nodes holding `elements` in order.
    @inlinable
    static func build<S: Sequence<Element>>(_ elements: S) -> Node {
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
    func forEachLeaf(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        if isLeaf {
            try withElements { try body(UnsafeBufferPointer($0)) }
        } else {
            for position in 0 ..< width {
                try child(position).forEachLeaf(body)
            }
        }
    }
}
