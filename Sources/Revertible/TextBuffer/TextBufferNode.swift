import Foundation

/// One node of a ``TextBuffer``: a leaf holding a chunk of UTF-8, or a branch holding child
/// nodes of one lower height.
///
/// Nodes are shared between versions of a buffer and never change while shared: a mutation
/// first copies each node on its path that is not uniquely referenced, so two versions share
/// every node one of them did not write. A leaf always holds whole Unicode scalars, so any
/// chunk is valid UTF-8 on its own.
///
/// The stored properties opt out of dynamic exclusivity checks: a node is only written
/// through the one buffer that references it uniquely, inside that buffer's own mutating
/// (hence already exclusive) access.
///
/// `@unchecked Sendable`: a node reachable from two versions (so from two threads) is never
/// written; only a uniquely referenced node is, by its one owner.
final class TextBufferNode: @unchecked Sendable {

    typealias Node = TextBufferNode

    /// A leaf never holds more bytes than this. A few KB: copying a leaf on each edit of a
    /// shared version stays a short `memcpy`, while the tree stays three or four levels
    /// deep at 10 MB.
    static let maximumBytes = 4096
    /// Leaves other than a lone root hold at least this many bytes. A quarter of the
    /// maximum leaves room for halves cut at scalar boundaries (up to 3 bytes off center).
    static let minimumBytes = 1024
    /// A chunk built from a long string holds about this many bytes: short of the maximum,
    /// so the first insertions into a loaded document do not split leaves at once.
    static let buildBytes = 3072
    /// A branch never has more children than this.
    static let maximumChildren = 16
    /// Branches other than the root have at least this many children.
    static let minimumChildren = 8

    /// `0` for a leaf; a branch's children all have `height - 1`.
    let height: Int
    /// The number of UTF-8 bytes in this subtree.
    @exclusivity(unchecked) var byteCount: Int
    /// A leaf's bytes. Empty in a branch.
    @exclusivity(unchecked) var bytes: ContiguousArray<UInt8>
    /// A branch's children, in order, each with its byte count: a search for an offset
    /// reads one contiguous array, not a node per child. Empty in a leaf.
    @exclusivity(unchecked) var children: ContiguousArray<Slot>

    /// A child and its byte count (always the child's own ``byteCount``).
    struct Slot {
        var node: Node
        var byteCount: Int

        init(_ node: Node) {
            self.node = node
            byteCount = node.byteCount
        }
    }

    init(leaf bytes: ContiguousArray<UInt8>) {
        height = 0
        byteCount = bytes.count
        self.bytes = bytes
        children = []
    }

    init(height: Int, children: ContiguousArray<Slot>) {
        self.height = height
        self.children = children
        bytes = []
        var total = 0
        for child in children { total += child.byteCount }
        byteCount = total
    }

    convenience init(height: Int, nodes: some Sequence<Node>) {
        self.init(height: height, children: ContiguousArray(nodes.lazy.map(Slot.init)))
    }

    private init(copying node: Node) {
        height = node.height
        byteCount = node.byteCount
        bytes = node.bytes
        children = node.children
    }

    var isLeaf: Bool { height == 0 }

    /// A node with the same content, sharing its children (or, until written, its bytes).
    func copy() -> Node {
        Node(copying: self)
    }

    /// How many bytes or children this node holds: what its fill limits count.
    var fill: Int { isLeaf ? bytes.count : children.count }

    var isOverfull: Bool { isLeaf ? bytes.count > Node.maximumBytes : children.count > Node.maximumChildren }

    var isUnderfull: Bool { isLeaf ? bytes.count < Node.minimumBytes : children.count < Node.minimumChildren }

    /// The child holding byte `offset` of this branch, and the offset inside it. An offset at
    /// the boundary of two children goes to the left one when `preferLeft` (an insertion at
    /// the end of a chunk extends it), else to the right one.
    func child(containing offset: Int, preferLeft: Bool) -> (index: Int, offset: Int) {
        var remaining = offset
        let last = children.count - 1
        for index in 0..<last {
            let count = children[index].byteCount
            if remaining < count || (preferLeft && remaining == count) {
                return (index, remaining)
            }
            remaining -= count
        }
        return (last, remaining)
    }

    /// Whether a cut may be made just before `byte`: UTF-8 continuation bytes never start
    /// a scalar.
    static func isBoundary(_ byte: UInt8) -> Bool {
        byte & 0b1100_0000 != 0b1000_0000
    }

    /// The byte at `offset` of this subtree.
    func byte(at offset: Int) -> UInt8 {
        var node = self
        var offset = offset
        while !node.isLeaf {
            let (index, inner) = node.child(containing: offset, preferLeft: false)
            (node, offset) = (node.children[index].node, inner)
        }
        return node.bytes[offset]
    }

    /// The leaf holding byte `offset` (the last leaf for the end), and the offset of its
    /// first byte in this subtree.
    func leaf(containing offset: Int) -> (leaf: Node, start: Int) {
        var node = self
        var start = 0
        while !node.isLeaf {
            let (index, inner) = node.child(containing: offset - start, preferLeft: false)
            start = offset - inner
            node = node.children[index].node
        }
        return (node, start)
    }

    /// Calls `body` with each leaf's bytes that fall in `range`, in order.
    func forEachChunk(in range: Range<Int>, _ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
        guard !range.isEmpty else { return }
        if isLeaf {
            try body(ArraySlice(bytes)[range])
            return
        }
        var start = 0
        for index in children.indices {
            let end = start + children[index].byteCount
            if end > range.lowerBound {
                let lower = Swift.max(range.lowerBound, start) - start
                let upper = Swift.min(range.upperBound, end) - start
                try children[index].node.forEachChunk(in: lower..<upper, body)
            }
            if end >= range.upperBound { break }
            start = end
        }
    }
}

// MARK: - Building

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

// MARK: - Joining and splitting

extension TextBufferNode {

    /// `bytes` with `range` replaced by `replacement`, in a new array of exactly the size it
    /// needs.
    static func splice(_ bytes: ContiguousArray<UInt8>, _ range: Range<Int>, _ replacement: UnsafeBufferPointer<UInt8>) -> ContiguousArray<UInt8> {
        let count = bytes.count - range.count + replacement.count
        return ContiguousArray(unsafeUninitializedCapacity: count) { target, initialized in
            bytes.withUnsafeBufferPointer { source in
                var at = 0
                for part in [UnsafeBufferPointer(rebasing: source[..<range.lowerBound]), replacement, UnsafeBufferPointer(rebasing: source[range.upperBound...])] {
                    _ = UnsafeMutableBufferPointer(rebasing: target[at...]).initialize(fromContentsOf: part)
                    at += part.count
                }
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
        return splitIfOverfull(copy)
    }

    /// `left`, lower, joined at the left end of `right`: one or two nodes of `right`'s height.
    private static func joinIntoLeft(_ left: Node, _ right: Node) -> ContiguousArray<Node> {
        let copy = right.copy()
        let first = copy.children[0].node
        let joined = first.height == left.height ? merge(left, first) : joinIntoLeft(left, first)
        copy.children.replaceSubrange(0..<1, with: joined.lazy.map(Slot.init))
        copy.byteCount += left.byteCount
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

// MARK: - Comparing

extension TextBufferNode {

    /// The length of the common prefix of two trees' contents. Subtrees the two share at
    /// the same offset are skipped by identity, never read.
    static func commonPrefix(_ a: Node, _ b: Node) -> Int {
        let limit = Swift.min(a.byteCount, b.byteCount)
        let structural = structuralPrefix(a, b)
        // Where the trees are cut differently, the walk gives only a lower bound: the bytes
        // from there on are compared leaf by leaf.
        if structural.exact { return structural.length }
        if structural.length >= limit { return limit }
        return bytewisePrefix(a, b, from: structural.length)
    }

    /// A common prefix found by walking both trees side by side where they are cut alike;
    /// `exact` when the first difference was found there, else only a lower bound.
    private static func structuralPrefix(_ a: Node, _ b: Node) -> (length: Int, exact: Bool) {
        if a === b { return (a.byteCount, false) }
        if a.isLeaf, b.isLeaf {
            let length = Swift.min(a.bytes.count, b.bytes.count)
            let same = a.bytes.withUnsafeBufferPointer { x in
                b.bytes.withUnsafeBufferPointer { y in firstDifference(x, y, length: length) }
            }
            return (same, same < length)
        }
        guard a.height == b.height else { return (0, false) }
        var total = 0
        for index in 0..<Swift.min(a.children.count, b.children.count) {
            // Shared children are skipped by their slots alone, without reading the node
            // (or retaining it).
            if a.children[index].node === b.children[index].node {
                total += a.children[index].byteCount
                continue
            }
            let (x, y) = (a.children[index], b.children[index])
            let (length, exact) = structuralPrefix(x.node, y.node)
            total += length
            if exact { return (total, true) }
            if length < x.byteCount || length < y.byteCount { return (total, false) }
        }
        return (total, false)
    }

    /// The common prefix, compared leaf by leaf from `start` (which both share before it).
    private static func bytewisePrefix(_ a: Node, _ b: Node, from start: Int) -> Int {
        let limit = Swift.min(a.byteCount, b.byteCount)
        var position = start
        while position < limit {
            let (leafA, startA) = a.leaf(containing: position)
            let (leafB, startB) = b.leaf(containing: position)
            let endA = startA + leafA.bytes.count
            let endB = startB + leafB.bytes.count
            let end = Swift.min(endA, endB, limit)
            if leafA === leafB, startA == startB {
                position = end
                continue
            }
            let same = leafA.bytes.withUnsafeBufferPointer { x in
                leafB.bytes.withUnsafeBufferPointer { y in
                    firstDifference(
                        UnsafeBufferPointer(rebasing: x[(position - startA)...]),
                        UnsafeBufferPointer(rebasing: y[(position - startB)...]),
                        length: end - position
                    )
                }
            }
            position += same
            if position < end { return position }
        }
        return limit
    }

    /// The length of the common suffix of two trees' contents, skipping shared subtrees.
    static func commonSuffix(_ a: Node, _ b: Node) -> Int {
        let limit = Swift.min(a.byteCount, b.byteCount)
        let structural = structuralSuffix(a, b)
        // Where the trees are cut differently, the walk gives only a lower bound: the bytes
        // from there on are compared leaf by leaf.
        if structural.exact { return structural.length }
        if structural.length >= limit { return limit }
        return bytewiseSuffix(a, b, from: structural.length)
    }

    private static func structuralSuffix(_ a: Node, _ b: Node) -> (length: Int, exact: Bool) {
        if a === b { return (a.byteCount, false) }
        if a.isLeaf, b.isLeaf {
            let length = Swift.min(a.bytes.count, b.bytes.count)
            let same = a.bytes.withUnsafeBufferPointer { x in
                b.bytes.withUnsafeBufferPointer { y in lastDifference(x, y, length: length) }
            }
            return (same, same < length)
        }
        guard a.height == b.height else { return (0, false) }
        var total = 0
        var (i, j) = (a.children.count - 1, b.children.count - 1)
        while i >= 0, j >= 0 {
            if a.children[i].node === b.children[j].node {
                total += a.children[i].byteCount
                i -= 1
                j -= 1
                continue
            }
            let (x, y) = (a.children[i], b.children[j])
            let (length, exact) = structuralSuffix(x.node, y.node)
            total += length
            if exact { return (total, true) }
            if length < x.byteCount || length < y.byteCount { return (total, false) }
            i -= 1
            j -= 1
        }
        return (total, false)
    }

    /// The common suffix, compared leaf by leaf back from `start` bytes before the ends.
    private static func bytewiseSuffix(_ a: Node, _ b: Node, from start: Int) -> Int {
        let limit = Swift.min(a.byteCount, b.byteCount)
        var length = start
        while length < limit {
            // The last byte not yet known common, in each tree.
            let (leafA, startA) = a.leaf(containing: a.byteCount - length - 1)
            let (leafB, startB) = b.leaf(containing: b.byteCount - length - 1)
            let endA = a.byteCount - length - startA
            let endB = b.byteCount - length - startB
            let run = Swift.min(endA, endB, limit - length)
            if leafA === leafB, endA == endB {
                length += run
                continue
            }
            let same = leafA.bytes.withUnsafeBufferPointer { x in
                leafB.bytes.withUnsafeBufferPointer { y in
                    lastDifference(
                        UnsafeBufferPointer(rebasing: x[(endA - run)..<endA]),
                        UnsafeBufferPointer(rebasing: y[(endB - run)..<endB]),
                        length: run
                    )
                }
            }
            length += same
            if same < run { return length }
        }
        return limit
    }

    /// How many leading bytes of `x` and `y` (each at least `length` long) are equal.
    private static func firstDifference(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, length: Int) -> Int {
        guard length > 0, let baseX = x.baseAddress, let baseY = y.baseAddress else { return 0 }
        var index = 0
        // Ever smaller blocks through `memcmp` (vectorized), then words in the first block
        // that differs: a chunk of a few KB takes about twenty calls, not a hundred.
        while index + 512 <= length, memcmp(baseX + index, baseY + index, 512) == 0 { index += 512 }
        while index + 64 <= length, memcmp(baseX + index, baseY + index, 64) == 0 { index += 64 }
        while index + 8 <= length {
            let wordX = UnsafeRawPointer(baseX + index).loadUnaligned(as: UInt64.self)
            let wordY = UnsafeRawPointer(baseY + index).loadUnaligned(as: UInt64.self)
            if wordX != wordY { break }
            index += 8
        }
        while index < length, baseX[index] == baseY[index] { index += 1 }
        return index
    }

    /// How many trailing bytes of the last `length` of `x` and `y` are equal; both end where
    /// the compared runs end.
    private static func lastDifference(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, length: Int) -> Int {
        guard length > 0, let baseX = x.baseAddress, let baseY = y.baseAddress else { return 0 }
        let (endX, endY) = (baseX + x.count, baseY + y.count)
        var matched = 0
        while matched + 512 <= length, memcmp(endX - matched - 512, endY - matched - 512, 512) == 0 { matched += 512 }
        while matched + 64 <= length, memcmp(endX - matched - 64, endY - matched - 64, 64) == 0 { matched += 64 }
        while matched + 8 <= length {
            let wordX = UnsafeRawPointer(endX - matched - 8).loadUnaligned(as: UInt64.self)
            let wordY = UnsafeRawPointer(endY - matched - 8).loadUnaligned(as: UInt64.self)
            if wordX != wordY { break }
            matched += 8
        }
        while matched < length, (endX - matched - 1).pointee == (endY - matched - 1).pointee { matched += 1 }
        return matched
    }
}
