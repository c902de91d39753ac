extension TextBufferNode {

    /// `bytes` with `range` replaced by `replacement`, in a new array of exactly the size it
    /// needs.
    static func splice(_ bytes: ContiguousArray<UInt8>, _ range: Range<Int>, _ replacement: UnsafeBufferPointer<UInt8>) -> ContiguousArray<UInt8> {
        let count = bytes.count - range.count + replacement.count
        // Not through the initializer with no capacity: it writes the count of the shared
        // empty singleton (see `TreeArrayNode.copyBytes(of:)`).
        guard count > 0 else { return [] }
        return ContiguousArray(unsafeUninitializedCapacity: count) { target, initialized in
            bytes.withUnsafeBufferPointer { source in
                // Three parts written one after the other, not looped over as an array: that
                // array was an allocation on every keystroke.
                var at = 0
                func write(_ part: UnsafeBufferPointer<UInt8>) {
                    _ = UnsafeMutableBufferPointer(rebasing: target[at...]).initialize(fromContentsOf: part)
                    at += part.count
                }
                write(UnsafeBufferPointer(rebasing: source[..<range.lowerBound]))
                write(replacement)
                write(UnsafeBufferPointer(rebasing: source[range.upperBound...]))
            }
            initialized = count
        }
    }
}

extension TextBufferNode {

    /// A root holding `node`'s content with no branch of a single child above it.
    static func normalized(_ node: Node) -> Node {
        var node = node
        while !node.isLeaf, node.children.count == 1 { node = node.children[0].node }
        return node
    }

    /// One or two nodes holding `node`'s content: `node` itself, or, when it holds more than
    /// a node may, its two halves (a leaf cut at a scalar boundary).
    static func splitIfOverfull(_ node: Node) -> ContiguousArray<Node> {
        guard node.isOverfull else { return [node] }
        if node.isLeaf {
            var middle = node.bytes.count / 2
            while !isBoundary(node.bytes[middle]) { middle -= 1 }
            return [Node(leaf: ContiguousArray(node.bytes[..<middle])), Node(leaf: ContiguousArray(node.bytes[middle...]))]
        }
        let middle = node.children.count / 2
        return [
            Node(height: node.height, children: ContiguousArray(node.children[..<middle])),
            Node(height: node.height, children: ContiguousArray(node.children[middle...])),
        ]
    }

    /// One or two nodes holding `left`'s content then `right`'s, both of one height.
    static func merge(_ left: Node, _ right: Node) -> ContiguousArray<Node> {
        let merged: Node
        if left.isLeaf {
            var bytes = ContiguousArray<UInt8>()
            bytes.reserveCapacity(left.bytes.count + right.bytes.count)
            bytes.append(contentsOf: left.bytes)
            bytes.append(contentsOf: right.bytes)
            merged = Node(leaf: bytes)
        } else {
            merged = Node(height: left.height, children: left.children + right.children)
        }
        return splitIfOverfull(merged)
    }

    /// `left`'s content then `right`'s, as one tree. Each may have an underfull root; the
    /// result is valid.
    ///
    /// - Complexity: O(|height difference| + 1) nodes written.
    static func join(_ left: Node, _ right: Node) -> Node {
        if left.byteCount == 0 { return right }
        if right.byteCount == 0 { return left }
        let nodes: ContiguousArray<Node>
        if left.height == right.height {
            nodes = merge(left, right)
        } else if left.height > right.height {
            nodes = joinIntoRight(left, right)
        } else {
            nodes = joinIntoLeft(left, right)
        }
        return nodes.count == 1 ? normalized(nodes[0]) : Node(height: nodes[0].height + 1, nodes: nodes)
    }

    /// `right`, lower, joined at the right end of `left`: one or two nodes of `left`'s height.
    private static func joinIntoRight(_ left: Node, _ right: Node) -> ContiguousArray<Node> {
        let copy = left.copy()
        let last = copy.children.removeLast().node
        let joined = last.height == right.height ? merge(last, right) : joinIntoRight(last, right)
        copy.children.append(contentsOf: joined.lazy.map(Slot.init))
        copy.byteCount += right.byteCount
        copy.refreshTextHash()
        copy.refreshUnitCounts()
        return splitIfOverfull(copy)
    }

    /// `left`, lower, joined at the left end of `right`: one or two nodes of `right`'s height.
    private static func joinIntoLeft(_ left: Node, _ right: Node) -> ContiguousArray<Node> {
        let copy = right.copy()
        let first = copy.children[0].node
        let joined = first.height == left.height ? merge(left, first) : joinIntoLeft(left, first)
        copy.children.replaceSubrange(0..<1, with: joined.lazy.map(Slot.init))
        copy.byteCount += left.byteCount
        copy.refreshTextHash()
        copy.refreshUnitCounts()
        return splitIfOverfull(copy)
    }

    /// The content before byte `offset` and the content from it, as two trees; `offset` must
    /// fall at a scalar boundary.
    ///
    /// - Complexity: O(log *n*) nodes written.
    static func split(_ node: Node, at offset: Int) -> (Node, Node) {
        if offset == 0 { return (Node(leaf: []), node) }
        if offset == node.byteCount { return (node, Node(leaf: [])) }
        if node.isLeaf {
            return (Node(leaf: ContiguousArray(node.bytes[..<offset])), Node(leaf: ContiguousArray(node.bytes[offset...])))
        }
        let (index, inner) = node.child(containing: offset, preferLeft: false)
        let (lower, upper) = split(node.children[index].node, at: inner)
        var left = lower
        if index > 0 {
            left = join(tree(node.children[..<index], height: node.height), lower)
        }
        var right = upper
        if index + 1 < node.children.count {
            right = join(upper, tree(node.children[(index + 1)...], height: node.height))
        }
        return (left, right)
    }

    /// A tree over some children of a valid branch of `height`.
    private static func tree(_ children: ArraySlice<Slot>, height: Int) -> Node {
        normalized(Node(height: height, children: ContiguousArray(children)))
    }
}
