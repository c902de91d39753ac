extension TextBufferNode {

    /// This node's hash made again from its bytes or its children's hashes: after a write,
    /// bottom-up along the path written.
    func computedTextHash() -> TextHash {
        if isLeaf {
            return bytes.withUnsafeBytes { TextHash(of: $0) }
        }
        var result = TextHash()
        for child in children {
            result = result.followed(by: child.node.textHash)
        }
        return result
    }

    /// Brings ``textHash`` up to date after this node's bytes or children changed in place.
    func refreshTextHash() {
        textHash = computedTextHash()
    }

    /// The hash of the bytes in `range` of this subtree: whole children by their own hash,
    /// only the leaves the range cuts byte by byte.
    func textHash(in range: Range<Int>) -> TextHash {
        if range.isEmpty { return TextHash() }
        if range.lowerBound == 0, range.upperBound == byteCount { return textHash }
        if isLeaf {
            return leafTextHash(in: range)
        }
        var result = TextHash()
        var start = 0
        for child in children {
            let end = start + child.byteCount
            if end > range.lowerBound, start < range.upperBound {
                let lower = Swift.max(range.lowerBound, start) - start
                let upper = Swift.min(range.upperBound, end) - start
                result = result.followed(by: child.node.textHash(in: lower..<upper))
            }
            if end >= range.upperBound { break }
            start = end
        }
        return result
    }

    /// The hashes of `run` in this subtree and of the bytes after it, from one walk down to
    /// the run: the children after its path are taken whole, from their own hashes.
    func textHashes(of run: Range<Int>) -> (run: TextHash, after: TextHash) {
        if isLeaf {
            return (leafTextHash(in: run), leafTextHash(in: run.upperBound..<bytes.count))
        }
        let last = children.count - 1
        var (index, start) = (0, 0)
        while index < last, start + children[index].byteCount <= run.lowerBound {
            start += children[index].byteCount
            index += 1
        }
        // A run across children (no keystroke's) is hashed child by child.
        guard run.upperBound <= start + children[index].byteCount else {
            return (textHash(in: run), textHash(in: run.upperBound..<byteCount))
        }
        var (inside, after) = children[index].node.textHashes(of: (run.lowerBound - start)..<(run.upperBound - start))
        for next in children[(index + 1)...] {
            after = after.followed(by: next.node.textHash)
        }
        return (inside, after)
    }
}

extension TextBuffer {

    /// The fingerprint of every byte but those in `run`: the hashes of the text before and
    /// after it (see `TextHash`), joined. Saved archives keep it, so it depends on the bytes
    /// alone, never on how the chunks are cut.
    ///
    /// - Complexity: O(log *n*) from the nodes' hashes, plus the bytes of the run that lie in
    ///   the leaves its ends cut, and at most half of each such leaf.
    package func fingerprint(outside run: Range<Int>) -> UInt64 {
        // Cut out of the whole's hash, from the run's and the text's after it: the leaf a
        // short run cuts is read on one side of the run only, not on both (a keystroke's
        // fingerprint read half the leaf twice), and both come from one walk down the tree.
        let (inside, after) = root.textHashes(of: run)
        return root.textHash.cuttingOut(inside, length: run.count, before: after).hash
    }
}

extension TextBufferNode {

    /// The hash of `range` of this leaf's bytes. A run at either end of the leaf (where a
    /// fingerprint cuts it) comes from the leaf's own hash and the bytes on the cheaper side
    /// of the cut (see `prefixHash(upTo:)`): at most half the leaf is read, and none at the
    /// leaf's cut.
    func leafTextHash(in range: Range<Int>) -> TextHash {
        let count = bytes.count
        if range.lowerBound == 0 {
            return prefixHash(upTo: range.upperBound)
        }
        if range.upperBound == count, count - range.lowerBound > prefixReadCount(range.lowerBound) {
            return textHash.droppingPrefix(prefixHash(upTo: range.lowerBound), suffixLength: count - range.lowerBound)
        }
        return hash(of: range)
    }

    /// The hash of this leaf's first `offset` bytes, from the nearest point whose prefix's
    /// hash is known: the start, the end (the leaf's own hash) or the leaf's cut.
    func prefixHash(upTo offset: Int) -> TextHash {
        let count = bytes.count
        // The one choice of the nearest known point is `prefixReadCount`'s.
        if prefixReadCount(offset) < Swift.min(offset, count - offset) {
            let known = TextHash(hash: cut.hash, length: cut.offset)
            return offset >= cut.offset
                ? known.followed(by: hash(of: cut.offset..<offset))
                : known.droppingSuffix(hash(of: offset..<cut.offset), suffixLength: cut.offset - offset, prefixLength: offset)
        }
        if offset <= count - offset { return hash(of: 0..<offset) }
        return textHash.droppingSuffix(hash(of: offset..<count), suffixLength: count - offset, prefixLength: offset)
    }

    /// How many bytes `prefixHash(upTo: offset)` reads.
    func prefixReadCount(_ offset: Int) -> Int {
        let count = bytes.count
        let nearest = Swift.min(offset, count - offset)
        return cut.offset >= 0 ? Swift.min(nearest, abs(offset - cut.offset)) : nearest
    }

    /// The hash of `range` of this leaf's bytes, read byte by byte.
    func hash(of range: Range<Int>) -> TextHash {
        bytes.withUnsafeBytes { TextHash(of: UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
