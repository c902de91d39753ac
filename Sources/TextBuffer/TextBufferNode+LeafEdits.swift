extension TextBufferNode {

    /// A leaf's hash and unit counts: what an edit of its bytes must bring up to date.
    struct LeafSummary {
        var textHash: TextHash
        var scalarCount: Int
        var utf16Count: Int
    }

    /// This leaf's summary once `range` of its bytes (on scalar boundaries) is replaced by
    /// `replacement`, made from its current one: the counts change by those of the two runs,
    /// and the hash is rebuilt from the leaf's own, the two runs' and the shorter side of the
    /// edit's. A keystroke in a full leaf reads at most half of it, where hashing and
    /// counting it again read it all twice: most of a keystroke's time in a long document.
    func summary(replacing range: Range<Int>, with replacement: UnsafeBufferPointer<UInt8>) -> LeafSummary {
        let count = bytes.count
        let (removedScalars, removedUTF16) = bytes.withUnsafeBufferPointer { Node.unitCounts(of: UnsafeBufferPointer(rebasing: $0[range])) }
        let (addedScalars, addedUTF16) = Node.unitCounts(of: replacement)
        let removed = hash(of: range)
        let added = TextHash(of: UnsafeRawBufferPointer(replacement))
        // The leaf is X·R·Y; it becomes X·I·Y. Y's hash is read or, when X is shorter, comes
        // out of the whole's; then R is cut out and I put in its place.
        let after = range.lowerBound <= count - range.upperBound
            ? textHash.droppingPrefix(hash(of: 0..<range.lowerBound).followed(by: removed), suffixLength: count - range.upperBound)
            : hash(of: range.upperBound..<count)
        return LeafSummary(
            textHash: textHash.cuttingOut(removed, length: range.count, before: after).inserting(added, before: after),
            scalarCount: scalarCount - removedScalars + addedScalars,
            utf16Count: utf16Count - removedUTF16 + addedUTF16
        )
    }

    /// Replaces `range` of this leaf's bytes with `replacement` in place; the leaf must be
    /// uniquely referenced.
    func replaceBytes(in range: Range<Int>, with replacement: UnsafeBufferPointer<UInt8>) {
        let summary = summary(replacing: range, with: replacement)
        bytes.replaceSubrange(range, with: replacement)
        byteCount = bytes.count
        (textHash, scalarCount, utf16Count) = (summary.textHash, summary.scalarCount, summary.utf16Count)
    }

    /// A new leaf holding this one's bytes with `range` replaced by `replacement`, at its
    /// exact size (copied, then spliced, the array would grow to twice what it holds).
    func replacingBytes(in range: Range<Int>, with replacement: UnsafeBufferPointer<UInt8>) -> Node {
        Node(leaf: Node.splice(bytes, range, replacement), summary: summary(replacing: range, with: replacement))
    }
}
