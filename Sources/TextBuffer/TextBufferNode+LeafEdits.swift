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
        // The leaf is X·R·Y; it becomes X·I·Y. Whichever of X and Y is shorter is hashed; the
        // other comes out of the whole.
        let (before, after): (TextHash, TextHash)
        if range.lowerBound <= count - range.upperBound {
            before = hash(of: 0..<range.lowerBound)
            after = textHash
                .droppingPrefix(before, suffixLength: count - range.lowerBound)
                .droppingPrefix(removed, suffixLength: count - range.upperBound)
        } else {
            after = hash(of: range.upperBound..<count)
            before = textHash
                .droppingSuffix(after, suffixLength: count - range.upperBound, prefixLength: range.upperBound)
                .droppingSuffix(removed, suffixLength: range.count, prefixLength: range.lowerBound)
        }
        return LeafSummary(
            textHash: before.followed(by: added).followed(by: after),
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
