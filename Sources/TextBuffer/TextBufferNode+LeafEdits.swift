extension TextBufferNode {

    /// A point in a leaf whose prefix's hash is known: where the leaf's last edit ended its
    /// new text. Typing goes on there, and the step recording the edit cuts the text there for
    /// its fingerprint: both take the hash of the leaf's bytes before that point from here,
    /// where each read up to half the leaf. Set only when the leaf is made or written, like
    /// its bytes, so never while the leaf is shared.
    struct LeafCut {
        /// The offset in the leaf's bytes; -1 for no cut.
        var offset: Int
        /// The hash of the leaf's bytes before `offset`.
        var hash: UInt64

        static let none = LeafCut(offset: -1, hash: 0)
    }

    /// A leaf's hash, unit counts and cut: what an edit of its bytes must bring up to date.
    struct LeafSummary {
        var textHash: TextHash
        var scalarCount: Int
        var utf16Count: Int
        var cut: LeafCut
    }

    /// This leaf's summary once `range` of its bytes (on scalar boundaries) is replaced by
    /// `replacement`, made from its current one: the counts change by those of the two runs,
    /// and the hash is rebuilt from the leaf's own, the two runs' and the cheaper side of the
    /// edit's (the bytes after it, or those before it, from the leaf's cut where that is
    /// nearer; see `prefixHash(upTo:)`). A keystroke in a full leaf reads at most half of it,
    /// and next to the last edit only the bytes between the two.
    func summary(replacing range: Range<Int>, with replacement: UnsafeBufferPointer<UInt8>) -> LeafSummary {
        let count = bytes.count
        let (removedScalars, removedUTF16) = bytes.withUnsafeBufferPointer { Node.unitCounts(of: UnsafeBufferPointer(rebasing: $0[range])) }
        let (addedScalars, addedUTF16) = Node.unitCounts(of: replacement)
        let removed = hash(of: range)
        let added = TextHash(of: UnsafeRawBufferPointer(replacement))
        // The leaf is X·R·Y; it becomes X·I·Y. Y's hash is read or, when X's costs less, comes
        // out of the whole's; then R is cut out and I put in its place.
        let afterCount = count - range.upperBound
        let after = afterCount <= prefixReadCount(range.lowerBound)
            ? hash(of: range.upperBound..<count)
            : textHash.droppingPrefix(prefixHash(upTo: range.lowerBound).followed(by: removed), suffixLength: afterCount)
        let edited = textHash.cuttingOut(removed, length: range.count, before: after).inserting(added, before: after)
        let cutOffset = range.lowerBound + replacement.count
        return LeafSummary(
            textHash: edited,
            scalarCount: scalarCount - removedScalars + addedScalars,
            utf16Count: utf16Count - removedUTF16 + addedUTF16,
            cut: LeafCut(
                offset: cutOffset,
                hash: edited.droppingSuffix(after, suffixLength: afterCount, prefixLength: cutOffset).hash
            )
        )
    }

    /// Replaces `range` of this leaf's bytes with `replacement` in place; the leaf must be
    /// uniquely referenced.
    func replaceBytes(in range: Range<Int>, with replacement: UnsafeBufferPointer<UInt8>) {
        let summary = summary(replacing: range, with: replacement)
        bytes.replaceSubrange(range, with: replacement)
        byteCount = bytes.count
        (textHash, scalarCount, utf16Count, cut) = (summary.textHash, summary.scalarCount, summary.utf16Count, summary.cut)
    }

    /// A new leaf holding this one's bytes with `range` replaced by `replacement`, at its
    /// exact size (copied, then spliced, the array would grow to twice what it holds).
    func replacingBytes(in range: Range<Int>, with replacement: UnsafeBufferPointer<UInt8>) -> Node {
        Node(leaf: Node.splice(bytes, range, replacement), summary: summary(replacing: range, with: replacement))
    }
}
