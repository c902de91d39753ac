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
    /// The hash of this subtree's bytes (see `TextHash`), kept up to date by every write.
    @exclusivity(unchecked) var textHash: TextHash
    /// The number of Unicode scalars in this subtree, kept up to date by every write (with
    /// ``textHash``): a scalar offset is found by descending the tree, not by reading it.
    @exclusivity(unchecked) var scalarCount: Int
    /// The number of UTF-16 code units in this subtree: its scalars, plus one for each
    /// scalar beyond the Basic Multilingual Plane (a surrogate pair).
    @exclusivity(unchecked) var utf16Count: Int
    /// In a leaf, where the text its last edit put in ends, with the hash of the bytes before
    /// that point (see ``LeafCut``); none in a branch or a leaf no edit made.
    @exclusivity(unchecked) var cut: LeafCut

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
        textHash = bytes.withUnsafeBytes { TextHash(of: $0) }
        (scalarCount, utf16Count) = bytes.withUnsafeBufferPointer { Node.unitCounts(of: $0) }
        cut = .none
    }

    /// A leaf whose hash and unit counts are already known (see `summary(replacing:with:)`).
    init(leaf bytes: ContiguousArray<UInt8>, summary: LeafSummary) {
        height = 0
        byteCount = bytes.count
        self.bytes = bytes
        children = []
        textHash = summary.textHash
        scalarCount = summary.scalarCount
        utf16Count = summary.utf16Count
        cut = summary.cut
    }

    init(height: Int, children: ContiguousArray<Slot>) {
        self.height = height
        self.children = children
        bytes = []
        var total = 0
        var hash = TextHash()
        var (scalars, utf16) = (0, 0)
        for child in children {
            total += child.byteCount
            hash = hash.followed(by: child.node.textHash)
            scalars += child.node.scalarCount
            utf16 += child.node.utf16Count
        }
        byteCount = total
        textHash = hash
        scalarCount = scalars
        utf16Count = utf16
        cut = .none
    }

    convenience init(height: Int, nodes: some Sequence<Node>) {
        self.init(height: height, children: ContiguousArray(nodes.lazy.map(Slot.init)))
    }

    private init(copying node: Node) {
        height = node.height
        byteCount = node.byteCount
        bytes = node.bytes
        children = node.children
        textHash = node.textHash
        scalarCount = node.scalarCount
        utf16Count = node.utf16Count
        cut = node.cut
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
