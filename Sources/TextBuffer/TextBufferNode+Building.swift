extension TextBufferNode {

    /// A balanced tree holding `bytes`, which must be valid UTF-8: leaves of about
    /// ``buildBytes`` cut at scalar boundaries, grouped into full branches.
    ///
    /// - Complexity: O(*n*).
    static func build(_ bytes: UnsafeBufferPointer<UInt8>) -> Node {
        guard bytes.count > maximumBytes else {
            return Node(leaf: ContiguousArray(bytes))
        }
        var leaves = ContiguousArray<Node>()
        leaves.reserveCapacity(bytes.count / buildBytes + 2)
        var start = 0
        while start < bytes.count {
            var end = Swift.min(start + buildBytes, bytes.count)
            if bytes.count - end < minimumBytes { end = bytes.count }
            if end - start > maximumBytes { end = start + (end - start) / 2 }
            while end < bytes.count, !isBoundary(bytes[end]) { end -= 1 }
            leaves.append(Node(leaf: ContiguousArray(UnsafeBufferPointer(rebasing: bytes[start..<end]))))
            start = end
        }
        return group(leaves, height: 1)
    }

    /// A tree over `nodes`, all of height `height - 1` and each well filled.
    static func group(_ nodes: ContiguousArray<Node>, height: Int) -> Node {
        if nodes.count == 1 { return nodes[0] }
        let target = (minimumChildren + maximumChildren) / 2 + 2
        var parents = ContiguousArray<Node>()
        var start = 0
        while start < nodes.count {
            var end = Swift.min(start + target, nodes.count)
            if nodes.count - end < minimumChildren { end = nodes.count }
            if end - start > maximumChildren { end = start + (end - start) / 2 }
            parents.append(Node(height: height, nodes: nodes[start..<end]))
            start = end
        }
        return group(parents, height: height + 1)
    }
}
