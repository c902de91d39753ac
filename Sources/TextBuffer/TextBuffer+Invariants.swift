extension TextBuffer {

    /// Checks the tree's structure and traps where it is broken: every leaf at one depth,
    /// each node within its fill limits (the root aside), the byte, scalar and UTF-16 counts
    /// summed, no branch root of one child, every chunk valid UTF-8 on its own, and every
    /// branch's hash made of its children's. Each leaf's hash and cut are checked against its
    /// bytes only in a text of up to 64 KB. Run after every edit of a text of up to 64 KB in debug
    /// builds (see `editInvariantCheckLimit`), and by the tests after their edits.
    ///
    /// `package`, not public: only this package's tests call it, those of the history too.
    ///
    /// - Complexity: O(*n*).
    package func _invariantCheck() {
        precondition(root.isLeaf || root.children.count >= 2, "TextBuffer: a branch root has a single child")
        precondition(!root.isOverfull, "TextBuffer: the root holds too much")
        check(root, isRoot: true, hashingLeaves: utf8Count <= 65_536)
    }

    private func check(_ node: Node, isRoot: Bool, hashingLeaves: Bool) {
        if !isRoot {
            precondition(!node.isOverfull && !node.isUnderfull, "TextBuffer: a node holds \(node.fill), outside its limits")
        }
        if node.isLeaf {
            precondition(node.children.isEmpty && node.byteCount == node.bytes.count, "TextBuffer: a leaf's count is wrong")
            precondition(String(validating: node.bytes, as: UTF8.self) != nil, "TextBuffer: a chunk is not valid UTF-8 on its own")
            precondition(!hashingLeaves || node.textHash == node.computedTextHash(), "TextBuffer: a leaf's hash is stale")
            precondition(node.cut.offset <= node.bytes.count, "TextBuffer: a leaf's cut lies past its end")
            precondition(!hashingLeaves || node.cut.offset < 0 || node.cut.hash == node.hash(of: 0..<node.cut.offset).hash,
                         "TextBuffer: a leaf's cut holds a stale hash")
            let (scalars, utf16) = node.bytes.withUnsafeBufferPointer { Node.unitCounts(of: $0) }
            precondition(node.scalarCount == scalars && node.utf16Count == utf16, "TextBuffer: a leaf's scalar or UTF-16 count is wrong")
            return
        }
        precondition(node.bytes.isEmpty, "TextBuffer: a branch holds bytes")
        var (total, scalars, utf16) = (0, 0, 0)
        for child in node.children {
            precondition(child.node.height == node.height - 1, "TextBuffer: leaves at different depths")
            precondition(child.byteCount == child.node.byteCount, "TextBuffer: a branch holds a wrong count for a child")
            check(child.node, isRoot: false, hashingLeaves: hashingLeaves)
            total += child.byteCount
            scalars += child.node.scalarCount
            utf16 += child.node.utf16Count
        }
        precondition(total == node.byteCount, "TextBuffer: a branch's count is not its children's sum")
        precondition(scalars == node.scalarCount && utf16 == node.utf16Count,
                     "TextBuffer: a branch's scalar or UTF-16 count is not its children's sum")
        precondition(node.textHash == node.computedTextHash(), "TextBuffer: a branch's hash is stale")
    }
}

extension TextBuffer {

    /// Checks every leaf's hash, cut and unit counts against their definitions, and the root's
    /// hash against that of the whole text, each hashed byte by byte (`TextHash(byteByByte:)`)
    /// whatever the text's length: what a leaf's incremental update after an edit and the
    /// branches' joined hashes must equal exactly, since archives keep the fingerprints made
    /// of them. Traps where they differ.
    ///
    /// `package`, for tests and fuzz targets: the definition is slow (O(*n*), one
    /// multiplication per byte), so `_invariantCheck()` reads leaves with the fast hash and
    /// only in short texts. Traps with `fatalError`, not `precondition`: optimized builds
    /// (the fuzz targets') drop a precondition's message, and these say what differs.
    package func _leafSummariesCheck() {
        var all: [UInt8] = []
        all.reserveCapacity(utf8Count)
        checkLeafSummaries(root, into: &all)
        let whole = all.withUnsafeBytes { TextHash(byteByByte: $0) }
        if root.textHash != whole {
            fatalError("TextBuffer: the root's hash is not the byte-by-byte hash of the text's \(all.count) bytes")
        }
    }

    private func checkLeafSummaries(_ node: Node, into all: inout [UInt8]) {
        guard node.isLeaf else {
            for child in node.children { checkLeafSummaries(child.node, into: &all) }
            return
        }
        let hash = node.bytes.withUnsafeBytes { TextHash(byteByByte: $0) }
        if node.textHash != hash {
            fatalError("TextBuffer: the hash of a leaf of \(node.bytes.count) bytes at \(all.count) is not their byte-by-byte hash")
        }
        if node.cut.offset > node.bytes.count {
            fatalError("TextBuffer: a leaf of \(node.bytes.count) bytes at \(all.count) has its cut at \(node.cut.offset)")
        }
        if node.cut.offset >= 0,
           node.cut.hash != node.bytes.withUnsafeBytes({ TextHash(byteByByte: UnsafeRawBufferPointer(rebasing: $0[..<node.cut.offset])).hash }) {
            fatalError("TextBuffer: the cut of a leaf at \(all.count) holds a hash that is not that of its first \(node.cut.offset) bytes")
        }
        let (scalars, utf16) = node.bytes.withUnsafeBufferPointer { Node.unitCounts(of: $0) }
        if node.scalarCount != scalars || node.utf16Count != utf16 {
            fatalError("TextBuffer: a leaf at \(all.count) counts \(node.scalarCount) scalars and \(node.utf16Count) UTF-16 units, its bytes hold \(scalars) and \(utf16)")
        }
        all.append(contentsOf: node.bytes)
    }

    /// The fingerprint of `bytes` by its definition, hashed byte by byte: what
    /// `fingerprint(outside:)` must return for the bytes outside its run, however the tree
    /// cuts them. `package`, for tests and fuzz targets.
    package static func _fingerprintByDefinition(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        TextHash(byteByByte: bytes).hash
    }
}
