extension TextBuffer {

    /// Replaces the text between two UTF-8 offsets, which must fall on scalar boundaries,
    /// with `replacement`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `replacement`: a short
    ///   edit copies one path of chunks at most.
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

    /// Replaces the text between two UTF-8 offsets, which must fall on scalar boundaries,
    /// with `bytes`, valid UTF-8: for a history's step, which keeps its runs as bytes, so that
    /// undo makes no `String` of them.
    package mutating func replaceUTF8Subrange(_ range: Range<Int>, withUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        checkRange(range)
        replace(range, with: bytes)
    }

    /// Inserts `string` at a UTF-8 offset, which must fall on a scalar boundary.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `string`.
    public mutating func insert(_ string: some StringProtocol, atUTF8Offset offset: Int) {
        replaceUTF8Subrange(offset..<offset, with: string)
    }

    /// Removes the text between two UTF-8 offsets, which must fall on scalar boundaries.
    ///
    /// - Complexity: O(log *n*).
    public mutating func removeUTF8Subrange(_ range: Range<Int>) {
        replaceUTF8Subrange(range, with: "")
    }

    /// Replaces the text in `range` with `replacement`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `replacement`.
    public mutating func replaceSubrange(_ range: Range<Index>, with replacement: some StringProtocol) {
        replaceUTF8Subrange(range.lowerBound.utf8Offset..<range.upperBound.utf8Offset, with: replacement)
    }

    /// Inserts `string` at `index`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `string`.
    public mutating func insert(_ string: some StringProtocol, at index: Index) {
        replaceUTF8Subrange(index.utf8Offset..<index.utf8Offset, with: string)
    }

    /// Removes the text in `range`.
    ///
    /// - Complexity: O(log *n*).
    public mutating func removeSubrange(_ range: Range<Index>) {
        replaceUTF8Subrange(range.lowerBound.utf8Offset..<range.upperBound.utf8Offset, with: "")
    }

    /// Appends `string` at the end.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of `string`.
    public mutating func append(_ string: some StringProtocol) {
        insert(string, atUTF8Offset: utf8Count)
    }

    /// Replaces `range` (checked) with `bytes`, valid UTF-8.
    mutating func replace(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>) {
        if range.isEmpty, bytes.isEmpty { return }
        // A text lent to a history's journal (TextBuffer+Journal.swift) tells it first.
        let record = journal(range, newCount: bytes.count)
        if !replaceInOneLeaf(range, with: bytes) {
            replaceBySplitting(range, with: bytes)
        }
        record?.root = root
        #if DEBUG
        // Bounded: the check reads the whole text, so after every keystroke it would make
        // typing in a long document slow in an app's debug build (20 ms at 10 MB). The
        // package's tests call `_invariantCheck()` themselves after edits of longer texts.
        if utf8Count <= TextBuffer.editInvariantCheckLimit { _invariantCheck() }
        #endif
    }

    /// Debug builds check the tree after an edit only while the text holds at most this many
    /// bytes: there the check costs about what the edit does.
    static let editInvariantCheckLimit = 65_536

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

        // A shared leaf is rebuilt at its exact new size; a unique one is spliced in place.
        lower = range.lowerBound
        if root.isLeaf {
            if isKnownUniquelyReferenced(&root) {
                root.replaceBytes(in: lower..<(lower + range.count), with: bytes)
            } else {
                root = root.replacingBytes(in: lower..<(lower + range.count), with: bytes)
            }
            return true
        }
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        node = root
        // The branches written, whose hashes and unit counts are brought up to date from the
        // leaf up.
        var path: [Node] = []
        defer {
            for branch in path.reversed() {
                branch.refreshTextHash()
                branch.refreshUnitCounts()
            }
        }
        while true {
            path.append(node)
            let (index, inner) = node.child(containing: lower, preferLeft: preferLeft)
            lower = inner
            node.byteCount += delta
            node.children[index].byteCount += delta
            if node.height == 1 {
                if isKnownUniquelyReferenced(&node.children[index].node) {
                    node.children[index].node.replaceBytes(in: lower..<(lower + range.count), with: bytes)
                } else {
                    node.children[index].node = node.children[index].node.replacingBytes(in: lower..<(lower + range.count), with: bytes)
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
