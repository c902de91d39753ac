/// Text for long documents: a string stored as a balanced tree of UTF-8 chunks that
/// versions of the text share, so that editing and undoing cost O(log *n*), not O(*n*).
///
/// `TextBuffer` has value semantics. Copying is O(1): a copy shares all of its storage with
/// the original, and a mutation then copies only the path of chunks from the root to the
/// place it writes. Two versions that differ by one keystroke share everything else, which
/// is what makes it the text type for undo histories of documents of megabytes: recording a
/// step compares the two versions by skipping every chunk they share, and the history's copy
/// of the present shares the present's chunks.
///
/// Positions are UTF-8 offsets, or ``Index`` values made from them; every position must fall
/// on a Unicode scalar boundary. Convert from and to `String` with ``init(_:)`` and
/// `String(_:)`; read by scalars with ``unicodeScalars`` or by characters with
/// ``characters``.
///
/// Two buffers are equal when they hold the same Unicode scalars. Unlike `String`, a text
/// spelled differently but canonically equivalent (`"é"` as `"e\u{301}"`) is not equal: an
/// editor's undo must give back exactly the bytes that were there. Compare
/// `String(a) == String(b)` for canonical equivalence.
///
/// ```swift
/// var text = TextBuffer("Hello world")
/// text.insert(",", atUTF8Offset: 5)
/// let edited = String(text) // "Hello, world"
/// ```
public struct TextBuffer: Sendable {

    typealias Node = TextBufferNode

    /// Never nil: an empty buffer is one empty leaf.
    var root: Node

    init(root: Node) {
        self.root = root
    }

    /// An empty buffer.
    ///
    /// - Complexity: O(1).
    public init() {
        root = Node(leaf: [])
    }

    /// A buffer holding the text of `string`.
    ///
    /// - Complexity: O(*n*), where *n* is the length of `string` in UTF-8 bytes: one copy of
    ///   its bytes into chunks.
    @inlinable
    public init(_ string: some StringProtocol) {
        self.init(string: String(string))
    }

    /// Specialized callers pass a `String`: the generic conversion happens in their module.
    @usableFromInline
    init(string: String) {
        var string = string
        root = string.withUTF8 { Node.build($0) }
    }

    /// The length of the text in UTF-8 bytes.
    ///
    /// - Complexity: O(1).
    public var utf8Count: Int { root.byteCount }

    /// Whether the buffer holds no text.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool { root.byteCount == 0 }
}

extension String {

    /// The text of `buffer`.
    ///
    /// - Complexity: O(*n*), where *n* is the buffer's length in UTF-8 bytes: one copy of
    ///   its chunks.
    public init(_ buffer: TextBuffer) {
        self = buffer.string(inUTF8Range: 0..<buffer.utf8Count)
    }
}

// MARK: - Reading

extension TextBuffer {

    /// The text between two UTF-8 offsets, which must fall on scalar boundaries.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the range.
    public subscript(utf8Range range: Range<Int>) -> String {
        checkRange(range)
        return string(inUTF8Range: range)
    }

    /// The text in `range`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the range.
    public subscript(range: Range<Index>) -> String {
        self[utf8Range: range.lowerBound.utf8Offset..<range.upperBound.utf8Offset]
    }

    /// The text in `range`, unchecked.
    func string(inUTF8Range range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            var written = 0
            root.forEachChunk(in: range) { chunk in
                chunk.withUnsafeBufferPointer { source in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: source)
                }
                written += chunk.count
            }
            return written
        }
    }

    /// Calls `body` with each chunk of the text's UTF-8, in order: the fastest way to read
    /// the whole text (to write it to a file, say).
    ///
    /// - Complexity: O(*n*).
    public func forEachUTF8Chunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try root.forEachChunk(in: 0..<utf8Count) { chunk in
            try chunk.withUnsafeBufferPointer(body)
        }
    }

    /// Traps with a clear message unless `range` lies in the text with both ends on scalar
    /// boundaries.
    func checkRange(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count,
                     "TextBuffer: UTF-8 range \(range) is outside the text of \(utf8Count) bytes")
        precondition(isScalarBoundary(range.lowerBound) && (range.isEmpty || isScalarBoundary(range.upperBound)),
                     "TextBuffer: UTF-8 range \(range) does not fall on Unicode scalar boundaries")
    }

    /// Whether a UTF-8 offset inside the text (or at its end) starts a scalar.
    func isScalarBoundary(_ offset: Int) -> Bool {
        offset == utf8Count || Node.isBoundary(root.byte(at: offset))
    }
}

// MARK: - Editing

extension TextBuffer {

    /// Replaces the text between two UTF-8 offsets, which must fall on scalar boundaries,
    /// with `replacement`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `replacement`: a short
    ///   edit copies one path of chunks at most.
    @inlinable
    public mutating func replaceUTF8Subrange(_ range: Range<Int>, with replacement: some StringProtocol) {
        replaceUTF8Subrange(range, withString: String(replacement))
    }

    /// Every edit ends here, with a `String` made in the caller's specialized code.
    @usableFromInline
    mutating func replaceUTF8Subrange(_ range: Range<Int>, withString replacement: String) {
        checkRange(range)
        var replacement = replacement
        replacement.withUTF8 { replace(range, with: $0) }
    }

    /// Inserts `string` at a UTF-8 offset, which must fall on a scalar boundary.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `string`.
    @inlinable
    public mutating func insert(_ string: some StringProtocol, atUTF8Offset offset: Int) {
        replaceUTF8Subrange(offset..<offset, with: string)
    }

    /// Removes the text between two UTF-8 offsets, which must fall on scalar boundaries.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    public mutating func removeUTF8Subrange(_ range: Range<Int>) {
        replaceUTF8Subrange(range, with: "")
    }

    /// Replaces the text in `range` with `replacement`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `replacement`.
    @inlinable
    public mutating func replaceSubrange(_ range: Range<Index>, with replacement: some StringProtocol) {
        replaceUTF8Subrange(range.lowerBound.utf8Offset..<range.upperBound.utf8Offset, with: replacement)
    }

    /// Inserts `string` at `index`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `string`.
    @inlinable
    public mutating func insert(_ string: some StringProtocol, at index: Index) {
        replaceUTF8Subrange(index.utf8Offset..<index.utf8Offset, with: string)
    }

    /// Removes the text in `range`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    public mutating func removeSubrange(_ range: Range<Index>) {
        replaceUTF8Subrange(range.lowerBound.utf8Offset..<range.upperBound.utf8Offset, with: "")
    }

    /// Appends `string` at the end.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `string`.
    @inlinable
    public mutating func append(_ string: some StringProtocol) {
        insert(string, atUTF8Offset: utf8Count)
    }

    /// Replaces `range` (checked) with `bytes`, valid UTF-8.
    mutating func replace(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>) {
        if range.isEmpty, bytes.isEmpty { return }
        if !replaceInOneLeaf(range, with: bytes) {
            replaceBySplitting(range, with: bytes)
        }
        #if DEBUG
        _invariantCheck()
        #endif
    }

    /// The common edit: `range` lies in one leaf, which stays within its size limits. Copies
    /// the path to that leaf where it is shared, then splices the leaf in place. Returns
    /// `false`, writing nothing, when the edit does not fit so.
    private mutating func replaceInOneLeaf(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let delta = bytes.count - range.count
        // Find the leaf without writing; an insertion at a chunk boundary extends the left one.
        var node = root
        var lower = range.lowerBound
        let preferLeft = range.isEmpty
        while !node.isLeaf {
            let (index, inner) = node.child(containing: lower, preferLeft: preferLeft)
            lower = inner
            node = node.children[index].node
        }
        let upper = lower + range.count
        let newCount = node.bytes.count + delta
        guard upper <= node.bytes.count, newCount <= Node.maximumBytes,
              node === root || newCount >= Node.minimumBytes else { return false }

        // A shared leaf is rebuilt at its exact new size (copied, then spliced, its array
        // would grow to twice what it holds, for the present alone to keep); a unique one
        // is spliced in place.
        lower = range.lowerBound
        if root.isLeaf {
            if isKnownUniquelyReferenced(&root) {
                root.bytes.replaceSubrange(lower..<(lower + range.count), with: bytes)
                root.byteCount = newCount
            } else {
                root = Node(leaf: Node.splice(root.bytes, lower..<(lower + range.count), bytes))
            }
            return true
        }
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        node = root
        while true {
            let (index, inner) = node.child(containing: lower, preferLeft: preferLeft)
            lower = inner
            node.byteCount += delta
            node.children[index].byteCount += delta
            if node.height == 1 {
                if isKnownUniquelyReferenced(&node.children[index].node) {
                    let leaf = node.children[index].node
                    leaf.bytes.replaceSubrange(lower..<(lower + range.count), with: bytes)
                    leaf.byteCount = newCount
                } else {
                    node.children[index].node = Node(leaf: Node.splice(node.children[index].node.bytes, lower..<(lower + range.count), bytes))
                }
                return true
            }
            if !isKnownUniquelyReferenced(&node.children[index].node) {
                node.children[index].node = node.children[index].node.copy()
            }
            node = node.children[index].node
        }
    }

    /// Any edit: the text before `range`, the replacement and the text after it, joined.
    private mutating func replaceBySplitting(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>) {
        let (before, rest) = Node.split(root, at: range.lowerBound)
        let (_, after) = Node.split(rest, at: range.count)
        let middle = Node.build(bytes)
        root = Node.join(Node.join(before, middle), after)
    }
}

// MARK: - Invariants

extension TextBuffer {

    /// Checks the tree's structure and traps where it is broken: every leaf at one depth,
    /// each node within its fill limits (the root aside), the byte counts summed, no branch
    /// root of one child, and every chunk valid UTF-8 on its own. Run after every edit in
    /// debug builds, and by the randomized tests.
    ///
    /// - Complexity: O(*n*).
    public func _invariantCheck() {
        precondition(root.isLeaf || root.children.count >= 2, "TextBuffer: a branch root has a single child")
        precondition(!root.isOverfull, "TextBuffer: the root holds too much")
        check(root, isRoot: true)
    }

    private func check(_ node: Node, isRoot: Bool) {
        if !isRoot {
            precondition(!node.isOverfull && !node.isUnderfull, "TextBuffer: a node holds \(node.fill), outside its limits")
        }
        if node.isLeaf {
            precondition(node.children.isEmpty && node.byteCount == node.bytes.count, "TextBuffer: a leaf's count is wrong")
            precondition(String(validating: node.bytes, as: UTF8.self) != nil, "TextBuffer: a chunk is not valid UTF-8 on its own")
            return
        }
        precondition(node.bytes.isEmpty, "TextBuffer: a branch holds bytes")
        var total = 0
        for child in node.children {
            precondition(child.node.height == node.height - 1, "TextBuffer: leaves at different depths")
            precondition(child.byteCount == child.node.byteCount, "TextBuffer: a branch holds a wrong count for a child")
            check(child.node, isRoot: false)
            total += child.byteCount
        }
        precondition(total == node.byteCount, "TextBuffer: a branch's count is not its children's sum")
    }
}
